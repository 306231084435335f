/**
 * RIFF/WAVE reading and writing: PCM 8 (unsigned) / 16 / 24 / 32-bit integer, 32 / 64-bit float,
 * any channel count, WAVE_FORMAT_EXTENSIBLE. Unknown chunks are skipped (with their pad byte).
 */
import { describeValue, everyIndex } from '../describe.js';
import { AvatarError } from '../errors.js';
import { float32ToInt16 } from './convert.js';
import { int16ToBytes } from './validate.js';

/** Sample encoding of a WAV file: integer PCM or IEEE float. */
export type WavSampleFormat = 'pcm' | 'float';

/** A decoded WAV file. */
export interface WavAudio {
  /** Frames per second as stored in the file. */
  sampleRate: number;
  /** Number of channels (≥ 1). */
  channelCount: number;
  /** Container bits per sample: 8, 16, 24, 32 (pcm) or 32, 64 (float). */
  bitsPerSample: number;
  /** Significant bits (from WAVE_FORMAT_EXTENSIBLE; otherwise = bitsPerSample). */
  validBitsPerSample: number;
  /** Integer PCM or IEEE float. */
  format: WavSampleFormat;
  /** True when the file used WAVE_FORMAT_EXTENSIBLE. */
  extensible: boolean;
  /** Samples per channel. */
  frameCount: number;
  /** One Float32Array per channel, samples scaled to -1..1. */
  channels: Float32Array[];
}

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_EXTENSIBLE = 0xfffe;
/** The 14 bytes shared by the KSDATAFORMAT_SUBTYPE_* GUIDs after their 2-byte format tag. */
const GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

const KNOWN_COMPRESSED: Record<number, string> = {
  2: 'Microsoft ADPCM',
  6: 'A-law',
  7: 'mu-law',
  17: 'IMA ADPCM',
  49: 'GSM 6.10',
  80: 'MPEG',
  85: 'MP3',
};

const CONVERT_HINT =
  'Convert it to PCM WAV first (e.g. `ffmpeg -i in -c:a pcm_s16le out.wav`), or decode it with WebAudio and pass the samples.';

