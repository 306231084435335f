/**
 * Bakes the bust's skin texture set over its atlas (atlas.ts): every texel is found on a triangle
 * of the real mesh (rasterised in atlas space), which gives its point on the skin, and the same
 * painters as a procedural head would use read that point:
 * - base colour: a skin tone with low-frequency mottle, redness on the cheeks, nose and ears, lips
 *   from MakeHuman's lip mask (CC0, in the mesh's own UV layout), darker lids, painted brows,
 *   and a few small moles;
 * - normal (tangent space, glTF convention: +x along u, +y up the image): pores and fine grain,
 *   vertical lip lines, faint forehead lines, from a height field differentiated over the real
 *   distances between neighbouring texels of the same island;
 * - occlusion/roughness/metal (ORM): an oilier T-zone, glossy lips, matte cheeks and neck.
 * Texels outside every island copy their nearest painted neighbour (mip levels do not bleed
 * the background into the skin).
 */
import { clamp, gauss, smoothstep, type V3 } from '../math.js';
import type { SkinMaps } from '../skin/bake.js';
import { fbm, valueNoise } from '../skin/noise.js';
import { hairCover, type Skull } from './hairline.js';

/** A greyscale mask image in the hm08 UV layout (rows from the top). */
export interface Mask {
  width: number;
  height: number;
  /** RGBA, as jpeg-js decodes it; the red channel is read. */
  data: Uint8Array;
}

/** Where the painters look: world-space landmarks of this head (metres). */
export interface FaceLandmarks {
  eyes: [V3, V3];
  eyeRadius: number;
  noseTip: V3;
  mouth: V3;
  /** Below this height, the neck (less redness, more matte). */
  jawY: number;
}

export interface SkinSource {
  size: number;
  indices: readonly number[];
  positions: readonly V3[];
  normals: readonly V3[];
  /** Atlas uv per vertex (v down the image). */
  uvs: readonly [number, number][];
  /** OBJ uv per vertex (v up), where the masks are read. */
  sourceUvs: readonly [number, number][];
  masks: { lips: Mask; eyelids: Mask; ears: Mask };
  landmarks: FaceLandmarks;
  /** The hair's region: the scalp under the cards is painted the hair's colour. */
  skull: Skull;
  colors: { skin: number; lips: number; brows: number; hair: number };
}

const srgbToLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const hexLinear = (hex: number): V3 => [
  srgbToLinear(((hex >> 16) & 255) / 255),
  srgbToLinear(((hex >> 8) & 255) / 255),
  srgbToLinear((hex & 255) / 255),
];
const toSrgb8 = (linear: number): number => {
  const c = clamp(linear);
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
};

