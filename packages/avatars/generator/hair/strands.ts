/**
 * The strand texture the hair cards wear, roots at the top of the image (v = 0), tips at the
 * bottom, in two strips side by side:
 * - the lock strip (u in {@link LOCK_STRIP}): a lock of strands gathered in a few clumps; alpha is
 *   full at the root, thins towards the card's edges and ends in strands of different lengths, so
 *   a card's silhouette is a ragged, tapered lock and not a ribbon;
 * - the wisp strip ({@link WISP_STRIP}): a few loose, fine strands with no body, for flyaways and
 *   baby hairs.
 * RGB is a grey strand pattern that the vertex colours tint (glTF multiplies them), so one texture
 * serves every hair colour. Each strand's brightness changes along its length, so a highlight
 * painted across the cards breaks up into glints along strands instead of lying on as a band.
 */
import { mulberry32 } from '@avatar-drive/core';
import { clamp, gauss, smoothstep } from '../math.js';

export const STRAND_TEXTURE = { width: 128, height: 256 } as const;
/** The u range of the lock strip and of the wisp strip. */
export const LOCK_STRIP = [0, 0.75] as const;
export const WISP_STRIP = [0.77, 1] as const;

interface Strand {
  x: number;
  halfWidth: number;
  /** Where the strand ends (0..1 down the card). */
  length: number;
  shade: number;
  wave: number;
  phase: number;
  /** Where along the strand it catches the light most (0..1). */
  glint: number;
}

/** Coverage and mean shade of `strands` at (u, v) in strip coordinates. */
function sample(strands: readonly Strand[], u: number, v: number): { cover: number; shade: number } {
  let cover = 0;
  let shade = 0;
  let weight = 0;
  for (const s of strands) {
    const x = s.x + s.wave * Math.sin(v * 9 + s.phase);
    const d = Math.abs(u - x) / s.halfWidth;
    if (d >= 1) continue;
    const along = 1 - smoothstep(s.length - 0.08, s.length, v);
    const c = (1 - d * d) * along;
    if (c <= 0) continue;
    cover = Math.max(cover, c);
    // Brightness varies along the strand: a glint where it turns to the light, darker elsewhere.
    const lit =
      s.shade * (0.78 + 0.22 * Math.sin(v * 13 + s.phase * 2) + 0.35 * gauss((v - s.glint) ** 2, 0.07));
    shade += lit * c;
    weight += c;
  }
  return { cover, shade: weight > 0 ? shade / weight : 0.5 };
}

/** The lock's strands: gathered into clumps (darker gaps between them), shorter towards the edges. */
function lockStrands(rand: () => number): Strand[] {
  const clumps = [0.2, 0.42, 0.6, 0.8];
  const strands: Strand[] = [];
  for (let i = 0; i < 110; i++) {
    const centre = clumps[i % clumps.length]!;
    const x = clamp(centre + (rand() - 0.5) * 0.26 + (rand() - 0.5) * 0.1, 0.02, 0.98);
    const edge = Math.abs(x - 0.5) * 2;
    strands.push({
      x,
      halfWidth: 0.006 + 0.009 * rand(),
      length: clamp(0.97 - 0.55 * edge ** 1.4 - 0.22 * rand(), 0.25, 1),
      shade: (0.55 + 0.45 * rand()) * (0.85 + 0.15 * Math.cos((x - centre) * 12)),
      wave: 0.004 + 0.01 * rand(),
      phase: 6.283 * rand(),
      glint: 0.15 + 0.6 * rand(),
    });
  }
  return strands;
}

/** The wisp strip's loose strands: fine, long, wavier than a lock's. */
function wispStrands(rand: () => number): Strand[] {
  return Array.from({ length: 5 }, (_, i) => ({
    x: 0.12 + 0.19 * i + 0.06 * (rand() - 0.5),
    halfWidth: 0.035 + 0.02 * rand(),
    length: 0.7 + 0.22 * rand(),
    shade: 0.7 + 0.3 * rand(),
    wave: 0.03 + 0.03 * rand(),
    phase: 6.283 * rand(),
    glint: 0.2 + 0.5 * rand(),
  }));
}

/** RGBA pixels of the strand texture (rows from the top). */
export function paintStrands(): Uint8Array {
  const { width: w, height: h } = STRAND_TEXTURE;
  const rand = mulberry32(0x68616972);
  const lock = lockStrands(rand);
  const wisps = wispStrands(rand);
  const rgba = new Uint8Array(w * h * 4);
  for (let j = 0; j < h; j++) {
    const v = (j + 0.5) / h;
    for (let i = 0; i < w; i++) {
      const U = (i + 0.5) / w;
      let alpha: number;
      let grey: number;
      if (U < LOCK_STRIP[1]) {
        const u = (U - LOCK_STRIP[0]) / (LOCK_STRIP[1] - LOCK_STRIP[0]);
        // The body of the lock: solid across most of the card near the root, narrowing to the
        // tip, fading out before the card ends so only strands of different lengths reach it.
        const body =
          (1 - smoothstep(0.32 - 0.2 * v, 0.5 - 0.12 * v, Math.abs(u - 0.5))) *
          (1 - smoothstep(0.6, 0.92, v));
        const { cover, shade } = sample(lock, u, v);
        alpha = clamp(Math.max(body * (0.75 + 0.25 * cover), cover * (0.6 + 0.4 * body)));
        // Lighter along a strand's middle, darker between strands and at the root.
        grey = clamp(shade * (0.5 + 0.5 * cover) * (0.82 + 0.18 * smoothstep(0, 0.3, v)));
      } else if (U >= WISP_STRIP[0]) {
        const u = (U - WISP_STRIP[0]) / (WISP_STRIP[1] - WISP_STRIP[0]);
        const { cover, shade } = sample(wisps, u, v);
        alpha = clamp(cover * 1.4);
        grey = clamp(shade);
      } else {
        // The gutter between the strips: transparent, so mip levels do not bleed one into the other.
        alpha = 0;
        grey = 0.5;
      }
      const k = (j * w + i) * 4;
      const g = Math.round(255 * grey);
      rgba[k] = g;
      rgba[k + 1] = g;
      rgba[k + 2] = g;
      rgba[k + 3] = Math.round(255 * alpha);
    }
  }
  return rgba;
}