function fail(message: string, details?: Record<string, unknown>): never {
  throw new AvatarError('invalidAudio', message, details ? { details } : {});
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

interface Fmt {
  formatTag: number;
  channelCount: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
  validBits: number;
  format: WavSampleFormat;
  extensible: boolean;
}

function parseFmt(view: DataView, at: number, size: number): Fmt {
  if (size < 16) fail(`The WAV fmt chunk is ${size} bytes; it needs at least 16. The file is damaged.`);
  let formatTag = view.getUint16(at, true);
  const channelCount = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const blockAlign = view.getUint16(at + 12, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  let validBits = bitsPerSample;
  const extensible = formatTag === FORMAT_EXTENSIBLE;
  if (extensible) {
    if (size < 40)
      fail(
        `The WAV fmt chunk says WAVE_FORMAT_EXTENSIBLE but is ${size} bytes, not 40. The file is damaged.`,
      );
    const valid = view.getUint16(at + 18, true);
    if (valid !== 0) validBits = valid;
    formatTag = view.getUint16(at + 24, true);
    for (let i = 0; i < GUID_TAIL.length; i++) {
      if (view.getUint8(at + 26 + i) !== GUID_TAIL[i]) {
        fail(`This WAV file's extensible sub-format GUID is not a PCM or float one. ${CONVERT_HINT}`);
      }
    }
  }
  let format: WavSampleFormat;
  if (formatTag === FORMAT_PCM) format = 'pcm';
  else if (formatTag === FORMAT_FLOAT) format = 'float';
  else {
    const name = KNOWN_COMPRESSED[formatTag];
    fail(
      `This WAV file is ${name ? `${name}-compressed` : `in format 0x${formatTag.toString(16).padStart(4, '0')}`}; only PCM and IEEE float are read. ${CONVERT_HINT}`,
      { formatTag },
    );
  }
  if (channelCount === 0) fail('This WAV file declares 0 channels. The file is damaged.');
  if (sampleRate === 0) fail('This WAV file declares a sample rate of 0. The file is damaged.');
  const okBits = format === 'pcm' ? [8, 16, 24, 32] : [32, 64];
  if (!okBits.includes(bitsPerSample)) {
    fail(
      `${bitsPerSample}-bit ${format === 'pcm' ? 'integer' : 'float'} WAV is not supported (use ${okBits.join(', ')}-bit). ${CONVERT_HINT}`,
      { bitsPerSample },
    );
  }
  if (validBits > bitsPerSample) {
    fail(`This WAV file says ${validBits} valid bits in ${bitsPerSample}-bit samples. The file is damaged.`);
  }
  const expectedAlign = channelCount * (bitsPerSample / 8);
  if (blockAlign !== expectedAlign) {
    fail(
      `This WAV file's block align is ${blockAlign}, but ${channelCount} channels of ${bitsPerSample} bits need ${expectedAlign}. The file is damaged.`,
    );
  }
  return { formatTag, channelCount, sampleRate, blockAlign, bitsPerSample, validBits, format, extensible };
}

/**
 * Parses a WAV file held in memory.
 *
 * @param bytes the whole file.
 * @throws AvatarError `invalidAudio` for anything that is not a readable PCM/float RIFF/WAVE file
 *   (RIFX, RF64, compressed formats, truncated or inconsistent headers, data before fmt, …), with
 *   a message saying how to convert it.
 * @example
 * ```ts
 * const wav = parseWav(new Uint8Array(await file.arrayBuffer()));
 * const pcm = wavToMonoInt16(wav); // then resample(pcm, wav.sampleRate, 16000)
 * ```
 */
export function parseWav(bytes: Uint8Array | ArrayBuffer): WavAudio {
  if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
    fail('parseWav() takes the file as a Uint8Array or an ArrayBuffer.');
  }
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (b.length < 12) fail(`${b.length} bytes is too short for a WAV file (a RIFF header needs 12).`);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const riff = fourcc(b, 0);
  if (riff === 'RIFX')
    fail(`This is a big-endian WAV (RIFX); only little-endian RIFF is read. ${CONVERT_HINT}`);
  if (riff === 'RF64') fail(`This is an RF64 (64-bit) WAV; only RIFF WAV is read. ${CONVERT_HINT}`);
  if (riff !== 'RIFF' || fourcc(b, 8) !== 'WAVE') {
    fail(`This is not a WAV file (no RIFF/WAVE header). ${CONVERT_HINT}`);
  }
  let fmt: Fmt | undefined;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = fourcc(b, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (fmt) fail('This WAV file has two fmt chunks. The file is damaged.');
      if (body + size > b.length) fail('This WAV file ends inside its fmt chunk: it is truncated.');
      fmt = parseFmt(view, body, size);
    } else if (id === 'data') {
      if (!fmt) fail('This WAV file has its data chunk before the fmt chunk, so it cannot be read.');
      // Streaming writers leave a placeholder when the length is unknown: 0xFFFFFFFF (ffmpeg to a
      // pipe) or 0x7FFFF000 (espeak-ng --stdout, libsndfile-style). Read to the end of the file.
      const streaming = size === 0xffffffff || size === 0x7ffff000;
      let length = streaming ? b.length - body : size;
      if (body + length > b.length) {
        fail(
          `This WAV file is truncated: its data chunk says ${size} bytes but only ${b.length - body} follow.`,
          {
            declared: size,
            present: b.length - body,
          },
        );
      }
      if (streaming) length -= length % fmt.blockAlign;
      if (length % fmt.blockAlign !== 0) {
        fail(
          `This WAV file's data chunk (${length} bytes) is not whole frames of ${fmt.blockAlign} bytes. The file is damaged.`,
        );
      }
      return decode(view, body, length, fmt);
    }
    // Chunks are word-aligned: an odd-sized chunk is followed by one pad byte.
    at = body + size + (size & 1);
  }
  if (!fmt) fail('This WAV file has no fmt chunk. The file is damaged or not a WAV file.');
  fail('This WAV file has no data chunk (it may be truncated).');
}

