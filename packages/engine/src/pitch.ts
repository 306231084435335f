/**
 * A cheap causal pitch tracker for prosody (brows): the analysis-rate stream is decimated to about
 * 2 kHz by block averages (one add per input sample), low-passed there, and kept in a ring; on
 * request, a normalised autocorrelation over the 24 ms ending at a given point picks the period
 * between 75 and 360 Hz (parabolic refinement between lags). Only speech frames ask, so silence costs
 * nothing but the decimation.
 */

/** Approximate rate of the decimated stream. */
const TARGET_RATE = 2000;
const SPAN = 48;
const MIN_LAG = 6;
const MAX_LAG = 27;
/** 256 ms of decimated history: the longest lookahead plus the analysis span fits. */
const RING = 512;
/** Low-pass corner on the decimated stream (Hz). */
const CORNER_HZ = 600;

/** The decimation and low-pass of a tracker (src/wasm runs the same filter from these numbers). */
export interface PitchFilter {
  block: number;
  rate: number;
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
  integerInput: boolean;
}

/** The decimation block and Butterworth coefficients for an input rate and sample scale. */
export function pitchFilter(inputRate: number, sampleScale = 1): PitchFilter {
  const block = Math.max(1, Math.round(inputRate / TARGET_RATE));
  const rate = inputRate / block;
  const w = Math.tan((Math.PI * CORNER_HZ) / rate);
  const q = Math.SQRT1_2;
  const n = 1 / (1 + w / q + w * w);
  // The block average's 1/block folds into the numerator.
  const b0 = ((w * w * n) / block) * sampleScale;
  return {
    block,
    rate,
    b0,
    b1: 2 * b0,
    b2: b0,
    a1: 2 * (w * w - 1) * n,
    a2: (1 - w / q + w * w) * n,
    integerInput: sampleScale !== 1,
  };
}

export class PitchTracker {
  /** Rate of the decimated stream (input rate / block length, ≈ 2 kHz). */
  readonly rate: number;
  private readonly block: number;
  private readonly ring = new Float32Array(RING);
  private readonly scores = new Float32Array(MAX_LAG + 2);
  private readonly span = new Float32Array(SPAN + MAX_LAG);
  /** Decimated samples written so far. */
  private written = 0;
  private phase = 0;
  /** Sum of the block being filled. */
  private sum = 0;
  // Butterworth low-pass at the corner, direct form I, on the block averages.
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  /**
   * Raw s16 input (sampleScale ≠ 1): block sums of integers are exact in any order, so they can
   * use two accumulators; float input is summed strictly in order.
   */
  private readonly integerInput: boolean;

  /**
   * @param inputRate rate of the samples passed to {@link push}.
   * @param sampleScale what the samples are multiplied by to read as full scale ±1 (a power of two,
   *   folded into the filter's numerator, so the result is the same as for pre-scaled samples); any
   *   value but 1 means the samples are raw s16 integers.
   */
  constructor(inputRate: number, sampleScale = 1) {
    const filter = pitchFilter(inputRate, sampleScale);
    this.block = filter.block;
    this.rate = filter.rate;
    this.b0 = filter.b0;
    this.integerInput = filter.integerInput;
    this.b1 = filter.b1;
    this.b2 = filter.b2;
    this.a1 = filter.a1;
    this.a2 = filter.a2;
  }

  reset(): void {
    this.ring.fill(0);
    this.written = 0;
    this.phase = 0;
    this.sum = 0;
    this.x1 = this.x2 = this.y1 = this.y2 = 0;
  }

  push(samples: Float32Array, from = 0, to = samples.length): void {
    const block = this.block;
    const integer = this.integerInput;
    let i = from;
    // Finish the block in progress, then whole blocks, then start the next one. Each block is
    // summed in input order, piece by piece where a chunk boundary splits it, so the result does
    // not depend on how the input was chunked.
    if (this.phase > 0) {
      const end = Math.min(to, i + block - this.phase);
      this.sum = integer ? this.sum + integerSum(samples, i, end) : orderedSum(samples, i, end, this.sum);
      this.phase += end - i;
      i = end;
      if (this.phase < block) return;
      this.decimate(this.sum);
    }
    for (; i + block <= to; i += block) {
      this.decimate(integer ? integerSum(samples, i, i + block) : orderedSum(samples, i, i + block, 0));
    }
    this.phase = to - i;
    this.sum = integer ? integerSum(samples, i, to) : orderedSum(samples, i, to, 0);
  }

