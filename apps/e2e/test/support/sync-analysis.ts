/**
 * How far the avatar's mouth is from its audio, from two measured series on one clock: the
 * loudness of the received track and the rendered jawOpen. Both go onto a 10 ms grid; the lag
 * is where their normalised cross-correlation peaks.
 */

/** `[timeMs, value]` samples in time order. */
export type Series = Array<[number, number]>;

export const GRID_MS = 10;

/** Mean of the samples in each 10 ms bucket from `from` to `to` (holding the last value in empty ones). */
export function onGrid(series: Series, from: number, to: number): number[] {
  const out: number[] = [];
  let i = 0;
  let last = 0;
  for (let t = from; t < to; t += GRID_MS) {
    let sum = 0;
    let n = 0;
    while (i < series.length && series[i]![0] < t + GRID_MS) {
      if (series[i]![0] >= t) {
        sum += series[i]![1];
        n += 1;
      }
      i += 1;
    }
    if (n > 0) last = sum / n;
    out.push(last);
  }
  return out;
}

/** Pearson correlation of `a[i]` with `b[i + lag]` over the overlap. */
function correlation(a: number[], b: number[], lag: number): number {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < a.length; i++) {
    const j = i + lag;
    if (j >= 0 && j < b.length) pairs.push([a[i]!, b[j]!]);
  }
  if (pairs.length < 10) return -Infinity;
  const ma = pairs.reduce((s, p) => s + p[0], 0) / pairs.length;
  const mb = pairs.reduce((s, p) => s + p[1], 0) / pairs.length;
  let num = 0;
  let da = 0;
  let db = 0;
  for (const [x, y] of pairs) {
    num += (x - ma) * (y - mb);
    da += (x - ma) ** 2;
    db += (y - mb) ** 2;
  }
  return da === 0 || db === 0 ? -Infinity : num / Math.sqrt(da * db);
}

/**
 * The lag (ms) by which `b` follows `a` (negative: `b` leads), searched within ±`maxLagMs`,
 * with the peak correlation.
 */
export function lagMs(a: number[], b: number[], maxLagMs = 400): { lagMs: number; correlation: number } {
  let best = { lagMs: 0, correlation: -Infinity };
  const steps = Math.round(maxLagMs / GRID_MS);
  for (let lag = -steps; lag <= steps; lag++) {
    const c = correlation(a, b, lag);
    if (c > best.correlation) best = { lagMs: lag * GRID_MS, correlation: c };
  }
  return best;
}

/** The first time `series` exceeds `threshold` at or after `from`. */
export function firstAbove(series: Series, threshold: number, from = -Infinity): number | undefined {
  return series.find(([t, v]) => t >= from && v > threshold)?.[0];
}

/** The last time `series` exceeds `threshold`. */
export function lastAbove(series: Series, threshold: number): number | undefined {
  for (let i = series.length - 1; i >= 0; i--) if (series[i]![1] > threshold) return series[i]![0];
  return undefined;
}