function decode(view: DataView, at: number, length: number, fmt: Fmt): WavAudio {
  const { channelCount, bitsPerSample, blockAlign, format } = fmt;
  const frameCount = length / blockAlign;
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frameCount));
  const bytesPer = bitsPerSample / 8;
  for (let c = 0; c < channelCount; c++) {
    const ch = channels[c]!;
    let p = at + c * bytesPer;
    for (let f = 0; f < frameCount; f++, p += blockAlign) ch[f] = readSample(view, p, bitsPerSample, format);
  }
  return {
    sampleRate: fmt.sampleRate,
    channelCount,
    bitsPerSample,
    validBitsPerSample: fmt.validBits,
    format,
    extensible: fmt.extensible,
    frameCount,
    channels,
  };
}

function readSample(view: DataView, p: number, bits: number, format: WavSampleFormat): number {
  if (format === 'float') return bits === 32 ? view.getFloat32(p, true) : view.getFloat64(p, true);
  switch (bits) {
    case 8:
      return (view.getUint8(p) - 128) / 128;
    case 16:
      return view.getInt16(p, true) / 32768;
    case 24: {
      const v = view.getUint8(p) | (view.getUint8(p + 1) << 8) | (view.getInt8(p + 2) << 16);
      return v / 8388608;
    }
    default:
      return view.getInt32(p, true) / 2147483648;
  }
}

/** The channels of a decoded WAV averaged to one (a copy for mono files). */
export function wavToMono(wav: WavAudio): Float32Array {
  checkWavAudio(wav);
  const { channels, frameCount } = wav;
  if (channels.length === 1) return channels[0]!.slice();
  const out = new Float32Array(frameCount);
  for (let f = 0; f < frameCount; f++) {
    let sum = 0;
    for (const ch of channels) sum += ch[f]!;
    out[f] = sum / channels.length;
  }
  return out;
}

/** The channels of a decoded WAV averaged to mono s16 (clipped), ready for {@link resample}. */
export function wavToMonoInt16(wav: WavAudio): Int16Array {
  return float32ToInt16(wavToMono(wav));
}

/** The channels of a decoded WAV interleaved into one Float32Array (frame by frame). */
export function wavToInterleaved(wav: WavAudio): Float32Array {
  checkWavAudio(wav);
  const { channels, frameCount, channelCount } = wav;
  const out = new Float32Array(frameCount * channelCount);
  for (let c = 0; c < channelCount; c++) {
    const ch = channels[c]!;
    for (let f = 0; f < frameCount; f++) out[f * channelCount + c] = ch[f]!;
  }
  return out;
}

function checkWavAudio(wav: unknown): asserts wav is WavAudio {
  const w = wav as Partial<WavAudio> | null;
  if (
    typeof w !== 'object' ||
    w === null ||
    !Array.isArray(w.channels) ||
    w.channels.length === 0 ||
    w.channels.length !== w.channelCount ||
    !everyIndex(w.channels, (ch) => ch instanceof Float32Array && ch.length === w.frameCount)
  ) {
    fail('Expected a WavAudio as returned by parseWav().');
  }
}

/**
 * Writes mono s16 samples as a canonical 44-byte-header PCM WAV file.
 *
 * @throws AvatarError `invalidAudio` for a sample rate that is not a positive whole number.
 */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  if (!(samples instanceof Int16Array)) fail('encodeWav() takes an Int16Array of mono samples.');
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 0xffffffff) {
    fail(`encodeWav() needs a positive whole sample rate, got ${describeValue(sampleRate)}.`);
  }
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, FORMAT_PCM, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  out.set(int16ToBytes(samples), 44);
  return out;
}
