/**
 * Minimal WAV reading and writing for the corpus: mono signed 16-bit little-endian PCM.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Decoded mono audio, samples in [-1, 1). */
export interface MonoAudio {
  sampleRate: number;
  samples: Float32Array;
}

/** Parses a PCM s16le WAV (mono, or mixed down to mono) into floats. */
export function decodeWav(bytes: Uint8Array, source = 'WAV'): MonoAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new Error(`${source}: not a RIFF/WAVE file; the corpus expects PCM WAV`);
  }
  let offset = 12;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let format = 0;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    let size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (format !== 1 || bits !== 16 || channels < 1) {
        throw new Error(`${source}: expected 16-bit PCM, got format ${format} with ${bits} bits`);
      }
      // Some writers (festival, sox on pipes) leave the size as 0 or 0xffffffff when streaming.
      if (size === 0 || body + size > bytes.length) size = bytes.length - body;
      const frames = Math.floor(size / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let acc = 0;
        for (let c = 0; c < channels; c++) acc += view.getInt16(body + 2 * (i * channels + c), true);
        samples[i] = acc / channels / 32768;
      }
      return { sampleRate, samples };
    }
    offset = body + size + (size & 1);
  }
  throw new Error(`${source}: no data chunk found`);
}

/** Encodes floats as a mono s16le WAV, rounding and clipping to the 16-bit range. */
export function encodeWav(audio: MonoAudio): Uint8Array {
  const n = audio.samples.length;
  const out = new Uint8Array(44 + 2 * n);
  const view = new DataView(out.buffer);
  const put = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  view.setUint32(4, 36 + 2 * n, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  put(36, 'data');
  view.setUint32(40, 2 * n, true);
  for (let i = 0; i < n; i++) {
    const v = Math.round(audio.samples[i]! * 32768);
    view.setInt16(44 + 2 * i, Math.min(32767, Math.max(-32768, v)), true);
  }
  return out;
}

/** Reads a WAV file from disk. */
export function readWav(path: string): MonoAudio {
  return decodeWav(readFileSync(path), path);
}

/** Writes a mono s16le WAV file. */
export function writeWav(path: string, audio: MonoAudio): void {
  writeFileSync(path, encodeWav(audio));
}