  /** One decimated sample from a completed block's sum: the low-pass, then the ring. */
  private decimate(sum: number): void {
    const y = this.b0 * sum + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = sum;
    this.y2 = this.y1;
    this.y1 = y;
    this.ring[this.written % RING] = y;
    this.written++;
  }

  /**
   * Fundamental frequency (Hz) of the 24 ms ending at input sample `endSample` (exclusive), or 0
   * when unvoiced. It must be within the last 256 ms pushed.
   */
  f0At(endSample: number): number {
    return this.f0AtDecimated(Math.floor(endSample / this.block));
  }

  private f0AtDecimated(end: number): number {
    const first = end - SPAN;
    if (first - MAX_LAG < 0 || end > this.written || this.written - (first - MAX_LAG) > RING) return 0;
    // Straighten the ring once: x[MAX_LAG + t] is the span's sample t, lags reach back into x[0..].
    const x = this.span;
    for (let i = 0, t = first - MAX_LAG; i < x.length; i++, t++) x[i] = this.ring[t % RING]!;
    let e0 = 0;
    for (let t = MAX_LAG; t < x.length; t++) e0 += x[t]! * x[t]!;
    if (e0 < 1e-9) return 0;
    const scores = this.scores;
    let best = 0;
    let bestLag = 0;
    const length = x.length;
    // Energy of the lagged span, slid one sample per lag instead of recomputed.
    let el = 0;
    for (let t = MAX_LAG - MIN_LAG; t < length - MIN_LAG; t++) el += x[t]! * x[t]!;
    // Two lags per pass share the loads of x[t] (four independent sums instead of two); each lag's
    // sums run over the same terms in the same order as one lag at a time.
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag += 2) {
      const pair = lag + 1 <= MAX_LAG;
      let c0 = 0;
      let c1 = 0;
      let d0 = 0;
      let d1 = 0;
      let t = MAX_LAG;
      if (pair) {
        for (; t + 1 < length; t += 2) {
          const x0 = x[t]!;
          const x1 = x[t + 1]!;
          c0 += x0 * x[t - lag]!;
          c1 += x1 * x[t + 1 - lag]!;
          d0 += x0 * x[t - lag - 1]!;
          d1 += x1 * x[t - lag]!;
        }
        if (t < length) {
          c0 += x[t]! * x[t - lag]!;
          d0 += x[t]! * x[t - lag - 1]!;
        }
      } else {
        for (; t + 1 < length; t += 2) {
          c0 += x[t]! * x[t - lag]!;
          c1 += x[t + 1]! * x[t + 1 - lag]!;
        }
        if (t < length) c0 += x[t]! * x[t - lag]!;
      }
      for (let k = 0; k < (pair ? 2 : 1); k++) {
        const l = lag + k;
        if (l > MIN_LAG) {
          const enter = x[MAX_LAG - l]!;
          const leave = x[length - l]!;
          el += enter * enter - leave * leave;
        }
        const cross = k === 0 ? c0 + c1 : d0 + d1;
        const r = el > 1e-12 ? cross / Math.sqrt(e0 * el) : 0;
        scores[l] = r;
        if (r > best) {
          best = r;
          bestLag = l;
        }
      }
    }
    // Prefer the shortest period close to the best one (avoids octave-down errors).
    for (let lag = MIN_LAG + 1; lag < bestLag; lag++) {
      const r = scores[lag]!;
      if (r >= 0.9 * best && r >= scores[lag - 1]! && r >= scores[lag + 1]!) {
        bestLag = lag;
        break;
      }
    }
    if (best <= 0.5) return 0;
    // Parabolic interpolation of the peak: the 0.5 ms lag grid alone is too coarse at 2 kHz.
    let lag = bestLag;
    if (bestLag > MIN_LAG && bestLag < MAX_LAG) {
      const a = scores[bestLag - 1]!;
      const b = scores[bestLag]!;
      const c = scores[bestLag + 1]!;
      const d = a - 2 * b + c;
      if (d < 0) lag += Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / d));
    }
    return this.rate / lag;
  }
}

/**
 * Sum of integer-valued samples[from, to): exact in any order (s16 values, sums far below 2^53), so
 * two accumulators halve the dependency chain.
 */
function integerSum(samples: Float32Array, from: number, to: number): number {
  let even = 0;
  let odd = 0;
  let k = from;
  for (; k + 1 < to; k += 2) {
    even += samples[k]!;
    odd += samples[k + 1]!;
  }
  if (k < to) even += samples[k]!;
  return even + odd;
}

/** `sum` plus samples[from, to), added strictly in order. */
function orderedSum(samples: Float32Array, from: number, to: number, sum: number): number {
  for (let k = from; k < to; k++) sum += samples[k]!;
  return sum;
}
