/** The audio contract of driveningress.v2: mono, signed 16-bit little-endian PCM. */

/** The 7 sample rates the service accepts, in Hz. */
export const SUPPORTED_SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

export type SupportedSampleRate = (typeof SUPPORTED_SAMPLE_RATES)[number];

/** True when `rate` is one of {@link SUPPORTED_SAMPLE_RATES}. */
export function isSupportedSampleRate(rate: unknown): rate is SupportedSampleRate {
  return typeof rate === 'number' && (SUPPORTED_SAMPLE_RATES as readonly number[]).includes(rate);
}

/**
 * The rates an `OGG_OPUS` session may be configured at: the rates Opus encodes at (12000 is an
 * Opus rate, not a PCM one).
 */
export const OPUS_SAMPLE_RATES = [8000, 12000, 16000, 24000, 48000] as const;

export type OpusSampleRate = (typeof OPUS_SAMPLE_RATES)[number];

/** True when `rate` is one of {@link OPUS_SAMPLE_RATES}. */
export function isOpusSampleRate(rate: unknown): rate is OpusSampleRate {
  return typeof rate === 'number' && (OPUS_SAMPLE_RATES as readonly number[]).includes(rate);
}
