/**
 * Bakes the face's texture set at build time, texel by texel: each texel stands for a direction
 * from the head centre (uv.ts), which gives the skin point, which the painters read.
 * - base colour: the skin painter (paint.ts) with noise mottle, capillary redness and a crisp lip line;
 * - normal (tangent space, glTF convention: +x along u, +y towards the image top): pores, fine
 *   grain, vertical lip lines and faint forehead lines, from a height field differentiated over
 *   the real distances between neighbouring texels;
 * - occlusion/roughness/metalness (glTF ORM: R occlusion, G roughness, B metal = 0): an oilier,
 *   shinier T-zone (forehead, nose, chin), glossy lips, matte cheeks.
 */
import type { FaceLayout } from '../layout.js';
import { clamp, dot, gauss, smoothstep, type V3 } from '../math.js';
import type { HeadWarp } from '../proportions.js';
import { mouthPolarOf } from './mouth-polar.js';
import { fbm, valueNoise } from './noise.js';
import { lipMaskAt, paintSkin, skinPalette } from './paint.js';
import { texelDirections } from './uv.js';

/** Three square RGB images, `size` texels a side, rows from the top. */
export interface SkinMaps {
  size: number;
  baseColor: Uint8Array;
  normal: Uint8Array;
  orm: Uint8Array;
}

/** Half-width of the vermilion border in the texture (ring units; vertices use 0.004). */
const LIP_EDGE = 0.0011;

const toSrgb8 = (linear: number): number => {
  const c = clamp(linear);
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
};

export function bakeSkinMaps(layout: FaceLayout, warp: HeadWarp, size: number): SkinMaps {
  const { m, eu, ev, style } = layout;
  const palette = skinPalette(layout);
  const directionAt = texelDirections(size);
  const n = size * size;
  const positions = new Float64Array(n * 3);
  const heights = new Float64Array(n);
  const baseColor = new Uint8Array(n * 3);
  const orm = new Uint8Array(n * 3);

  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const k = j * size + i;
      const dir = directionAt(i, j);
      const p = layout.skinAt(dir);
      const w = warp(p);
      positions[k * 3] = w[0];
      positions[k * 3 + 1] = w[1];
      positions[k * 3 + 2] = w[2];

      // Where the texel sits on the mouth grid (only the lips need it exactly).
      const theta = Math.acos(clamp(dot(dir, m), -1, 1));
      const phi = Math.atan2(dot(dir, ev), dot(dir, eu));
      const { t, alpha } =
        theta < 0.9
          ? mouthPolarOf(theta * Math.cos(phi), theta * Math.sin(phi), style.mouthHalfAngle)
          : { t: theta / Math.PI, alpha: phi };
      const lip = lipMaskAt(t, alpha, LIP_EDGE);

      const color = paintSkin(layout, palette, p, t, alpha, { lipEdge: LIP_EDGE, noiseAt: w });
      baseColor[k * 3] = toSrgb8(color[0]);
      baseColor[k * 3 + 1] = toSrgb8(color[1]);
      baseColor[k * 3 + 2] = toSrgb8(color[2]);

      heights[k] = heightAt(layout, p, w, lip);
      const front = smoothstep(0.02, 0.07, p[2]);
      const tZone =
        front *
        Math.max(
          // forehead centre, nose (bridge to tip), chin; the brow between them stays matte
          gauss(p[0] ** 2 * 0.35 + (p[1] - 0.06) ** 2 * 0.6, 0.018),
          gauss(p[0] ** 2 * 4 + (p[1] + 0.018) ** 2 * 0.35, 0.012),
          gauss(p[0] ** 2 + (p[1] + 0.085) ** 2, 0.014),
        );
      const cheek = front * gauss((Math.abs(p[0]) - 0.042) ** 2 + (p[1] + 0.025) ** 2, 0.016);
      const speckle = fbm(w[0] / 0.002, w[1] / 0.002, w[2] / 0.002, 2, 23) - 0.5;
      const roughness = clamp(0.56 - 0.16 * tZone + 0.08 * cheek + 0.08 * speckle - 0.2 * lip, 0.3, 0.8);
      // Creases and cavities take less of the room light: nostrils, sockets, the lip seam.
      const nostril =
        gauss((Math.abs(p[0]) - 0.0072) ** 2 + (p[1] + 0.0275) ** 2, 0.0025) * smoothstep(0.07, 0.09, p[2]);
      const socket = gauss((Math.abs(p[0]) - style.eyeSpacing) ** 2 + (p[1] - 0.001) ** 2, 0.009) * front;
      const seam = 1 - smoothstep(0, 0.01, t);
      const occlusion = clamp(1 - 0.35 * nostril - 0.25 * socket - 0.35 * seam);
      orm[k * 3] = Math.round(occlusion * 255);
      orm[k * 3 + 1] = Math.round(roughness * 255);
      orm[k * 3 + 2] = 0;
    }
  }
  return { size, baseColor, normal: normalsOf(size, positions, heights), orm };
}

