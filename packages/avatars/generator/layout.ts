/**
 * Where the features of one head sit: the mouth frame, eyes, jaw hinge, and the skin surface as a
 * function of direction. Every part and every morph field reads positions from here, so eyes,
 * brows, hair and lips agree about where the skin is.
 */
import { add, cross, gauss, lerp, norm, scale, smoothstep, type V3, v3 } from './math.js';
import type { AvatarStyle } from './style.js';

/** Upturn of the mouth corners in the neutral pose (radians in the mouth frame). */
export const SMILE_CURVE = 0.035;

/** How far the front of the eyeball stands out of the socket's skin (metres). */
const EYE_PROUD = 0.0048;

/** Elevation of the mouth below the head centre (radians). */
const MOUTH_ELEVATION = -0.52;

export interface FaceLayout {
  style: AvatarStyle;
  /** Mouth axis (unit, from the head centre through the mouth) and its tangent frame. */
  m: V3;
  eu: V3;
  ev: V3;
  /** Mouth centre on the skin (between the lips). */
  mouth: V3;
  /** Jaw hinge (rotation pivot of jawOpen). */
  jawPivot: V3;
  /** Jaw opening angle at jawOpen = 1 (radians). */
  jawAngle: number;
  /** Eye centres: index 0 = left (+x, the avatar's left), 1 = right. */
  eyes: [V3, V3];
  eyeRadius: number;
  /** Mouth corners on the skin: index 0 = left (+x), 1 = right. */
  corners: [V3, V3];
  /** Half the mouth width in metres. */
  mouthHalfWidth: number;
  /** Skin point in a direction from the head centre (shape without lips). */
  skinAt(dir: V3): V3;
}

/** The plain head shape: an ellipsoid with a tapered jaw, chin, cheeks, brow ridge and nose. */
function shapeSkin(style: AvatarStyle, dir: V3): V3 {
  const [rx, ry, rz] = style.head;
  const r = 1 / Math.sqrt((dir[0] / rx) ** 2 + (dir[1] / ry) ** 2 + (dir[2] / rz) ** 2);
  let [x, y, z] = scale(dir, r);
  // A shorter lower face than cranium in design space; proportions.ts stretches it to adult.
  if (y < 0) y *= 0.9;
  const front = smoothstep(0.0, 0.06, z);
  // Jaw: a rounded U below the cheekbones, not the V an ellipsoid tapered towards its pole makes.
  // Each horizontal slice keeps its shape; its width follows a superellipse (flatter at the
  // bottom than the ellipse), narrowed towards the chin by the style's taper.
  const yl = ry * 0.9;
  const tl = clamp01(-y / yl);
  const ellipse = Math.sqrt(Math.max(1e-9, 1 - tl * tl));
  const rounded = (1 - tl ** JAW_ROUNDNESS) ** (1 / JAW_ROUNDNESS);
  const low = smoothstep(0.0, 0.75, tl);
  x *= Math.min(JAW_MAX_WIDEN, rounded / ellipse) * (1 - style.jawTaper * low);
  z *= 1 - 0.1 * low * (1 - front);
  // The jaw's underside stays low from the chin back to the jaw's angle below the ear, then folds
  // up behind it into the neck (side view: a jawline that turns at the angle, not a straight
  // line from chin to ear, and no bowl bottom under the head centre).
  const chinward = smoothstep(-0.035, 0.015, z);
  y += (1 - lerp(UNDERSIDE_LIFT, 1, chinward)) * ramp(-0.025 - y, 0.02);
  // Chin pushed forward, with the groove between lower lip and chin above it.
  z += 0.008 * gauss(x * x + (y + 0.08) ** 2, 0.016) * front;
  z -= 0.0016 * gauss(x * x * 0.4 + (y + 0.062) ** 2, 0.005) * front;
  // The chin's mass: the mandible's front stands forward under the lower lip, so the profile
  // drops from the lip into a groove and then a chin, instead of curving away to the throat.
  z += CHIN_FORWARD * gauss(x * x, 0.017) * smoothstep(-0.05, -0.064, y) * smoothstep(0.01, 0.05, z);
  // Cheekbones high and forward, the cheek hollowing a little beneath them.
  const cheekbone = gauss((Math.abs(x) - 0.046) ** 2 + (y + 0.008) ** 2 * 1.8, 0.013) * front;
  x += Math.sign(x) * 0.004 * cheekbone;
  z += 0.0055 * cheekbone;
  const cheek = gauss((Math.abs(x) - 0.04) ** 2 + (y + 0.03) ** 2, 0.015) * front;
  z += 0.0035 * cheek;
  z -= 0.002 * gauss((Math.abs(x) - 0.05) ** 2 + (y + 0.046) ** 2, 0.01) * front;
  if (style.sculpt) {
    const { cheeks, jaw } = style.sculpt;
    const ax = Math.abs(x);
    // Cheek fullness: a broad soft mass below the cheekbone and beside the mouth, pushing the
    // face forward and out so the cheek rounds into the jaw instead of running flat to it.
    const mass = gauss((ax - 0.043) ** 2 + (y + 0.034) ** 2 * 0.7, 0.015) * front;
    z += cheeks * mass;
    x += Math.sign(x) * 0.2 * cheeks * mass;
    // The nasolabial fold: a shallow groove on the line from the nose wing to past the mouth
    // corner, where the cheek's mass ends.
    const along = clamp01(((ax - 0.012) * 0.35 + -(y + 0.026) * 0.94) / 0.03);
    const lx = 0.012 + 0.35 * 0.03 * along + 0.003;
    const ly = -0.026 - 0.94 * 0.03 * along;
    const fold = gauss((ax - lx) ** 2 + (y - ly) ** 2, 0.0035) * Math.sin(Math.PI * along) * front;
    z -= 0.35 * cheeks * fold;
    // The jaw's angle below the ear: out to the side, then a line forward to the chin.
    const angle = gauss((y + 0.07) ** 2, 0.014) * smoothstep(0.03, 0.06, ax) * (1 - 0.6 * front);
    x += Math.sign(x) * jaw * angle;
  }
  // Brow ridge, strongest above the inner eye.
  z += 0.0042 * gauss((Math.abs(x) - 0.026) ** 2 + (y - 0.02) ** 2 * 2.2, 0.012) * front;
  // Eye sockets deep enough that the eyeballs sit in the face, not on it.
  z -= 0.0042 * gauss((Math.abs(x) - style.eyeSpacing) ** 2 + (y - 0.002) ** 2 * 1.3, 0.0115) * front;
  // Nose: a narrow bridge broadening to a rounded tip, with alar wings and a columella.
  const yn = y + 0.02;
  const bridgeWidth = 0.0052 + 0.0025 * smoothstep(0.0, -0.02, yn);
  const bridge = gauss((x / bridgeWidth) ** 2 + (yn > 0 ? (yn / 0.019) ** 2 : (yn / 0.0065) ** 2), 1);
  const tip = gauss(x * x * 1.3 + (y + 0.022) ** 2, 0.0047);
  const wings = gauss((Math.abs(x) - 0.0105) ** 2 + (y + 0.0255) ** 2 * 1.4, 0.0042);
  z += (style.noseHeight * (0.72 * bridge + 0.6 * tip) + 0.0056 * wings) * front;
  // The alar crease: a shallow groove round the back of each wing, so the wings read as their
  // own shapes beside the tip instead of melting into the cheeks.
  const wingDistance = Math.hypot(Math.abs(x) - 0.0105, (y + 0.0255) * 0.85);
  const behindTip = smoothstep(0.004, 0.012, Math.abs(x));
  z -= 0.0011 * gauss((wingDistance - 0.0068) ** 2, 0.0013) * behindTip * front;
  // Philtrum groove.
  z -= 0.0016 * gauss(x * x, 0.0022) * gauss((y + 0.035) ** 2, 0.004) * front;
  return v3(x, y, z);
}

