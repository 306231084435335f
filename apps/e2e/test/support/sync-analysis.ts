/**
 * How far the avatar's mouth is from its audio, from two measured series on one clock: the
 * loudness of the received track and the rendered jawOpen, both pooled per animation frame at
 * the frames' render times and correlated over voiced frames while the audio's windows slide
 * (`frameLag`). (The 10 ms grid of the whole utterance measured before let the silences and
 * loudness detail finer than a frame weigh in; docs/rtc.md compares the two.)
 */

/** `[timeMs, value]` samples in time order. */
export type Series = Array<[number, number]>;

/** The first time `series` exceeds `threshold` at or after `from`. */
export function firstAbove(series: Series, threshold: number, from = -Infinity): number | undefined {
  return series.find(([t, v]) => t >= from && v > threshold)?.[0];
}

/** The last time `series` exceeds `threshold`. */
export function lastAbove(series: Series, threshold: number): number | undefined {
  for (let i = series.length - 1; i >= 0; i--) if (series[i]![1] > threshold) return series[i]![0];
  return undefined;
}

/** Pearson correlation of `a[k]` with `b[k]` over the frames where `mask[k]` (all when absent). */
export function pearson(a: number[], b: number[], mask?: boolean[]): number {
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (mask && !mask[k]) continue;
    if (Number.isFinite(a[k]) && Number.isFinite(b[k])) pairs.push([a[k]!, b[k]!]);
  }
  if (pairs.length < 10) return Number.NaN;
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
  return da === 0 || db === 0 ? Number.NaN : num / Math.sqrt(da * db);
}

/** One 25 fps frame is 40 ms. */
export const FRAME_MS = 40;

/**
 * Per-frame RMS of a block-RMS series (`[blockStartMs, rms]`, equal-length blocks): frame k
 * pools the blocks starting in [starts[k] + shiftMs, starts[k] + shiftMs + 40 ms).
 * NaN for a frame no block falls into.
 */
export function framesRms(blocks: Series, starts: number[], shiftMs = 0): number[] {
  // Prefix sums of the squares over the blocks (in time order): each frame is two searches.
  const squares = [0];
  for (const [, v] of blocks) squares.push(squares[squares.length - 1]! + v * v);
  const firstAtOrAfter = (t: number) => {
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (blocks[mid]![0] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return starts.map((start) => {
    if (!Number.isFinite(start)) return Number.NaN;
    const i = firstAtOrAfter(start + shiftMs);
    const j = firstAtOrAfter(start + shiftMs + FRAME_MS);
    return j === i ? Number.NaN : Math.sqrt((squares[j]! - squares[i]!) / (j - i));
  });
}

/**
 * Per-frame mean of a sampled series (the rendered jawOpen, one sample per animation frame of
 * the page): frame k averages the samples in [starts[k], starts[k] + 40 ms), or holds the last
 * sample before it when the page rendered none inside (a slow frame on a busy machine).
 */
export function framesMean(series: Series, starts: number[]): number[] {
  return starts.map((start) => {
    let sum = 0;
    let n = 0;
    let before = Number.NaN;
    for (const [t, v] of series) {
      if (t < start) before = v;
      else if (t < start + FRAME_MS) {
        sum += v;
        n += 1;
      }
    }
    return n === 0 ? before : sum / n;
  });
}

/** The outcome of {@link frameLag}. */
export interface FrameLag {
  /**
   * How far the second signal (the mouth) follows the audio, ms (negative: it leads), at the
   * best correlation within ±`maxLagFrames` frames, searched in `stepMs` steps.
   */
  lagMs: number;
  /** Correlation at that lag, over the masked frames. */
  correlation: number;
  /** Correlation with no shift. */
  correlationAtZero: number;
  /** Per-frame audio RMS at the best lag. */
  energies: number[];
}

/**
 * Cross-correlation over lags of per-frame audio energy against a per-frame signal `other`
 * (rendered jawOpen, or the source's own loudness): the audio's frame windows slide by the lag,
 * the frames stay where they were shown. Only frames with `mask[k]` count (voiced frames: the
 * silences would otherwise dominate and reward any mouth that is merely closed in pauses).
 */
export function frameLag(
  audioBlocks: Series,
  starts: number[],
  other: number[],
  mask: boolean[],
  { maxLagFrames = 3, stepMs = 5 } = {},
): FrameLag {
  const max = maxLagFrames * FRAME_MS;
  let best: FrameLag = { lagMs: 0, correlation: -Infinity, correlationAtZero: Number.NaN, energies: [] };
  for (let shift = -max; shift <= max; shift += stepMs) {
    const energies = framesRms(audioBlocks, starts, shift);
    const r = pearson(energies, other, mask);
    if (shift === 0) best.correlationAtZero = r;
    // Audio found `shift` ms after the frame = the mouth moved `shift` ms before its sound.
    if (r > best.correlation) best = { ...best, lagMs: shift === 0 ? 0 : -shift, correlation: r, energies };
  }
  return best;
}
