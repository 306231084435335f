/**
 * The head skin as one closed surface: a polar grid whose pole sits at the mouth, so rings run
 * around the lips. Outer rings flatten into a slit at the lips; inner rings roll in behind the
 * lips and form the mouth cavity, which opens when the lower half rotates with the jaw.
 */
import { faceField } from './fields.js';
import type { FaceLayout } from './layout.js';
import { add, dot, gauss, linearRgb, mix3, norm, scale, smoothstep, sub, type V3, v3 } from './math.js';
import { fanIndices, gridIndices, type Part, type VertexRig } from './part.js';
import { mouthOffset } from './skin/mouth-polar.js';
import { lipBorder, lowerOf, paintSkin, skinPalette, VERTEX_DETAIL } from './skin/paint.js';
import { uvOfDirection } from './skin/uv.js';

const SEGMENTS = 64;
const OUTER_RINGS = 48;
const INNER_RINGS = 11;

interface RingVertex {
  p: V3;
  color: V3;
  /** Texture coordinates, and the vertex colour that multiplies the baked texture. */
  uv: [number, number];
  textured: V3;
  rig: VertexRig;
}

const WHITE: V3 = [1, 1, 1];

export function buildHead(layout: FaceLayout): Part {
  const { style, m, eu, ev, mouth } = layout;
  const palette = skinPalette(layout);
  const { lips, lipsInner } = palette;
  const cavity = linearRgb(0x4a1418);
  const deep = linearRgb(0x1c0608);
  const theta0 = style.mouthHalfAngle;

  const dirFor = (u: number, v: number): V3 => {
    const theta = Math.hypot(u, v);
    const phi = Math.atan2(v, u);
    const tangent = add(scale(eu, Math.cos(phi)), scale(ev, Math.sin(phi)));
    return add(scale(m, Math.cos(theta)), scale(tangent, Math.sin(theta)));
  };

  const outer = (t: number, alpha: number): RingVertex => {
    const ca = Math.cos(alpha);
    const [u, v] = mouthOffset(t, alpha, theta0);
    const dir = dirFor(u, v);
    let p = layout.skinAt(dir);
    const lower = lowerOf(alpha);
    // Lip volume: rounded at the seam, full across the vermilion, then falling off quickly just
    // past its border (so the lip has an edge, not a swelling); the upper border is a small ridge
    // (the "white roll") and two philtrum columns run from the cupid's bow up to the nose.
    const corner = 0.3 + 0.7 * smoothstep(0.97, 0.55, Math.abs(ca));
    const border = lipBorder(alpha);
    const full = style.lipFullness * (lower > 0.5 ? 1.1 : 1);
    const rise = 0.45 + 0.55 * smoothstep(0, 0.6 * border, t);
    const fall = 1 - smoothstep(0.85 * border, border + 0.014, t);
    const ridge = (1 - lower) * 0.22 * gauss((t - border) ** 2, 0.0045);
    let bulge = full * corner * (rise * fall + ridge);
    const philtrumBand = (1 - lower) * smoothstep(border, border + 0.01, t) * (1 - smoothstep(0.07, 0.12, t));
    bulge += 0.0013 * philtrumBand * gauss((Math.abs(p[0]) - 0.0046) ** 2, 0.0013);
    p = add(p, scale(norm(dir), bulge));
    const color = paintSkin(layout, palette, p, t, alpha, VERTEX_DETAIL);
    const lipZone = 1 - smoothstep(0.03, 0.16, t);
    const inner = 1 - smoothstep(0.02, 0.09, t);
    const geom = smoothstep(mouth[1] + 0.006, mouth[1] - 0.028, p[1]) * smoothstep(-0.04, 0.02, p[2]);
    const jaw = geom + (lower - geom) * inner;
    return {
      p,
      color,
      uv: uvOfDirection(dir),
      textured: WHITE,
      rig: { jaw, lip: lipZone, edge: 1 - smoothstep(0.025, 0.065, t) },
    };
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
    // Textured, the mouth's inside samples the texture at the seam it rolls in from, and its
    // vertex colour darkens that lip colour to its own.
    const seam = outer(0, alpha);
    const seamColor = paintSkin(layout, palette, seam.p, 0, alpha, VERTEX_DETAIL);
    const textured = v3(
      Math.min(1, color[0] / seamColor[0]),
      Math.min(1, color[1] / seamColor[1]),
      Math.min(1, color[2] / seamColor[2]),
    );
    // Step a little into the texture (towards the mouth centre) per inner ring, so no triangle
    // is degenerate in UV and the tangents stay defined; it reads the lip texels by the seam.
    const uv: [number, number] = [
      seam.uv[0] - Math.cos(alpha) * q * 0.006,
      seam.uv[1] + Math.sin(alpha) * q * 0.006,
    ];
    return {
      p,
      color,
      uv,
      textured,
      rig: { jaw: lower, lip: 1, edge: q <= roll ? 1 : 1 - 0.6 * smoothstep(0, 0.5, q) },
    };
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
  const uvs = verts.map((v) => v.uv);
  const textured = verts.map((v) => v.textured);
  const deepIndex = positions.length;
  positions.push(deepPole.p);
  colors.push(deepPole.color);
  rigs.push(deepPole.rig);
  uvs.push(deepPole.uv);
  textured.push(deepPole.textured);
  const backIndex = positions.length;
  positions.push(backPole.p);
  colors.push(backPole.color);
  rigs.push({ jaw: 0, lip: 0, edge: 0 });
  uvs.push(backPole.uv);
  textured.push(backPole.textured);

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
    texture: { uvs, colors: textured },
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
