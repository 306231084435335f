/** The audio contract of driveningress.v2: mono, signed 16-bit little-endian PCM. */

/** The 7 sample rates the service accepts, in Hz. */
export const SUPPORTED_SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

export type SupportedSampleRate = (typeof SUPPORTED_SAMPLE_RATES)[number];

/** True when `rate` is one of {@link SUPPORTED_SAMPLE_RATES}. */
export function isSupportedSampleRate(rate: unknown): rate is SupportedSampleRate {
  return typeof rate === 'number' && (SUPPORTED_SAMPLE_RATES as readonly number[]).includes(rate);
}
