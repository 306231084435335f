/** Brows, teeth, tongue and ears: the small parts around the face. */

import { faceField } from './fields.js';
import type { FaceLayout } from './layout.js';
import {
  add,
  cross,
  gauss,
  lerp,
  linearRgb,
  mix3,
  norm,
  scale,
  smoothstep,
  sub,
  type V3,
  v3,
} from './math.js';
import { gridIndices, orientAway, type Part, type VertexRig } from './part.js';
import { uvOfDirection } from './skin/uv.js';

const STATIC_RIG: VertexRig = { jaw: 0, lip: 0, edge: 0 };
const JAW_RIG: VertexRig = { jaw: 1, lip: 0, edge: 0, rigid: true };

/** Skin normal by finite differences of the skin surface. */
function skinNormal(layout: FaceLayout, dir: V3): V3 {
  const e = 0.01;
  const p = layout.skinAt(dir);
  const t1 = norm(cross(dir, v3(0, 1, 0)));
  const t2 = norm(cross(t1, dir));
  const a = sub(layout.skinAt(add(dir, scale(t1, e))), p);
  const b = sub(layout.skinAt(add(dir, scale(t2, e))), p);
  const n = norm(cross(a, b));
  return n[2] * dir[2] + n[0] * dir[0] + n[1] * dir[1] < 0 ? scale(n, -1) : n;
}

/** Skin point in front of face-plane coordinates (x, y). */
function skinAtXY(layout: FaceLayout, x: number, y: number): { p: V3; dir: V3 } {
  let dir = norm(v3(x, y, 0.085));
  for (let i = 0; i < 3; i++) {
    const p = layout.skinAt(dir);
    dir = norm(v3(x, y, p[2]));
  }
  return { p: layout.skinAt(dir), dir };
}

/** A soft, tapered brow over each eye. Both brows are one mesh. */
export function buildBrows(layout: FaceLayout): Part {
  const color = linearRgb(layout.style.colors.brows);
  const skin = linearRgb(layout.style.colors.skin);
  const along = 22;
  const around = 10;
  const positions: V3[] = [];
  const colors: V3[] = [];
  const indices: number[] = [];
  for (const k of [1, -1]) {
    const start = positions.length;
    for (let i = 0; i < along; i++) {
      const s = i / (along - 1);
      const x = k * lerp(0.012, 0.051, s);
      const y = 0.0225 + 0.0085 * Math.sin(Math.PI * (s * 0.85 + 0.1)) - 0.004 * s * s;
      const { p, dir } = skinAtXY(layout, x, y);
      const n = skinNormal(layout, dir);
      const next = skinAtXY(layout, k * lerp(0.012, 0.051, Math.min(1, s + 0.01)), y).p;
      const prev = skinAtXY(layout, k * lerp(0.012, 0.051, Math.max(0, s - 0.01)), y).p;
      const tangent = norm(sub(next, prev));
      const up = norm(cross(n, tangent));
      const upV = up[1] < 0 ? scale(up, -1) : up;
      const width =
        0.0027 * (1 - 0.75 * smoothstep(0.35, 1, s)) * (0.55 + 0.45 * smoothstep(0, 0.12, s)) + 0.0004;
      const thick = 0.0008 + 0.0005 * (1 - s);
      const centre = add(p, scale(n, 0.0003));
      for (let j = 0; j < around; j++) {
        const a = (2 * Math.PI * j) / around;
        positions.push(add(centre, add(scale(upV, width * Math.cos(a)), scale(n, thick * Math.sin(a)))));
        // Soft edges: sparse hairs at the top and bottom of the brow let the skin through.
        colors.push(mix3(color, skin, 0.3 * Math.cos(a) ** 2 + 0.2 * smoothstep(0.2, 0, s)));
      }
    }
    const grid = gridIndices(along, around, true, start);
    const mid = skinAtXY(layout, k * 0.03, 0.028);
    indices.push(...orientAway(positions, grid, add(mid.p, scale(mid.dir, -0.002)), 5 * around * 2 + 2));
  }
  return {
    name: 'Brows',
    material: 'brows',
    positions,
    colors,
    indices,
    targets: (name) => positions.map((p) => faceField(layout, name, p, STATIC_RIG)),
  };
}