/** Skin relief in metres (outwards positive) at design point `p`, adult point `w`. */
function heightAt(layout: FaceLayout, p: V3, w: V3, lip: number): number {
  const [x, y, z] = w;
  const front = smoothstep(0.02, 0.07, p[2]);
  // Pores: scattered pits, densest on the nose and cheeks, none on the lips.
  const nose = gauss(p[0] ** 2 + (p[1] + 0.018) ** 2, 0.014);
  const cheeks = gauss((Math.abs(p[0]) - 0.04) ** 2 + (p[1] + 0.02) ** 2, 0.02);
  const poreZone = (0.55 + 0.45 * Math.max(nose, cheeks)) * (1 - lip);
  const pit = smoothstep(0.58, 0.85, valueNoise(x / 0.0009, y / 0.0009, z / 0.0009, 3));
  let h = -0.00006 * pit * poreZone * (0.4 + 0.6 * front);
  // Fine grain everywhere (the skin's micro-relief), and a soft orange-peel undulation at a few
  // millimetres that breaks up highlights even where pores are smaller than a pixel.
  h += 0.00002 * (fbm(x / 0.0006, y / 0.0006, z / 0.0006, 2, 5) - 0.5);
  h += 0.000045 * (1 - 0.7 * lip) * (fbm(x / 0.0022, y / 0.0022, z / 0.0022, 3, 17) - 0.5);
  // Lips: fine vertical lines, wavering and fading in and out along the lip (evenly spaced lines
  // of one depth read as stripes).
  if (lip > 0) {
    const waver = 0.0009 * (valueNoise(x / 0.002, y / 0.002, z / 0.002, 13) - 0.5);
    const depth = 0.45 + 0.75 * valueNoise(x / 0.0025, y / 0.0015, z / 0.0025, 29);
    h += 0.00004 * lip * depth * Math.sin((2 * Math.PI * (x + waver)) / 0.0014);
  }
  // Faint horizontal forehead lines.
  const forehead =
    smoothstep(0.035, 0.045, p[1]) * (1 - smoothstep(0.06, 0.075, p[1])) * gauss(p[0] ** 2, 0.025) * front;
  if (forehead > 0) h += 0.00003 * forehead * Math.sin((2 * Math.PI * y) / 0.0065 + 8 * p[0] * p[0] * 100);
  // Under-eye fold: a soft crease below each lower lid.
  const k = Math.sign(p[0]) || 1;
  const underEye = gauss((p[0] - k * layout.style.eyeSpacing) ** 2 * 0.25 + (p[1] + 0.017) ** 2, 0.0022);
  h -= 0.00008 * underEye * front;
  return h;
}

/** Tangent-space normals from a height field over texel positions (metres). */
function normalsOf(size: number, positions: Float64Array, heights: Float64Array): Uint8Array {
  const out = new Uint8Array(size * size * 3);
  const at = (i: number, j: number): number =>
    Math.min(size - 1, Math.max(0, j)) * size + (((i % size) + size) % size);
  const dist = (a: number, b: number): number =>
    Math.hypot(
      positions[a * 3]! - positions[b * 3]!,
      positions[a * 3 + 1]! - positions[b * 3 + 1]!,
      positions[a * 3 + 2]! - positions[b * 3 + 2]!,
    ) || 1e-9;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const l = at(i - 1, j);
      const r = at(i + 1, j);
      const u = at(i, j - 1);
      const d = at(i, j + 1);
      // Slopes along +u and along +v (down the image); glTF's +y points up the image.
      const su = (heights[r]! - heights[l]!) / dist(l, r);
      const sv = (heights[d]! - heights[u]!) / dist(u, d);
      let nx = -su;
      let ny = sv;
      let nz = 1;
      const len = Math.hypot(nx, ny, nz);
      nx /= len;
      ny /= len;
      nz /= len;
      const k = (j * size + i) * 3;
      out[k] = Math.round((nx * 0.5 + 0.5) * 255);
      out[k + 1] = Math.round((ny * 0.5 + 0.5) * 255);
      out[k + 2] = Math.round((nz * 0.5 + 0.5) * 255);
    }
  }
  return out;
}
