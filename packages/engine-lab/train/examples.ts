/**
 * Training examples from audio, with the runtime's own code: the same input front end (s16, then the
 * half-band decimator at 44.1/48 kHz), the same streaming FeatureExtractor at the same analysis rate, the same standardisation/clipping and context assembly semantics as
 * HopHistory (hop indices clamped to [0, newest]).
 */
import {
  type ContextSlot,
  createAnalysisFrontEnd,
  FEATURE_DIM,
  FeatureExtractor,
  HOPS_PER_FRAME,
  MEL_BANDS,
} from '@avatar-drive/engine';
import { hopSamples, inverseStd, projectHop, standardiseHop } from '@avatar-drive/engine/lab';

/** Audio at the analysis rate, as the feature extractor sees it. */
export interface AnalysisAudio {
  samples: Float32Array;
  rate: number;
  /** The front end's leadSamples: how far the driver moves its hop grid earlier (default 0). */
  lead?: number;
}

/** Converts audio to int16 as the driver receives it, then through the driver's front end. */
export function toAnalysisRate(samples: Float32Array, sampleRate: number): AnalysisAudio {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i]! * 32768);
    pcm[i] = v > 32767 ? 32767 : Math.max(v, -32768);
  }
  const frontEnd = createAnalysisFrontEnd(sampleRate);
  const head = frontEnd.push(pcm).slice();
  const tail = frontEnd.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return { samples: out, rate: frontEnd.analysisRate, lead: frontEnd.leadSamples };
}

/**
 * Raw feature hops of analysis-rate audio (hops × FEATURE_DIM), padded with silence past the end the
 * way the driver's end() pads, so the last frames see the same tail.
 */
export function extractHops(
  audio: AnalysisAudio,
  channelPrior: ArrayLike<number> | undefined,
  padHops: number,
): { hops: Float32Array; count: number; snr: Float32Array } {
  const total = Math.ceil(audio.samples.length / hopSamples(audio.rate)) + padHops;
  const hops = new Float32Array(total * FEATURE_DIM);
  const snr = new Float32Array(total);
  let count = 0;
  const extractor = new FeatureExtractor(
    (f, a) => {
      if (count < total) {
        hops.set(f, count * FEATURE_DIM);
        // Hops before the floor settles may be background above the prior: not speech evidence.
        snr[count] = extractor.floorSettled ? a.energy - a.noiseFloor : 0;
      }
      count++;
    },
    channelPrior,
    audio.rate,
    1,
    audio.lead ?? 0,
  );
  extractor.push(audio.samples);
  const silence = new Float32Array(extractor.hop);
  while (count < total) extractor.push(silence);
  return { hops, count: total, snr };
}

/** Mean mel shape over hops well above the noise floor: the channel prior. */
export function meanSpeechShape(sets: { hops: Float32Array; snr: Float32Array; count: number }[]): number[] {
  const sum = new Float64Array(MEL_BANDS);
  let n = 0;
  for (const s of sets) {
    for (let h = 0; h < s.count; h++) {
      if (s.snr[h]! <= 2.3) continue;
      for (let b = 0; b < MEL_BANDS; b++) sum[b] = sum[b]! + s.hops[h * FEATURE_DIM + b]!;
      n++;
    }
  }
  return [...sum].map((v) => (n ? v / n : 0));
}

/** Per-value mean and std over all hops. */
export function featureStats(sets: { hops: Float32Array; count: number }[]): {
  mean: number[];
  std: number[];
} {
  const sum = new Float64Array(FEATURE_DIM);
  const sq = new Float64Array(FEATURE_DIM);
  let n = 0;
  for (const s of sets) {
    for (let h = 0; h < s.count; h++) {
      for (let i = 0; i < FEATURE_DIM; i++) {
        const v = s.hops[h * FEATURE_DIM + i]!;
        sum[i] = sum[i]! + v;
        sq[i] = sq[i]! + v * v;
      }
      n++;
    }
  }
  const mean = [...sum].map((v) => v / n);
  const std = [...sq].map((v, i) => Math.sqrt(Math.max(1e-8, v / n - mean[i]! ** 2)));
  return { mean, std };
}

/** Standardises hops in place exactly as HopHistory.push does (the same function). */
export function standardise(hops: Float32Array, count: number, mean: number[], std: number[]): void {
  const inv = inverseStd(std);
  for (let h = 0; h < count; h++) standardiseHop(hops, h * FEATURE_DIM, mean, inv);
}

/** Standardised hops (count × FEATURE_DIM) through a projection (rows × FEATURE_DIM), as HopHistory.push does. */
export function project(hops: Float32Array, count: number, projection: number[]): Float32Array {
  const p = Float64Array.from(projection);
  const rows = projection.length / FEATURE_DIM;
  const out = new Float32Array(count * rows);
  for (let h = 0; h < count; h++) projectHop(hops, h * FEATURE_DIM, p, out, h * rows);
  return out;
}

/**
 * Model input of the frame starting at hop `base`, reading hops (count × dim) up to `newest`
 * (HopHistory semantics).
 */
export function assembleLinear(
  out: Float32Array,
  hops: Float32Array,
  base: number,
  context: readonly ContextSlot[],
  newest: number,
  dim: number = FEATURE_DIM,
): void {
  let o = 0;
  for (const [from, to] of context) {
    const n = to - from + 1;
    for (let i = 0; i < dim; i++) out[o + i] = 0;
    for (let h = base + from; h <= base + to; h++) {
      const idx = h < 0 ? 0 : Math.min(h, newest);
      const src = idx * dim;
      for (let i = 0; i < dim; i++) out[o + i] = out[o + i]! + hops[src + i]!;
    }
    if (n > 1) for (let i = 0; i < dim; i++) out[o + i] = out[o + i]! * (1 / n);
    o += dim;
  }
}

export { HOPS_PER_FRAME };
