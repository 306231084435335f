/**
 * Conversion of the input rate to the analysis rate.
 */
import { AvatarError } from '@avatar-drive/core';

/** A streaming resampler as the driver uses it. */
export interface StreamResampler {
  /** Input samples held back before an output can be computed. */
  readonly latencySamples: number;
  push(samples: Int16Array): Float32Array;
  flush(): Float32Array;
}

/** Returns null when no conversion is needed. */
export function createStreamResampler(fromRate: number, toRate: number): StreamResampler | null {
  if (fromRate === toRate) return null;
  throw new AvatarError(
    'unsupportedSampleRate',
    `This build of the engine analyses ${toRate} Hz input only; resample ${fromRate} Hz audio to ${toRate} Hz first.`,
  );
}
