/**
 * The head skin as one closed surface: a polar grid whose pole sits at the mouth, so rings run
 * around the lips. Outer rings flatten into a slit at the lips; inner rings roll in behind the
 * lips and form the mouth cavity, which opens when the lower half rotates with the jaw.
 */
import { faceField } from './fields.js';
import { type FaceLayout, SMILE_CURVE } from './layout.js';
import { add, dot, gauss, linearRgb, mix3, norm, scale, smoothstep, sub, type V3, v3 } from './math.js';
import { fanIndices, gridIndices, type Part, type VertexRig } from './part.js';

const SEGMENTS = 64;
const OUTER_RINGS = 48;
const INNER_RINGS = 11;
/** Vertical half-opening of the lip seam (radians): the lips touch but do not coincide. */
const SEAM = 0.0025;

interface RingVertex {
  p: V3;
  color: V3;
  rig: VertexRig;
}

export function buildHead(layout: FaceLayout): Part {
  const { style, m, eu, ev, mouth } = layout;
  const c = style.colors;
  const skin = linearRgb(c.skin);
  const blush = linearRgb(c.blush);
  const lips = mix3(skin, linearRgb(c.lips), 0.75);
  const lipsInner = mix3(lips, linearRgb(0x9b3c44), 0.5);
  const cavity = linearRgb(0x4a1418);
  const deep = linearRgb(0x1c0608);
  const theta0 = style.mouthHalfAngle;

  const dirFor = (u: number, v: number): V3 => {
    const theta = Math.hypot(u, v);
    const phi = Math.atan2(v, u);
    const tangent = add(scale(eu, Math.cos(phi)), scale(ev, Math.sin(phi)));
    return add(scale(m, Math.cos(theta)), scale(tangent, Math.sin(theta)));
  };
  const lowerOf = (alpha: number): number => smoothstep(0.45, -0.45, Math.sin(alpha));

  const outer = (t: number, alpha: number): RingVertex => {
    const ca = Math.cos(alpha);
    const sa = Math.sin(alpha);
    const a = theta0 + (Math.PI - theta0) * t;
    const b = SEAM + (Math.PI - SEAM) * t;
    const near = 1 - smoothstep(0, 0.15, t);
    const u = a * ca;
    const v = b * sa + SMILE_CURVE * ca * ca * near;
    const dir = dirFor(u, v);
    let p = layout.skinAt(dir);
    const lower = lowerOf(alpha);
    // Lip volume: rounded at the seam, fullest a little out, gone past the vermilion.
    const corner = 0.3 + 0.7 * smoothstep(0.97, 0.55, Math.abs(ca));
    const tp = lower > 0.5 ? 0.016 : 0.012;
    const te = lower > 0.5 ? 0.065 : 0.055;
    const full = style.lipFullness * (lower > 0.5 ? 1.2 : 0.8);
    const bulge = full * (0.45 + 0.55 * smoothstep(0, tp, t)) * (1 - smoothstep(tp, te, t)) * corner;
    p = add(p, scale(norm(dir), bulge));
    // Vermilion: the upper border has a cupid's bow.
    const border = lower > 0.5 ? 0.036 : 0.029 + 0.005 * Math.sin(2 * alpha) ** 2;
    const lipMask = (1 - smoothstep(border - 0.004, border + 0.004, t)) * (0.4 + 0.6 * corner);
    const cheeks =
      gauss((Math.abs(p[0]) - 0.045) ** 2 + (p[1] + 0.02) ** 2, 0.014) * smoothstep(0.02, 0.06, p[2]);
    const noseTip = gauss(p[0] ** 2 + (p[1] + 0.022) ** 2, 0.007) * smoothstep(0.08, 0.1, p[2]);
    const nostrils =
      gauss((Math.abs(p[0]) - 0.0072) ** 2 + (p[1] + 0.0275) ** 2, 0.0022) * smoothstep(0.07, 0.09, p[2]);
    let color = mix3(skin, blush, 0.4 * cheeks + 0.22 * noseTip);
    // Skin is not one colour: warmer, darker sockets round the eyes, a shaded underside of the
    // jaw, cooler temples, and a faint mottle so large areas do not read as plastic.
    const socket = gauss((Math.abs(p[0]) - style.eyeSpacing) ** 2 + (p[1] - 0.001) ** 2 * 0.8, 0.012);
    color = mix3(color, mix3(scale(skin, 0.78), blush, 0.25), 0.45 * socket * smoothstep(0.03, 0.06, p[2]));
    const underJaw = smoothstep(-0.06, -0.09, p[1]) * (1 - smoothstep(0.02, 0.06, p[2]));
    color = mix3(color, scale(skin, 0.7), 0.5 * underJaw);
    const temple = gauss((Math.abs(p[0]) - 0.065) ** 2 + (p[1] - 0.02) ** 2, 0.018);
    color = mix3(color, mix3(skin, linearRgb(0x8a8aa0), 0.25), 0.3 * temple);
    const mottle =
      Math.sin(p[0] * 410 + 1.3) * Math.sin(p[1] * 370 + 0.7) * Math.sin(p[2] * 290 + 2.1) +
      0.5 * Math.sin(p[0] * 1130 + p[1] * 870) * Math.sin(p[2] * 990 - p[1] * 640);
    color = scale(color, 1 + 0.035 * mottle);
    color = mix3(color, scale(skin, 0.45), 0.55 * nostrils);
    color = mix3(color, lips, lipMask);
    // A darker seam line so closed lips read as two lips.
    color = mix3(color, lipsInner, 0.6 * (1 - smoothstep(0, 0.007, t)));
    const lipZone = 1 - smoothstep(0.03, 0.16, t);
    const inner = 1 - smoothstep(0.02, 0.09, t);
    const geom = smoothstep(mouth[1] + 0.006, mouth[1] - 0.028, p[1]) * smoothstep(-0.04, 0.02, p[2]);
    const jaw = geom + (lower - geom) * inner;
    return { p, color, rig: { jaw, lip: lipZone, edge: 1 - smoothstep(0.025, 0.065, t) } };
  };

  // Lip edge in the mouth frame: the inner rings start from it.
  const edge = (alpha: number): V3 => sub(outer(0, alpha).p, mouth);

  const innerRing = (q: number, alpha: number): RingVertex => {
    const e = edge(alpha);
    const lu = dot(e, eu);
    const lv = dot(e, ev);
    const lm = dot(e, m);
    const roll = 0.25;
    let x: number;
    let y: number;
    let z: number;
    let color: V3;
    if (q <= roll) {
      const f = q / roll;
      x = lu * (1 - 0.06 * f);
      y = lv * (1 - f) + Math.sin(alpha) * 0.0004 * f;
      z = lm - 0.006 * f;
      color = mix3(lips, lipsInner, f);
    } else {
      const s = (q - roll) / (1 - roll);
      x = lu * 0.94 * Math.cos((s * Math.PI) / 2) ** 0.6;
      y = Math.sin(alpha) * (0.0004 + 0.017 * Math.sin(Math.PI * s) ** 0.6 * (1 - 0.3 * s));
      z = lm - 0.006 - 0.036 * (1 - Math.cos((s * Math.PI) / 2));
      color = mix3(mix3(lipsInner, cavity, smoothstep(0, 0.25, s)), deep, smoothstep(0.2, 0.8, s));
    }
    const p = add(mouth, add(add(scale(eu, x), scale(ev, y)), scale(m, z)));
    const lower = lowerOf(alpha);
    return { p, color, rig: { jaw: lower, lip: 1, edge: q <= roll ? 1 : 1 - 0.6 * smoothstep(0, 0.5, q) } };
  };

  const rows: RingVertex[][] = [];
  for (let k = INNER_RINGS - 1; k >= 1; k--) {
    const q = k / INNER_RINGS;
    rows.push(ringOf((alpha) => innerRing(q, alpha)));
  }
  for (let i = 0; i < OUTER_RINGS; i++) {
    const t = (i / OUTER_RINGS) ** 1.8;
    rows.push(ringOf((alpha) => outer(t, alpha)));
  }

  const verts: RingVertex[] = rows.flat();
  const deepPole = innerRing(1, -Math.PI / 2);
  const backPole = outer(1, 0);
  const positions = verts.map((v) => v.p);
  const colors = verts.map((v) => v.color);
  const rigs = verts.map((v) => v.rig);
  const deepIndex = positions.length;
  positions.push(deepPole.p);
  colors.push(deepPole.color);
  rigs.push(deepPole.rig);
  const backIndex = positions.length;
  positions.push(backPole.p);
  colors.push(backPole.color);
  rigs.push({ jaw: 0, lip: 0, edge: 0 });

  const indices = [
    ...gridIndices(rows.length, SEGMENTS, true),
    ...fanIndices(deepIndex, 0, SEGMENTS, false),
    ...fanIndices(backIndex, (rows.length - 1) * SEGMENTS, SEGMENTS, true),
  ];
  return {
    name: 'Face',
    material: 'skin',
    positions,
    colors,
    indices: orientOutward(positions, indices),
    targets: (name) => positions.map((p, i) => faceField(layout, name, p, rigs[i]!)),
  };
}

function ringOf(at: (alpha: number) => RingVertex): RingVertex[] {
  const ring: RingVertex[] = [];
  for (let j = 0; j < SEGMENTS; j++) ring.push(at((2 * Math.PI * j) / SEGMENTS));
  return ring;
}

/** Flips the winding if the back of the head faces inwards (the grid's handedness is not obvious). */
function orientOutward(positions: V3[], indices: number[]): number[] {
  // The last triangle of the grid sits on the back of the head, far from the mouth.
  const n = indices.length;
  const a = positions[indices[n - 3]!]!;
  const b = positions[indices[n - 2]!]!;
  const c = positions[indices[n - 1]!]!;
  const normal = crossOf(sub(b, a), sub(c, a));
  if (dot(normal, a) > 0) return indices;
  const flipped = indices.slice();
  for (let i = 0; i < flipped.length; i += 3) {
    const t = flipped[i + 1]!;
    flipped[i + 1] = flipped[i + 2]!;
    flipped[i + 2] = t;
  }
  return flipped;
}

function crossOf(a: V3, b: V3): V3 {
  return v3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