/** How far the chin stands forward of the ellipsoid's curve below the lower lip (metres). */
const CHIN_FORWARD = 0.01;

/** How far the underside behind the chin folds up (its drop below the knee is scaled by this). */
const UNDERSIDE_LIFT = 0.6;

const clamp01 = (v: number): number => Math.max(0, Math.min(1, v));

/** Superellipse exponent of the jaw's front outline (2: the ellipsoid's own, larger: squarer). */
const JAW_ROUNDNESS = 2.3;
/** Cap on how much the jaw outline widens a slice (the ratio grows without bound at the pole). */
const JAW_MAX_WIDEN = 1.5;

/**
 * Smooth max(0, u) with a rounded knee of width `knee`: used to fold the head's underside up
 * without a crease.
 */
function ramp(u: number, knee: number): number {
  if (u <= 0) return 0;
  return u < knee ? (u * u) / (2 * knee) : u - knee / 2;
}

export function createLayout(style: AvatarStyle): FaceLayout {
  const m = norm(v3(0, Math.sin(MOUTH_ELEVATION), Math.cos(MOUTH_ELEVATION)));
  const eu = v3(1, 0, 0);
  const ev = norm(cross(m, eu));
  const skinAt = (dir: V3): V3 => shapeSkin(style, norm(dir));
  const mouth = skinAt(m);
  const eyeZ = (x: number): number => skinAt(v3(x, 0.001, 0.09))[2];
  // The eyeball's front stands this far out of the socket's skin, whatever its size.
  const sink = style.eyeRadius - EYE_PROUD;
  const eyes: [V3, V3] = [
    v3(style.eyeSpacing, 0.001, eyeZ(style.eyeSpacing) - sink),
    v3(-style.eyeSpacing, 0.001, eyeZ(-style.eyeSpacing) - sink),
  ];
  const ev0 = ev[1] < 0 ? scale(ev, -1) : ev;
  /** Direction of a mouth-frame angle offset (u across, v up), as the head grid maps it. */
  const corner = (side: number): V3 => {
    const u = side * style.mouthHalfAngle;
    const v = SMILE_CURVE;
    const theta = Math.hypot(u, v);
    const phi = Math.atan2(v, u);
    const tangent = add(scale(eu, Math.cos(phi)), scale(ev0, Math.sin(phi)));
    return skinAt(add(scale(m, Math.cos(theta)), scale(tangent, Math.sin(theta))));
  };
  const corners: [V3, V3] = [corner(1), corner(-1)];
  return {
    style,
    corners,
    mouthHalfWidth: corners[0][0],
    m,
    eu,
    ev: ev0,
    mouth,
    jawPivot: v3(0, -0.008, -0.008),
    jawAngle: 0.3,
    eyes,
    eyeRadius: style.eyeRadius,
    skinAt,
  };
}
