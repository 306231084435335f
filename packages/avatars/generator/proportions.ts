/**
 * Adult proportions for the head parts. The face is modelled in a compact "design space" (eyes,
 * nose, lips and chin close together, where the morph fields are tuned); this warp stretches it
 * vertically into adult proportions: a longer nose and lower face, a taller cranium, while the
 * band around the eyes stays untouched so spherical eyeballs and their lids still agree.
 * Morph targets are warped with the geometry: a delta d at p becomes W(p + d) − W(p).
 */
import { smoothstep, type V3, v3 } from './math.js';

/** Vertical scale at height y (head coordinates, metres): 1 around the eyes. */
function stretchAt(y: number, below: number, above: number, chin: number): number {
  const low = smoothstep(-0.013, -0.03, y);
  const high = smoothstep(0.018, 0.05, y);
  // Below the lower lip the chin (and the jaw's underside) is shortened again: a stylised face
  // keeps lower lip to chin short.
  const underLip = 1 + (chin - 1) * smoothstep(-0.047, -0.062, y);
  return (1 + (below - 1) * low + (above - 1) * high) * underLip;
}

const Y_MIN = -0.35;
const Y_MAX = 0.25;
const STEP = 0.0001;

/** A vertical warp of head space. */
export interface HeadWarp {
  (p: V3): V3;
  /** Moves a displacement taken at p. */
  delta(p: V3, d: V3): V3;
}

/**
 * Builds the warp for a lower-face stretch `below`, a cranium stretch `above` and a chin
 * stretch `chin` (below the lower lip, on top of `below`).
 */
export function createHeadWarp(below: number, above: number, chin = 1): HeadWarp {
  // y′(y) = ∫₀ʸ stretch: tabulated once, read by linear interpolation.
  const n = Math.round((Y_MAX - Y_MIN) / STEP) + 1;
  const zero = Math.round(-Y_MIN / STEP);
  const table = new Float64Array(n);
  for (let i = zero + 1; i < n; i++) {
    const y = Y_MIN + (i - 0.5) * STEP;
    table[i] = table[i - 1]! + stretchAt(y, below, above, chin) * STEP;
  }
  for (let i = zero - 1; i >= 0; i--) {
    const y = Y_MIN + (i + 0.5) * STEP;
    table[i] = table[i + 1]! - stretchAt(y, below, above, chin) * STEP;
  }
  const mapY = (y: number): number => {
    const f = Math.min(n - 1.000001, Math.max(0, (y - Y_MIN) / STEP));
    const i = Math.floor(f);
    return table[i]! + (table[i + 1]! - table[i]!) * (f - i);
  };
  const warp = ((p: V3): V3 => v3(p[0], mapY(p[1]), p[2])) as HeadWarp;
  warp.delta = (p: V3, d: V3): V3 => {
    if (d[0] === 0 && d[1] === 0 && d[2] === 0) return d;
    return v3(d[0], mapY(p[1] + d[1]) - mapY(p[1]), d[2]);
  };
  return warp;
}