/** A row of teeth as a rounded horseshoe band in the mouth frame. */
export function buildTeeth(layout: FaceLayout, jaw: 'upper' | 'lower'): Part {
  const { m, eu, ev, mouth } = layout;
  const upper = jaw === 'upper';
  const along = 72;
  const around = 14;
  const radius = upper ? 0.0205 : 0.0188;
  const front = upper ? -0.0078 : -0.0094;
  // The upper incisors reach a little below the lip line: visible whenever the lips part.
  const top = upper ? 0.0095 : 0.0005;
  const bottom = upper ? -0.0065 : -0.0115;
  const thickness = upper ? 0.0034 : 0.003;
  const span = 1.2;
  const enamel = linearRgb(0xf3eee4);
  const gum = linearRgb(0xc86a6e);
  const gap = linearRgb(0xb9ada0);
  const teethCount = 14;
  const positions: V3[] = [];
  const colors: V3[] = [];
  const local = (u: number, v: number, w: number): V3 =>
    add(mouth, add(add(scale(eu, u), scale(ev, v)), scale(m, w)));
  for (let i = 0; i < along; i++) {
    const psi = -span + (2 * span * i) / (along - 1);
    const radial = v3(Math.sin(psi), 0, Math.cos(psi));
    const cu = radius * Math.sin(psi);
    const cw = front - radius * (1 - Math.cos(psi));
    // Incisal edge scallops: each tooth a little rounded where it meets its neighbour.
    const toothPhase = (((psi + span) / (2 * span)) * teethCount) % 1;
    const notch = (1 - Math.sin(Math.PI * toothPhase)) ** 4;
    const edgeLift = 0.0008 * notch;
    const back = Math.abs(psi) / span;
    const shrink = 1 - 0.25 * back;
    for (let j = 0; j < around; j++) {
      const a = (2 * Math.PI * j) / around;
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      const rr = (thickness / 2) * Math.sign(ca) * Math.abs(ca) ** 0.45 * shrink;
      const h0 = upper ? bottom + edgeLift : bottom;
      const h1 = upper ? top : top - edgeLift;
      const yy = lerp(h0, h1, 0.5 + 0.5 * Math.sign(sa) * Math.abs(sa) ** 0.35);
      const yBack = upper ? yy + 0.002 * back : yy - 0.002 * back;
      positions.push(local(cu + radial[0] * rr, yBack, cw + radial[2] * rr - thickness / 2));
      const gumSide = upper ? smoothstep(0.0065, 0.0085, yy) : smoothstep(-0.0085, -0.0105, yy);
      const col = mix3(mix3(enamel, gap, 0.55 * notch), gum, gumSide);
      colors.push(col);
    }
  }
  const centre = local(0, (top + bottom) / 2, front - thickness / 2);
  const indices = orientAway(positions, gridIndices(along, around, false), centre, (along / 2) * around * 2);
  return {
    name: upper ? 'TeethUpper' : 'TeethLower',
    material: 'teeth',
    positions,
    colors,
    indices,
    ...(upper ? {} : { targets: (name) => positions.map((p) => faceField(layout, name, p, JAW_RIG)) }),
  };
}

/** The tongue: a flattened, slightly grooved ellipsoid resting behind the lower teeth. */
export function buildTongue(layout: FaceLayout): Part {
  const { m, eu, ev, mouth } = layout;
  const rows = 18;
  const cols = 28;
  const positions: V3[] = [];
  const colors: V3[] = [];
  const base = linearRgb(0xd36d6d);
  const groove = linearRgb(0xa94d52);
  const underside = linearRgb(0x8e3b44);
  const centreLocal = v3(0, -0.0088, -0.027);
  const radii = v3(0.0165, 0.0062, 0.022);
  const toHead = (l: V3): V3 => add(mouth, add(add(scale(eu, l[0]), scale(ev, l[1])), scale(m, l[2])));
  for (let i = 0; i <= rows; i++) {
    const th = (Math.PI * i) / rows;
    for (let j = 0; j < cols; j++) {
      const ph = (2 * Math.PI * j) / cols;
      let x = Math.sin(th) * Math.cos(ph);
      let y = Math.cos(th);
      const z = Math.sin(th) * Math.sin(ph);
      if (y > 0) y *= 0.75;
      // Flatter, wider tip; a midline groove on top.
      const tip = smoothstep(0.2, 1, z);
      x *= 1 + 0.08 * tip;
      y -= y > 0 ? 0.18 * gauss(x * x, 0.18) : 0;
      const l = v3(
        centreLocal[0] + radii[0] * x,
        centreLocal[1] + radii[1] * y,
        centreLocal[2] + radii[2] * z,
      );
      positions.push(toHead(l));
      const top = smoothstep(-0.2, 0.3, y);
      colors.push(mix3(underside, mix3(base, groove, 0.5 * gauss(x * x, 0.12) * top), top));
    }
  }
  const indices = orientAway(positions, gridIndices(rows + 1, cols, true), toHead(centreLocal), 6 * cols * 2);
  return {
    name: 'Tongue',
    material: 'tongue',
    positions,
    colors,
    indices,
    targets: (name) =>
      positions.map((p) => {
        const d = faceField(layout, name, p, JAW_RIG);
        if (name !== 'tongueOut') return d;
        const w = sub(p, mouth);
        const depth = w[0] * m[0] + w[1] * m[1] + w[2] * m[2];
        const reach = smoothstep(-0.05, -0.006, depth);
        const lu = w[0] * eu[0] + w[1] * eu[1] + w[2] * eu[2];
        return add(
          d,
          add(
            add(scale(m, 0.027 * (0.35 + 0.65 * reach)), scale(ev, -0.0035 * reach)),
            scale(eu, 0.12 * lu * reach),
          ),
        );
      }),
  };
}

