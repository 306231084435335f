/**
 * The engine's input front end: s16 PCM at the input rate → float samples at the analysis rate.
 *
 * The features are computed on a short-time spectrum at (almost) the input rate and only read it up
 * to 8 kHz, so no rate conversion to 16 kHz is needed: 8, 16, 22.05, 24 and 32 kHz are analysed as
 * they are, and 44.1 and 48 kHz are halved by one half-band decimator. That filter only has to keep
 * what would alias into 0–8 kHz out (the band above R/2 − 8 kHz), so it is short: 5–6 multiplies per
 * output sample, against ≈ 25–55 for a resampler to 16 kHz with its transition band near 8 kHz.
 * Causal and streaming: output is identical for any chunking.
 */

import { besselI0 } from '@avatar-drive/core';

/** Widest band (Hz) the features read; the decimator protects it from aliasing. */
export const FEATURE_BAND_HZ = 8000;
/** Kaiser β of the half-band window. */
const KAISER_BETA = 5;

/** The analysis rate the engine uses for an input rate: rates above 32 kHz are halved. */
export function analysisRateFor(sampleRate: number): number {
  return sampleRate > 32000 ? sampleRate / 2 : sampleRate;
}

/** The input side of the driver: s16 in, float (full scale ±1) at {@link analysisRate} out. */
export interface AnalysisFrontEnd {
  /** Rate of the samples it outputs. */
  readonly analysisRate: number;
  /** Input samples of delay between input and output (the decimator's group delay). */
  readonly latencySamples: number;
  /**
   * Output samples the feature hops are moved earlier by (passed to FeatureExtractor as `lead`), so
   * that a hop is complete once the input up to its end in input time has arrived, despite
   * {@link latencySamples}: 5 for the decimator (0.21–0.23 ms), 0 otherwise.
   */
  readonly leadSamples: number;
  /** Converts a chunk; the returned array is reused by the next call, so read it before. */
  push(samples: Int16Array): Float32Array;
  /** The output still held back (the input is treated as followed by silence). */
  flush(): Float32Array;
}

/** The front end for an input rate (see the module comment). */
export function createAnalysisFrontEnd(sampleRate: number): AnalysisFrontEnd {
  return analysisRateFor(sampleRate) === sampleRate
    ? new S16ToFloat(sampleRate)
    : new HalfbandDecimator(sampleRate);
}

/** A front end whose output still has to be multiplied by {@link sampleScale} to read as full scale ±1. */
export interface ScaledAnalysisFrontEnd extends AnalysisFrontEnd {
  /** 1, or 2^-15 when the s16 values are passed on unscaled. */
  readonly sampleScale: number;
}

/**
 * The driver's front end. At the rates analysed as they are, the s16 values go on unscaled (one
 * native int16 → float32 copy instead of a multiply per sample) and the consumers fold the 2^-15
 * into their constants: scaling by a power of two is exact, so the results are bit-identical.
 */
export function createDriverFrontEnd(sampleRate: number): ScaledAnalysisFrontEnd {
  return analysisRateFor(sampleRate) === sampleRate
    ? new S16Raw(sampleRate)
    : new HalfbandDecimator(sampleRate);
}

/** The output buffer of every {@link S16Raw}: one hot buffer instead of one per driver. */
let rawScratch = new Float32Array(1024);

/** s16 values as floats, not scaled (see {@link createDriverFrontEnd}). */
class S16Raw implements ScaledAnalysisFrontEnd {
  readonly latencySamples = 0;
  readonly leadSamples = 0;
  readonly sampleScale = 1 / 32768;
  constructor(readonly analysisRate: number) {}

  /** The returned view is reused by the next push of any driver's front end: the driver reads it at once. */
  push(samples: Int16Array): Float32Array {
    const n = samples.length;
    if (rawScratch.length < n) rawScratch = new Float32Array(Math.max(n, 2 * rawScratch.length));
    rawScratch.set(samples);
    return rawScratch.subarray(0, n);
  }

  flush(): Float32Array {
    return new Float32Array(0);
  }
}

class S16ToFloat implements AnalysisFrontEnd {
  readonly latencySamples = 0;
  readonly leadSamples = 0;
  private out = new Float32Array(1024);
  constructor(readonly analysisRate: number) {}

  push(samples: Int16Array): Float32Array {
    const n = samples.length;
    if (this.out.length < n) this.out = new Float32Array(Math.max(n, 2 * this.out.length));
    const out = this.out;
    // × 2^-15 equals / 32768 exactly, without a division per sample.
    const scale = 1 / 32768;
    for (let i = 0; i < n; i++) out[i] = samples[i]! * scale;
    return out.subarray(0, n);
  }

  flush(): Float32Array {
    return new Float32Array(0);
  }
}

/**
 * Odd-offset taps of a Kaiser-windowed half-band low-pass with `pairs` symmetric tap pairs:
 * `taps[j]` weighs inputs centre ± (2j + 1); the centre weighs 1/2, the other even offsets 0.
 * Scaled for exact unity gain at DC.
 */
export function halfbandTaps(pairs: number): Float64Array {
  const taps = new Float64Array(pairs);
  const span = 2 * pairs;
  let sum = 0;
  for (let j = 0; j < pairs; j++) {
    const n = 2 * j + 1;
    const u = n / span;
    const window = besselI0(KAISER_BETA * Math.sqrt(1 - u * u)) / besselI0(KAISER_BETA);
    taps[j] = (Math.sin((Math.PI * n) / 2) / (Math.PI * n)) * window;
    sum += taps[j]!;
  }
  for (let j = 0; j < pairs; j++) taps[j] = (taps[j]! * 0.25) / sum;
  return taps;
}