function sampleMask(mask: Mask, u: number, v: number): number {
  const x = clamp(u) * (mask.width - 1);
  const y = clamp(1 - v) * (mask.height - 1);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(mask.width - 1, x0 + 1);
  const y1 = Math.min(mask.height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const at = (xx: number, yy: number): number => mask.data[(yy * mask.width + xx) * 4]! / 255;
  return (
    (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy
  );
}

/** Per texel: the skin point, its normal and the source uv (NaN where no triangle covers it). */
interface Raster {
  position: Float64Array;
  normal: Float64Array;
  source: Float64Array;
  /** Island id + 1 of each texel (0: empty). */
  island: Int32Array;
}

function rasterise(src: SkinSource, islandOf: Int32Array): Raster {
  const { size, indices, positions, normals, uvs, sourceUvs } = src;
  const n = size * size;
  const r: Raster = {
    position: new Float64Array(n * 3).fill(Number.NaN),
    normal: new Float64Array(n * 3),
    source: new Float64Array(n * 2),
    island: new Int32Array(n),
  };
  for (let t = 0; t < indices.length; t += 3) {
    const ids = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const p = ids.map((i) => [uvs[i]![0] * size - 0.5, uvs[i]![1] * size - 0.5]);
    const [a, b, c] = p as [number[], number[], number[]];
    const det = (b[0]! - a[0]!) * (c[1]! - a[1]!) - (c[0]! - a[0]!) * (b[1]! - a[1]!);
    if (Math.abs(det) < 1e-12) continue;
    // Cover a texel more, so neighbouring triangles leave no cracks.
    const pad = 0.75;
    const x0 = Math.max(0, Math.floor(Math.min(a[0]!, b[0]!, c[0]!) - pad));
    const x1 = Math.min(size - 1, Math.ceil(Math.max(a[0]!, b[0]!, c[0]!) + pad));
    const y0 = Math.max(0, Math.floor(Math.min(a[1]!, b[1]!, c[1]!) - pad));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(a[1]!, b[1]!, c[1]!) + pad));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        let w1 = ((x - a[0]!) * (c[1]! - a[1]!) - (c[0]! - a[0]!) * (y - a[1]!)) / det;
        let w2 = ((b[0]! - a[0]!) * (y - a[1]!) - (x - a[0]!) * (b[1]! - a[1]!)) / det;
        let w0 = 1 - w1 - w2;
        const inside = w0 >= 0 && w1 >= 0 && w2 >= 0;
        const k = y * size + x;
        // A texel just outside takes the clamped barycentrics, only where no triangle has it.
        if (!inside) {
          if (r.island[k] !== 0 || Math.min(w0, w1, w2) < -pad / Math.sqrt(Math.abs(det))) continue;
          w0 = Math.max(0, w0);
          w1 = Math.max(0, w1);
          w2 = Math.max(0, w2);
          const s = w0 + w1 + w2;
          w0 /= s;
          w1 /= s;
          w2 /= s;
        }
        const w = [w0, w1, w2];
        for (let d = 0; d < 3; d++) {
          r.position[k * 3 + d] = w.reduce((s, wk, j) => s + wk * positions[ids[j]!]![d]!, 0);
          r.normal[k * 3 + d] = w.reduce((s, wk, j) => s + wk * normals[ids[j]!]![d]!, 0);
        }
        for (let d = 0; d < 2; d++)
          r.source[k * 2 + d] = w.reduce((s, wk, j) => s + wk * sourceUvs[ids[j]!]![d]!, 0);
        r.island[k] = islandOf[ids[0]!]! + 1;
      }
    }
  }
  return r;
}

/** Painted brows: a band of short hairs above each eye, denser and darker towards the middle. */
function browAt(p: V3, lm: FaceLandmarks, side: 0 | 1): number {
  const eye = lm.eyes[side]!;
  const r = lm.eyeRadius;
  const outward = side === 0 ? 1 : -1;
  // Along the brow: 0 at the inner end (over the tear duct), 1 at the tail past the outer corner.
  const s = ((p[0] - eye[0]) * outward + 0.9 * r) / (2.6 * r);
  if (s < -0.05 || s > 1.05 || p[2] < eye[2] - 0.3 * r) return 0;
  // The arch: highest two thirds along, the tail dropping.
  const centreY = eye[1] + r * (1.25 + 0.35 * Math.sin(Math.PI * clamp(s) ** 0.8) - 0.15 * s);
  const halfWidth = r * (0.3 - 0.17 * s);
  const across = Math.abs(p[1] - centreY) / halfWidth;
  const band = smoothstep(1.15, 0.55, across) * smoothstep(-0.05, 0.12, s) * smoothstep(1.05, 0.8, s);
  // Hairs: fine noise stretched along the hair direction (up and out at the head, flatter at the tail).
  const hairs = valueNoise(p[0] * 2600, p[1] * 500, p[2] * 2600, 17 + side);
  return band * clamp(0.55 + 0.9 * hairs) * (1 - 0.2 * s);
}

/** The skin height field (metres, small): pores, grain, lip lines, forehead lines. */
function heightAt(p: V3, lips: number, lm: FaceLandmarks, face: number): number {
  const pores = smoothstep(0.62, 0.85, valueNoise(p[0] * 1400, p[1] * 1400, p[2] * 1400, 5));
  const grain = fbm(p[0] * 3000, p[1] * 3000, p[2] * 3000, 2, 9) - 0.5;
  let h = (-0.00005 * pores * (1 - lips) + 0.000012 * grain) * (0.5 + 0.5 * face);
  // Vertical lip lines.
  h +=
    0.00003 *
    lips *
    Math.sin(p[0] * 2 * Math.PI * 650 + 3 * valueNoise(p[0] * 300, p[1] * 300, p[2] * 300, 4));
  // Faint horizontal forehead lines above the brows.
  const above = p[1] - (lm.eyes[0][1] + 2.2 * lm.eyeRadius);
  if (above > 0)
    h -=
      0.00002 *
      smoothstep(0, 0.01, above) *
      smoothstep(0.05, 0.02, above) *
      Math.max(0, Math.sin(above * 2 * Math.PI * 110)) ** 4;
  return h;
}

