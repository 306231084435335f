/**
 * Where the features of one head sit: the mouth frame, eyes, jaw hinge, and the skin surface as a
 * function of direction. Every part and every morph field reads positions from here, so eyes,
 * brows, hair and lips agree about where the skin is.
 */
import { add, cross, gauss, norm, scale, smoothstep, type V3, v3 } from './math.js';
import type { AvatarStyle } from './style.js';

/** Upturn of the mouth corners in the neutral pose (radians in the mouth frame). */
export const SMILE_CURVE = 0.035;

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
  // A shorter lower face than cranium: the stylised, friendly proportion.
  if (y < 0) y *= 0.9;
  const front = smoothstep(0.0, 0.06, z);
  // Narrower jaw and chin than cranium: the friendly "heart" silhouette.
  const low = smoothstep(-0.005, -0.095, y);
  x *= 1 - style.jawTaper * low;
  z *= 1 - 0.1 * low * (1 - front);
  // Rounded chin pushed forward, cheeks full, a soft brow ridge.
  z += 0.006 * gauss(x * x + (y + 0.085) ** 2, 0.018) * front;
  const cheek = gauss((Math.abs(x) - 0.043) ** 2 + (y + 0.022) ** 2, 0.017) * front;
  x += Math.sign(x) * 0.005 * cheek;
  z += 0.006 * cheek;
  z += 0.003 * gauss((Math.abs(x) - 0.03) ** 2 + (y - 0.022) ** 2, 0.012) * front;
  // Shallow eye sockets so the eyeballs sit in the face.
  z -= 0.0015 * gauss((Math.abs(x) - style.eyeSpacing) ** 2 + (y - 0.001) ** 2, 0.011) * front;
  // Nose: bridge plus a rounded tip, with little wings.
  const yn = y + 0.02;
  const bridge = gauss((x / 0.006) ** 2 + (yn > 0 ? (yn / 0.017) ** 2 : (yn / 0.0065) ** 2), 1);
  const tip = gauss(x * x + (y + 0.022) ** 2, 0.0049);
  const wings = gauss((Math.abs(x) - 0.0095) ** 2 + (y + 0.025) ** 2, 0.0042);
  z += (style.noseHeight * (0.7 * bridge + 0.55 * tip) + 0.0035 * wings) * front;
  // Philtrum groove and the chin dimple line.
  z -= 0.0009 * gauss(x * x, 0.0025) * gauss((y + 0.035) ** 2, 0.004) * front;
  z -= 0.0018 * gauss(x * x, 0.02) * gauss((y + 0.066) ** 2, 0.004) * front;
  return v3(x, y, z);
}

export function createLayout(style: AvatarStyle): FaceLayout {
  const m = norm(v3(0, Math.sin(MOUTH_ELEVATION), Math.cos(MOUTH_ELEVATION)));
  const eu = v3(1, 0, 0);
  const ev = norm(cross(m, eu));
  const skinAt = (dir: V3): V3 => shapeSkin(style, norm(dir));
  const mouth = skinAt(m);
  const eyeZ = (x: number): number => skinAt(v3(x, 0.001, 0.09))[2];
  const eyes: [V3, V3] = [
    v3(style.eyeSpacing, 0.001, eyeZ(style.eyeSpacing) - 0.0085),
    v3(-style.eyeSpacing, 0.001, eyeZ(-style.eyeSpacing) - 0.0085),
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
