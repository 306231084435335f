/**
 * A cheap causal pitch tracker for prosody (brows): the 16 kHz stream is low-passed and decimated
 * to 2 kHz into a ring; on request, a normalised autocorrelation over the 24 ms ending at a given
 * point picks the period between 75 and 360 Hz (parabolic refinement between lags). Only speech
 * frames ask, so silence costs nothing but the decimation.
 */
import { ANALYSIS_RATE } from './features.js';

const DECIMATION = 8;
/** Rate of the decimated stream. */
export const PITCH_RATE = ANALYSIS_RATE / DECIMATION;
const SPAN = 48;
const MIN_LAG = 6;
const MAX_LAG = 27;
/** 256 ms of decimated history: the longest lookahead plus the analysis span fits. */
const RING = 512;

export class PitchTracker {
  private readonly ring = new Float32Array(RING);
  private readonly scores = new Float32Array(MAX_LAG + 2);
  private readonly span = new Float32Array(SPAN + MAX_LAG);
  /** Decimated samples written so far. */
  private written = 0;
  private phase = 0;
  // Butterworth low-pass at 600 Hz (fs 16 kHz), direct form I.
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor() {
    const w = Math.tan((Math.PI * 600) / ANALYSIS_RATE);
    const q = Math.SQRT1_2;
    const n = 1 / (1 + w / q + w * w);
    this.b0 = w * w * n;
    this.b1 = 2 * this.b0;
    this.b2 = this.b0;
    this.a1 = 2 * (w * w - 1) * n;
    this.a2 = (1 - w / q + w * w) * n;
  }

  reset(): void {
    this.ring.fill(0);
    this.written = 0;
    this.phase = 0;
    this.x1 = this.x2 = this.y1 = this.y2 = 0;
  }

  push(samples: Float32Array, from = 0, to = samples.length): void {
    const { b0, b1, b2, a1, a2, ring } = this;
    let { x1, x2, y1, y2, phase, written } = this;
    for (let i = from; i < to; i++) {
      const x = samples[i]!;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      if (++phase === DECIMATION) {
        phase = 0;
        ring[written % RING] = y;
        written++;
      }
    }
    this.x1 = x1;
    this.x2 = x2;
    this.y1 = y1;
    this.y2 = y2;
    this.phase = phase;
    this.written = written;
  }

  /**
   * Fundamental frequency (Hz) of the 24 ms ending at decimated sample `end` (exclusive), or 0
   * when unvoiced. `end` must be within the last 256 ms written.
   */
  f0At(end: number): number {
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
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      let cross = 0;
      let el = 0;
      for (let t = MAX_LAG; t < x.length; t++) {
        const b = x[t - lag]!;
        cross += x[t]! * b;
        el += b * b;
      }
      const r = el > 1e-12 ? cross / Math.sqrt(e0 * el) : 0;
      scores[lag] = r;
      if (r > best) {
        best = r;
        bestLag = lag;
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
    return PITCH_RATE / lag;
  }
}