/** Gain of the half-band filter at `hz` for input rate `rate`. */
export function halfbandGain(taps: Float64Array, hz: number, rate: number): number {
  let h = 0.5;
  for (let j = 0; j < taps.length; j++) h += 2 * taps[j]! * Math.cos((2 * Math.PI * hz * (2 * j + 1)) / rate);
  return h;
}

/** Tap pairs of the decimator: ≥ 50 dB over the aliasing band at 44.1 and 48 kHz (tested). */
export const HALFBAND_PAIRS = 6;

/**
 * Decimation by 2 with a causal half-band FIR: output m is centred on input 2m, so it comes out
 * once input 2m + 2·pairs − 1 has arrived ({@link latencySamples}). Inputs before the stream start
 * read as silence.
 */
export class HalfbandDecimator implements ScaledAnalysisFrontEnd {
  readonly analysisRate: number;
  /** The output is full scale ±1 already (the taps carry the 2^-15). */
  readonly sampleScale = 1;
  readonly latencySamples: number;
  readonly leadSamples: number;
  /** The odd-offset taps, scaled by 1/32768 so the history can hold raw s16 values. */
  private readonly taps: Float64Array;
  private readonly reach = 2 * HALFBAND_PAIRS - 1;
  /** Input history (s16 values, exact in float32; half the memory traffic of float64): buf[i] is input index bufStart + i. */
  private buf: Float32Array;
  private bufLen: number;
  private bufStart: number;
  /** Input index of the next output's centre (always even). */
  private centre = 0;
  private out = new Float32Array(512);

  constructor(sampleRate: number) {
    this.analysisRate = sampleRate / 2;
    this.taps = halfbandTaps(HALFBAND_PAIRS).map((t) => t / 32768);
    this.latencySamples = this.reach;
    // A hop's last output m = boundary/2 − lead − 1 needs input 2m + reach: with lead = (reach − 1)/2
    // that is the last input before the boundary, so the hop is complete exactly at the boundary.
    this.leadSamples = (this.reach - 1) / 2;
    this.buf = new Float32Array(4096);
    // Silence before the start: the first centre (0) sees `reach` zeros before it.
    this.bufLen = this.reach;
    this.bufStart = -this.reach;
  }

  push(samples: Int16Array): Float32Array {
    const n = samples.length;
    if (this.bufLen + n > this.buf.length) {
      const next = new Float32Array(Math.max(2 * this.buf.length, this.bufLen + n));
      next.set(this.buf.subarray(0, this.bufLen));
      this.buf = next;
    }
    this.buf.set(samples, this.bufLen);
    this.bufLen += n;
    return this.produce();
  }

  flush(): Float32Array {
    // The held-back outputs see silence after the end: append `reach` zeros.
    return this.push(new Int16Array(this.reach)).slice();
  }

  private produce(): Float32Array {
    const buf = this.buf;
    const start = this.bufStart;
    const end = start + this.bufLen; // one past the newest input index
    const count = Math.max(0, Math.floor((end - this.reach - 1 - this.centre) / 2) + 1);
    if (this.out.length < count) this.out = new Float32Array(Math.max(count, 2 * this.out.length));
    const out = this.out;
    const taps = this.taps;
    const half = 0.5 / 32768;
    const t0 = taps[0]!;
    const t1 = taps[1]!;
    const t2 = taps[2]!;
    const t3 = taps[3]!;
    const t4 = taps[4]!;
    const t5 = taps[5]!;
    let c = this.centre - start;
    // Unrolled for HALFBAND_PAIRS = 6; two partial sums shorten the dependency chain. The twelve
    // odd-offset inputs an output reads are carried in locals from one output to the next (ten of
    // them are the next output's too), so each output loads one new odd input and its centre.
    if (count > 0) {
      let m11 = buf[c - 11]!;
      let m9 = buf[c - 9]!;
      let m7 = buf[c - 7]!;
      let m5 = buf[c - 5]!;
      let m3 = buf[c - 3]!;
      let m1 = buf[c - 1]!;
      let p1 = buf[c + 1]!;
      let p3 = buf[c + 3]!;
      let p5 = buf[c + 5]!;
      let p7 = buf[c + 7]!;
      let p9 = buf[c + 9]!;
      for (let m = 0; m < count; m++, c += 2) {
        const p11 = buf[c + 11]!;
        const a = half * buf[c]! + t0 * (m1 + p1) + t2 * (m5 + p5) + t4 * (m9 + p9);
        const b = t1 * (m3 + p3) + t3 * (m7 + p7) + t5 * (m11 + p11);
        out[m] = a + b;
        m11 = m9;
        m9 = m7;
        m7 = m5;
        m5 = m3;
        m3 = m1;
        m1 = p1;
        p1 = p3;
        p3 = p5;
        p5 = p7;
        p7 = p9;
        p9 = p11;
      }
    }
    this.centre += 2 * count;
    // Keep the `reach` inputs before the next centre and everything after.
    const keepFrom = this.centre - this.reach;
    const drop = keepFrom - start;
    if (drop > 0) {
      buf.copyWithin(0, drop, this.bufLen);
      this.bufLen -= drop;
      this.bufStart = keepFrom;
    }
    return out.subarray(0, count);
  }
}
