/**
 * One call from "audio as I have it" to "audio the service takes": mono s16le at a supported rate.
 */
import type { SupportedSampleRate } from '../audio-format.js';
import { AvatarError } from '../errors.js';
import { downmixFloat32, float32ToInt16 } from './convert.js';
import { type ResamplerOptions, resample } from './resample.js';
import { assertSupportedSampleRate, nearestSupportedSampleRate } from './validate.js';
import { type WavAudio, wavToMono } from './wav.js';

/** Audio ready to send: mono s16 samples at a supported rate. */
export interface SendablePcm {
  sampleRate: SupportedSampleRate;
  samples: Int16Array;
}

/** Audio as an app holds it. */
export interface RawAudio {
  /** Interleaved samples: floats in -1..1, or s16. */
  samples: Float32Array | Int16Array;
  /** Rate the samples were recorded at, a whole number of Hz. */
  sampleRate: number;
  /** Interleaved channels (default 1). */
  channelCount?: number;
}

/**
 * Downmixes, resamples (band-limited) and quantises audio into what a session sends.
 * Work stays in float until the last step, so there is a single rounding.
 *
 * @param targetRate a supported rate; default the lowest supported rate ≥ the input rate.
 * @throws AvatarError `invalidAudio` for bad samples, rates or channel counts,
 *   `unsupportedSampleRate` for a target outside SUPPORTED_SAMPLE_RATES.
 * @example
 * ```ts
 * const { samples, sampleRate } = toSendablePcm({ samples: float32, sampleRate: 44100, channelCount: 2 }, 16000);
 * ```
 */
export function toSendablePcm(audio: RawAudio, targetRate?: number, options?: ResamplerOptions): SendablePcm {
  if (typeof audio !== 'object' || audio === null) {
    throw new AvatarError('invalidAudio', 'Pass the audio as { samples, sampleRate, channelCount }.');
  }
  const { samples, sampleRate, channelCount = 1 } = audio;
  let floats: Float32Array;
  if (samples instanceof Float32Array) floats = samples;
  else if (samples instanceof Int16Array) floats = Float32Array.from(samples, (v) => v / 32768);
  else {
    throw new AvatarError('invalidAudio', 'audio.samples must be a Float32Array (-1..1) or an Int16Array.');
  }
  return finish(downmixFloat32(floats, channelCount), sampleRate, targetRate, options);
}

/**
 * {@link toSendablePcm} for a parsed WAV file.
 *
 * @example
 * ```ts
 * const { samples, sampleRate } = wavToSendablePcm(parseWav(bytes));
 * ```
 */
export function wavToSendablePcm(
  wav: WavAudio,
  targetRate?: number,
  options?: ResamplerOptions,
): SendablePcm {
  return finish(wavToMono(wav), wav.sampleRate, targetRate, options);
}

function finish(
  mono: Float32Array,
  sampleRate: number,
  targetRate: number | undefined,
  options: ResamplerOptions | undefined,
): SendablePcm {
  const rate = targetRate ?? nearestSupportedSampleRate(sampleRate);
  assertSupportedSampleRate(rate);
  const resampled = sampleRate === rate ? mono : resample(mono, sampleRate, rate, options);
  return { sampleRate: rate, samples: float32ToInt16(resampled) };
}
