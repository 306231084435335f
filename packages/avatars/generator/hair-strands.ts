/**
 * The strand texture the hair cards wear: a strip of hair, roots at the top of the image (v = 0),
 * tips at the bottom. Alpha is strand coverage — full at the root, thinning towards the card's
 * edges and ending in strands of different lengths, so a card's silhouette is a ragged, tapered
 * lock and not a ribbon; RGB is a grey strand pattern that the vertex colours tint (glTF
 * multiplies them), so one texture serves every hair colour.
 */
import { random } from './locks.js';
import { clamp, smoothstep } from './math.js';

export const STRAND_TEXTURE = { width: 128, height: 256 } as const;

interface Strand {
  x: number;
  halfWidth: number;
  /** Where the strand ends (0..1 down the card). */
  length: number;
  shade: number;
  wave: number;
  phase: number;
}

/** RGBA pixels of the strand texture (rows from the top). */
export function paintStrands(): Uint8Array {
  const { width: w, height: h } = STRAND_TEXTURE;
  const rand = random(0x68616972);
  const strands: Strand[] = [];
  for (let i = 0; i < 90; i++) {
    const x = rand();
    // Strands near the card's edges are shorter: the lock tapers to a point.
    const edge = Math.abs(x - 0.5) * 2;
    strands.push({
      x,
      halfWidth: 0.006 + 0.01 * rand(),
      length: clamp(0.97 - 0.55 * edge ** 1.4 - 0.22 * rand(), 0.25, 1),
      shade: 0.6 + 0.4 * rand(),
      wave: 0.004 + 0.01 * rand(),
      phase: 6.283 * rand(),
    });
  }
  const rgba = new Uint8Array(w * h * 4);
  for (let j = 0; j < h; j++) {
    const v = (j + 0.5) / h;
    for (let i = 0; i < w; i++) {
      const u = (i + 0.5) / w;
      // The body of the lock: solid across most of the card near the root, narrowing to the tip.
      // It fades out before the card ends, so only strands of different lengths reach the tip.
      const body =
        (1 - smoothstep(0.32 - 0.2 * v, 0.5 - 0.12 * v, Math.abs(u - 0.5))) * (1 - smoothstep(0.6, 0.92, v));
      let cover = 0;
      let shade = 0;
      let weight = 0;
      for (const s of strands) {
        const x = s.x + s.wave * Math.sin(v * 9 + s.phase);
        const d = Math.abs(u - x) / s.halfWidth;
        if (d >= 1) continue;
        const along = 1 - smoothstep(s.length - 0.08, s.length, v);
        const c = (1 - d * d) * along;
        cover = Math.max(cover, c);
        shade += s.shade * c;
        weight += c;
      }
      const alpha = clamp(Math.max(body * (0.75 + 0.25 * cover), cover * (0.6 + 0.4 * body)));
      // Grey strands: lighter along a strand's middle, darker between strands and at the root.
      const grey = clamp(
        (weight > 0 ? shade / weight : 0.55) * (0.7 + 0.3 * cover) * (0.85 + 0.15 * smoothstep(0, 0.3, v)),
      );
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
