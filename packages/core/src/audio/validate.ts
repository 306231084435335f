/**
 * The audio contract checks: what the service accepts (mono s16le at one of 7 rates), and the
 * byte ⇄ sample views every SDK uses before sending.
 */

import { isSupportedSampleRate, SUPPORTED_SAMPLE_RATES, type SupportedSampleRate } from '../audio-format.js';
import { describeValue } from '../describe.js';
import { AvatarError } from '../errors.js';

/** A chunk of mono s16le PCM as users hold it: samples, or their little-endian bytes. */
export type PcmChunk = Int16Array | Uint8Array | ArrayBuffer;

/** The audio format a session is configured with. */
export interface PcmFormat {
  /** Samples per second; one of {@link SUPPORTED_SAMPLE_RATES}. */
  sampleRate: number;
  /** Channels; the service takes mono only, so this must be 1 (default 1). */
  channelCount?: number;
}

const RATE_LIST = SUPPORTED_SAMPLE_RATES.join(', ');

/**
 * Checks a session's audio format and returns the rate typed as supported.
 *
 * @throws AvatarError `unsupportedSampleRate` for a rate outside {@link SUPPORTED_SAMPLE_RATES},
 *   `invalidAudio` for anything but one channel.
 * @example
 * ```ts
 * const rate = validateAudioFormat({ sampleRate: 16000, channelCount: 1 });
 * ```
 */
export function validateAudioFormat(format: PcmFormat): SupportedSampleRate {
  if (typeof format !== 'object' || format === null) {
    throw new AvatarError(
      'invalidAudio',
      'The audio format must be an object like { sampleRate: 16000, channelCount: 1 }.',
    );
  }
  assertSupportedSampleRate(format.sampleRate);
  const channels = format.channelCount ?? 1;
  if (channels !== 1) {
    throw new AvatarError(
      'invalidAudio',
      `The service takes mono audio, but channelCount is ${describe(channels)}. Mix down with downmixInt16() or downmixFloat32() from @avatar-drive/core and pass channelCount: 1.`,
      { details: { channelCount: channels } },
    );
  }
  return format.sampleRate as SupportedSampleRate;
}

/**
 * Throws unless `rate` is one of {@link SUPPORTED_SAMPLE_RATES}.
 *
 * @throws AvatarError `unsupportedSampleRate` naming the supported rates and the resampler to use.
 */
export function assertSupportedSampleRate(rate: unknown): asserts rate is SupportedSampleRate {
  if (isSupportedSampleRate(rate)) return;
  throw new AvatarError(
    'unsupportedSampleRate',
    `Sample rate ${describe(rate)} is not supported. Resample to one of ${RATE_LIST} Hz with resample() (or the streaming Resampler) from @avatar-drive/core, e.g. resample(samples, ${typeof rate === 'number' && Number.isInteger(rate) && rate > 0 ? rate : 'inputRate'}, ${nearestSupportedSampleRate(typeof rate === 'number' ? rate : 16000)}).`,
    { details: { sampleRate: rate } },
  );
}

/**
 * The supported rate to resample to from `rate`: the lowest supported rate at or above it (so no
 * bandwidth is lost), or 48000 for anything higher. 16000 for a rate that is not a positive number.
 */
export function nearestSupportedSampleRate(rate: number): SupportedSampleRate {
  if (typeof rate !== 'number' || !(rate > 0) || !Number.isFinite(rate)) return 16000;
  for (const r of SUPPORTED_SAMPLE_RATES) if (r >= rate) return r;
  return 48000;
}

/**
 * Checks one chunk of mono s16le PCM before it is sent, and returns its samples.
 * Accepts `Int16Array` samples, or their little-endian bytes as `Uint8Array` / `ArrayBuffer`
 * (any alignment). When `sampleRate` is given it is checked too.
 *
 * @returns the samples as an `Int16Array` (a view when the bytes allow it, otherwise a copy).
 * @throws AvatarError `invalidAudio` for a wrong type or an odd byte length,
 *   `unsupportedSampleRate` for a bad `sampleRate`.
 */
export function assertPcmChunk(chunk: unknown, sampleRate?: number): Int16Array {
  if (sampleRate !== undefined) assertSupportedSampleRate(sampleRate);
  if (chunk instanceof Int16Array) return chunk;
  if (chunk instanceof Uint8Array || chunk instanceof ArrayBuffer) {
    const length = chunk.byteLength;
    if (length % 2 !== 0) {
      throw new AvatarError(
        'invalidAudio',
        `A PCM chunk of ${length} bytes is not whole 16-bit samples. Send s16le audio in chunks of an even number of bytes (keep the odd last byte for the next chunk).`,
        { details: { byteLength: length } },
      );
    }
    return int16FromBytes(chunk);
  }
  throw new AvatarError(
    'invalidAudio',
    `A PCM chunk must be an Int16Array, a Uint8Array or an ArrayBuffer of s16le bytes, not ${describeType(chunk)}. Convert Float32 samples with float32ToInt16() from @avatar-drive/core.`,
  );
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Views little-endian s16 bytes as samples. Returns a zero-copy view when the bytes are aligned
 * and the host is little-endian, otherwise a decoded copy. A trailing odd byte is ignored.
 */
export function int16FromBytes(bytes: Uint8Array | ArrayBuffer): Int16Array {
  if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
    throw new AvatarError(
      'invalidAudio',
      'int16FromBytes() takes a Uint8Array or an ArrayBuffer of s16le bytes.',
    );
  }
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const count = u8.byteLength >> 1;
  if (HOST_LITTLE_ENDIAN && u8.byteOffset % 2 === 0) return new Int16Array(u8.buffer, u8.byteOffset, count);
  const out = new Int16Array(count);
  for (let i = 0; i < count; i++) {
    const v = u8[2 * i]! | (u8[2 * i + 1]! << 8);
    out[i] = (v << 16) >> 16;
  }
  return out;
}

/** The little-endian bytes of s16 samples (a view on little-endian hosts, as the wire wants). */
export function int16ToBytes(samples: Int16Array): Uint8Array {
  if (!(samples instanceof Int16Array)) {
    throw new AvatarError('invalidAudio', 'int16ToBytes() takes an Int16Array of samples.');
  }
  if (HOST_LITTLE_ENDIAN) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const out = new Uint8Array(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    out[2 * i] = v & 0xff;
    out[2 * i + 1] = (v >> 8) & 0xff;
  }
  return out;
}

/** Duration in milliseconds of `sampleCount` mono samples at `sampleRate`. */
export function pcmDurationMs(sampleCount: number, sampleRate: number): number {
  return (sampleCount * 1000) / sampleRate;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeType(value);
}

function describeType(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  return describeValue(value).replace(/ of \d+( bytes)?$/, '');
}