/**
 * Ears: a flattened shell whose outer face carries the ear's relief — the rolled helix round the
 * rim, the scapha groove inside it, the antihelix ridge, the deep concha in front of the ear
 * canal and a soft lobe — a little redder than the face (thin skin over cartilage). Static.
 */
export function buildEars(layout: FaceLayout): Part {
  const [rx] = layout.style.head;
  const skin = linearRgb(layout.style.colors.skin);
  const blush = linearRgb(layout.style.colors.blush);
  const rows = 24;
  const cols = 40;
  const positions: V3[] = [];
  const colors: V3[] = [];
  const uvs: [number, number][] = [];
  const multipliers: V3[] = [];
  const indices: number[] = [];
  /** Relief of the outer face at disk point (oy up, oz back→front), in shell thicknesses. */
  const relief = (oy: number, oz: number): { h: number; concha: number } => {
    const rho = Math.hypot(oy, oz);
    const lobe = smoothstep(-0.45, -0.75, oy);
    const cartilage = 1 - lobe;
    // The helix rolls round the top and back; it fades out at the front where it meets the head.
    const rimSpan = smoothstep(0.55, -0.2, oz) + smoothstep(0.1, 0.6, oy);
    const helix = 0.45 * gauss((rho - 0.86) ** 2, 0.07) * Math.min(1, rimSpan) * cartilage;
    const scapha = -0.35 * gauss((rho - 0.7) ** 2, 0.05) * Math.min(1, rimSpan) * cartilage;
    const antihelix = 0.3 * gauss((rho - 0.52) ** 2, 0.07) * smoothstep(-0.5, 0.1, oy + 0.4 * oz) * cartilage;
    const concha = gauss((oy + 0.08) ** 2 + (oz - 0.12) ** 2 * 1.4, 0.24) * cartilage;
    return { h: helix + scapha + antihelix - 0.85 * concha, concha };
  };
  for (const k of [1, -1]) {
    const start = positions.length;
    const centre = v3(k * (rx * 0.97), -0.008, -0.014);
    for (let i = 0; i <= rows; i++) {
      const th = (Math.PI * i) / rows;
      for (let j = 0; j < cols; j++) {
        const ph = (2 * Math.PI * j) / cols;
        const ox = Math.cos(th);
        const oy = Math.sin(th) * Math.cos(ph);
        const oz = Math.sin(th) * Math.sin(ph);
        const { h, concha } = relief(oy, oz);
        // Only the outer face carries the relief; the back of the ear stays a smooth shell.
        const face = smoothstep(0.1, 0.5, ox);
        const lobe = smoothstep(-0.45, -0.8, oy);
        const lx = 0.0085 * (ox * (1 + 0.4 * lobe) + face * h * 0.9);
        const ly = 0.024 * oy * (oy > 0 ? 1.05 : 0.9);
        const lz = 0.0155 * oz;
        // Tilt the ear back a little and flare it out from the head.
        const tilt = 0.25;
        const y = ly * Math.cos(tilt) - lz * Math.sin(tilt);
        const z = ly * Math.sin(tilt) + lz * Math.cos(tilt);
        // Flare: the back rim stands off the head so the ear reads from the front.
        const p = add(centre, v3(k * (lx + 0.008 * (oz < 0 ? -oz : 0)), y, z));
        positions.push(p);
        const redness = 0.2 + 0.35 * face * concha + 0.15 * lobe;
        const color = mix3(mix3(skin, blush, redness), scale(skin, 0.72), 0.45 * face * concha);
        colors.push(color);
        // Textured, the ear reads the head's skin where it sits (the texels beside it) and its
        // vertex colours tint that with the ear's redness and the concha's shade.
        uvs.push(uvOfDirection(norm(p)));
        multipliers.push(
          v3(
            Math.min(1, color[0] / skin[0]),
            Math.min(1, color[1] / skin[1]),
            Math.min(1, color[2] / skin[2]),
          ),
        );
      }
    }
    indices.push(...orientAway(positions, gridIndices(rows + 1, cols, true, start), centre, 4 * cols * 2));
  }
  return {
    name: 'Ears',
    material: 'skin',
    positions,
    colors,
    indices,
    texture: { uvs, colors: multipliers, relief: false },
  };
}