export function bakeBustSkin(src: SkinSource, islandOf: Int32Array): SkinMaps {
  const { size, landmarks: lm, masks } = src;
  const n = size * size;
  const r = rasterise(src, islandOf);
  const base = new Float64Array(n * 3);
  const heights = new Float64Array(n);
  const orm = new Uint8Array(n * 3);
  const skin = hexLinear(src.colors.skin);
  const lipColor = hexLinear(src.colors.lips);
  const browColor = hexLinear(src.colors.brows);
  const hairColor = hexLinear(src.colors.hair);
  const red: V3 = [0.62, 0.2, 0.17];
  for (let k = 0; k < n; k++) {
    if (r.island[k] === 0) continue;
    const p: V3 = [r.position[k * 3]!, r.position[k * 3 + 1]!, r.position[k * 3 + 2]!];
    const u = r.source[k * 2]!;
    const v = r.source[k * 2 + 1]!;
    const lips = smoothstep(0.25, 0.75, sampleMask(masks.lips, u, v));
    const lids = sampleMask(masks.eyelids, u, v);
    const ears = sampleMask(masks.ears, u, v);
    // How much of the face this is (redness and pores live there), fading down the neck.
    const face = smoothstep(lm.jawY - 0.03, lm.jawY + 0.01, p[1]);
    const d2 = (q: V3, ox: number, oy: number, oz: number): number =>
      (p[0] - q[0] - ox) ** 2 + (p[1] - q[1] - oy) ** 2 + (p[2] - q[2] - oz) ** 2;
    const cheeks =
      gauss(d2(lm.eyes[0], 0.008, -0.03, -0.005), 0.016) +
      gauss(d2(lm.eyes[1], -0.008, -0.03, -0.005), 0.016);
    const nose = gauss(d2(lm.noseTip, 0, 0, 0), 0.009);
    const redness =
      clamp(0.22 * cheeks + 0.22 * nose + 0.2 * ears + 0.06 * face) *
      (0.7 + 0.6 * fbm(p[0] * 60, p[1] * 60, p[2] * 60, 3, 2));
    const mottle = 0.9 + 0.2 * fbm(p[0] * 30, p[1] * 30, p[2] * 30, 4, 1);
    const fine = 0.96 + 0.08 * valueNoise(p[0] * 700, p[1] * 700, p[2] * 700, 3);
    let c: V3 = [0, 1, 2].map(
      (d) => skin[d]! * mottle * fine * (1 - redness) + red[d]! * redness * mottle,
    ) as V3;
    // The neck and shoulders a touch paler and cooler than the face.
    c = c.map((x, d) => x * (1 - 0.06 * (1 - face)) + (d === 2 ? 0.01 * (1 - face) : 0)) as V3;
    // Lids: a little darker and warmer.
    c = c.map((x, d) => x * (1 - 0.12 * lids) * (d === 0 ? 1 : 0.97 + 0.03 * (1 - lids))) as V3;
    // Lips: their own colour, darker towards the inner edge of the mask, with fine variation.
    const lipShade = 0.85 + 0.3 * valueNoise(p[0] * 400, p[1] * 900, p[2] * 400, 8);
    c = c.map((x, d) => x * (1 - lips) + lipColor[d]! * lipShade * lips) as V3;
    // Brows and a few moles.
    const brow = Math.max(browAt(p, lm, 0), browAt(p, lm, 1));
    c = c.map((x, d) => x * (1 - 0.9 * brow) + browColor[d]! * 0.9 * brow) as V3;
    const mole = smoothstep(0.985, 0.995, valueNoise(p[0] * 180, p[1] * 180, p[2] * 180, 21)) * face;
    c = c.map((x) => x * (1 - 0.45 * mole)) as V3;
    // The scalp under the hair: the hair's colour in fine streaks (no skin between the cards).
    const cover = hairCover(p, src.skull);
    const streak = 0.5 + 0.5 * valueNoise(p[0] * 900, p[1] * 250, p[2] * 900, 14);
    c = c.map((x, d) => x * (1 - 0.97 * cover) + hairColor[d]! * streak * 0.97 * cover) as V3;
    base[k * 3] = c[0];
    base[k * 3 + 1] = c[1];
    base[k * 3 + 2] = c[2];
    heights[k] =
      heightAt(p, lips, lm, face) +
      0.00003 * brow * (valueNoise(p[0] * 3000, p[1] * 600, p[2] * 3000, 6) - 0.5);
    // Roughness: T-zone oilier, lips glossy, neck matte.
    const tZone = gauss((p[0] / 0.02) ** 2 + ((p[1] - lm.eyes[0][1] - 0.03) / 0.025) ** 2, 1) + 0.8 * nose;
    const rough = clamp(
      0.62 +
        0.15 * cover -
        0.14 * clamp(tZone) -
        0.28 * lips +
        0.08 * (1 - face) +
        0.06 * (fbm(p[0] * 200, p[1] * 200, p[2] * 200, 2, 12) - 0.5),
    );
    orm[k * 3] = 255;
    orm[k * 3 + 1] = Math.round(rough * 255);
    orm[k * 3 + 2] = 0;
  }
  const normal = new Uint8Array(n * 3);
  const dist = (a: number, b: number): number =>
    Math.hypot(
      r.position[a * 3]! - r.position[b * 3]!,
      r.position[a * 3 + 1]! - r.position[b * 3 + 1]!,
      r.position[a * 3 + 2]! - r.position[b * 3 + 2]!,
    ) || 1e-9;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = y * size + x;
      if (r.island[k] === 0) continue;
      // Neighbours on the same island only (another island's texel is elsewhere on the body).
      const same = (xx: number, yy: number): number =>
        xx >= 0 && yy >= 0 && xx < size && yy < size && r.island[yy * size + xx] === r.island[k]
          ? yy * size + xx
          : k;
      const [l, rt, up, dn] = [same(x - 1, y), same(x + 1, y), same(x, y - 1), same(x, y + 1)];
      const su = l === rt ? 0 : (heights[rt]! - heights[l]!) / dist(l, rt);
      const sv = up === dn ? 0 : (heights[dn]! - heights[up]!) / dist(up, dn);
      const len = Math.hypot(su, sv, 1);
      normal[k * 3] = Math.round((-su / len) * 127.5 + 127.5);
      normal[k * 3 + 1] = Math.round((sv / len) * 127.5 + 127.5);
      normal[k * 3 + 2] = Math.round((1 / len) * 127.5 + 127.5);
    }
  }
  const baseColor = new Uint8Array(n * 3);
  for (let k = 0; k < n * 3; k++) baseColor[k] = toSrgb8(base[k]!);
  dilate(size, r.island, [baseColor, normal, orm], 12);
  return { size, baseColor, normal, orm };
}

/** Fills empty texels from painted neighbours, `rings` texels out from every island. */
function dilate(size: number, island: Int32Array, images: Uint8Array[], rings: number): void {
  const filled = Uint8Array.from(island, (i) => (i === 0 ? 0 : 1));
  for (let ring = 0; ring < rings; ring++) {
    const next = filled.slice();
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const k = y * size + x;
        if (filled[k]) continue;
        for (const [dx, dy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= size || yy >= size) continue;
          const j = yy * size + xx;
          if (!filled[j]) continue;
          for (const img of images) for (let d = 0; d < 3; d++) img[k * 3 + d] = img[j * 3 + d]!;
          next[k] = 1;
          break;
        }
      }
    }
    filled.set(next);
  }
  // Whatever no ring reached: a neutral fill (flat normal, the mean skin colour would do; grey is fine unseen).
  for (let k = 0; k < size * size; k++) {
    if (filled[k]) continue;
    images[1]![k * 3] = 128;
    images[1]![k * 3 + 1] = 128;
    images[1]![k * 3 + 2] = 255;
  }
}
