/**
 * Conversion of the input rate to the analysis rate with core's streaming band-limited
 * (Kaiser-windowed sinc) resampler, designed for what the features need: flat to 0.75 × the lower
 * Nyquist (6 kHz at 16 kHz), 40 dB stop band. That keeps the kernel short (≈ 55 taps from 48 kHz
 * instead of ≈ 300 for hi-fi settings) — the features cannot tell, and the training data went
 * through the very same filter.
 */
import { Resampler } from '@avatar-drive/core';

/** A streaming resampler as the driver uses it. */
export interface StreamResampler {
  /** Input samples held back before an output can be computed. */
  readonly latencySamples: number;
  /** s16 input in, float output (full scale ±1) ready so far. */
  push(samples: Int16Array): Float32Array;
  /** The rest of the output (the input is treated as followed by silence). */
  flush(): Float32Array;
}

/** The filter design the engine (and its training) uses. */
export const ENGINE_RESAMPLER_OPTIONS = { attenuationDb: 40, passband: 0.75 } as const;

/** A resampler from `fromRate` to `toRate`, or null when no conversion is needed. */
export function createStreamResampler(fromRate: number, toRate: number): StreamResampler | null {
  if (fromRate === toRate) return null;
  return new Resampler(fromRate, toRate, ENGINE_RESAMPLER_OPTIONS);
}
