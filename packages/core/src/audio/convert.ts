/**
 * Sample-format and channel converters users need before sending audio: interleaved
 * multi-channel → mono, Float32 ⇄ s16.
 */
import { everyIndex } from '../describe.js';
import { AvatarError } from '../errors.js';

/**
 * Float samples (nominal range -1..1) → s16 with clipping. Values beyond ±1 clip to the
 * s16 limits and NaN becomes 0, so any Float32Array converts without error.
 * Scaling is ×32768 so that {@link int16ToFloat32} ∘ this is the identity on s16.
 */
export function float32ToInt16(samples: Float32Array | Float64Array | readonly number[]): Int16Array {
  const isArray = Array.isArray(samples);
  if (!isArray && !(samples instanceof Float32Array) && !(samples instanceof Float64Array)) {
    throw new AvatarError(
      'invalidAudio',
      'float32ToInt16() takes a Float32Array, a Float64Array or an array of numbers (nominal range -1..1).',
    );
  }
  if (isArray && !everyIndex(samples, (v) => typeof v === 'number')) {
    throw new AvatarError('invalidAudio', 'float32ToInt16() was given an array with non-number entries.');
  }
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = floatToS16(samples[i]!);
  return out;
}

/** One float sample → s16, clipped (NaN → 0). */
export function floatToS16(value: number): number {
  const v = Math.round(value * 32768);
  if (v > 32767) return 32767;
  if (v < -32768) return -32768;
  return Number.isNaN(v) ? 0 : v;
}

/** s16 samples → floats in -1..1 (value / 32768). */
export function int16ToFloat32(samples: Int16Array): Float32Array {
  requireType(samples, Int16Array, 'int16ToFloat32', 'an Int16Array');
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}

/**
 * Interleaved s16 frames of `channelCount` channels → mono, averaging the channels (rounded).
 *
 * @throws AvatarError `invalidAudio` when `channelCount` is not a positive integer or the sample
 *   count is not a whole number of frames.
 */
export function downmixInt16(interleaved: Int16Array, channelCount: number): Int16Array {
  requireType(interleaved, Int16Array, 'downmixInt16', 'an Int16Array of interleaved samples');
  const frames = frameCount(interleaved.length, channelCount);
  if (channelCount === 1) return interleaved.slice();
  const out = new Int16Array(frames);
  for (let f = 0, base = 0; f < frames; f++, base += channelCount) {
    let sum = 0;
    for (let c = 0; c < channelCount; c++) sum += interleaved[base + c]!;
    out[f] = Math.round(sum / channelCount);
  }
  return out;
}

/**
 * Interleaved float frames of `channelCount` channels → mono, averaging the channels.
 *
 * @throws AvatarError `invalidAudio` as {@link downmixInt16}.
 */
export function downmixFloat32(interleaved: Float32Array, channelCount: number): Float32Array {
  requireType(interleaved, Float32Array, 'downmixFloat32', 'a Float32Array of interleaved samples');
  const frames = frameCount(interleaved.length, channelCount);
  if (channelCount === 1) return interleaved.slice();
  const out = new Float32Array(frames);
  for (let f = 0, base = 0; f < frames; f++, base += channelCount) {
    let sum = 0;
    for (let c = 0; c < channelCount; c++) sum += interleaved[base + c]!;
    out[f] = sum / channelCount;
  }
  return out;
}

/** Planar float channels (e.g. WebAudio `AudioBuffer.getChannelData`) → mono by averaging. */
export function mixPlanarToMono(channels: readonly Float32Array[]): Float32Array {
  if (!Array.isArray(channels) || !everyIndex(channels, (ch) => ch instanceof Float32Array)) {
    throw new AvatarError('invalidAudio', 'mixPlanarToMono() takes an array of Float32Array channels.');
  }
  if (channels.length === 0) {
    throw new AvatarError('invalidAudio', 'There are no channels to mix. Pass at least one Float32Array.');
  }
  const length = channels[0]!.length;
  for (const ch of channels) {
    if (ch.length !== length) {
      throw new AvatarError(
        'invalidAudio',
        `Planar channels differ in length (${length} vs ${ch.length}). Pass channels of one buffer.`,
      );
    }
  }
  if (channels.length === 1) return channels[0]!.slice();
  const out = new Float32Array(length);
  for (const ch of channels) for (let i = 0; i < length; i++) out[i]! += ch[i]!;
  const scale = 1 / channels.length;
  for (let i = 0; i < length; i++) out[i]! *= scale;
  return out;
}

/** Throws invalidAudio unless `value` is an instance of `type`. */
function requireType<T>(
  value: unknown,
  type: abstract new (...args: never[]) => T,
  fn: string,
  what: string,
): asserts value is T {
  if (!(value instanceof type)) throw new AvatarError('invalidAudio', `${fn}() takes ${what}.`);
}

function frameCount(sampleCount: number, channelCount: number): number {
  if (!Number.isInteger(channelCount) || channelCount < 1) {
    throw new AvatarError(
      'invalidAudio',
      `channelCount must be a positive integer, got ${typeof channelCount === 'number' ? channelCount : typeof channelCount}. Pass the number of interleaved channels.`,
    );
  }
  if (sampleCount % channelCount !== 0) {
    throw new AvatarError(
      'invalidAudio',
      `${sampleCount} interleaved samples are not whole frames of ${channelCount} channels. Pass complete frames (keep the remainder for the next chunk).`,
    );
  }
  return sampleCount / channelCount;
}
