import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DriveFrame, mulberry32 } from '@avatar-drive/core';
import type { Driver } from '../src/driver.js';

/** A seeded PRNG for test signals and chunkings. */
export const random: (seed: number) => () => number = mulberry32;

/** Gaussian-ish noise at a given RMS (full scale 1). */
export function noise(samples: number, rms: number, seed: number): Int16Array {
  const r = random(seed);
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) {
    const g = (r() + r() + r() + r() - 2) * Math.sqrt(3);
    out[i] = Math.max(-32768, Math.min(32767, Math.round(g * rms * 32768)));
  }
  return out;
}

/** A vowel-like buzz: harmonics of a gliding f0, switched on and off in syllable-like bursts. */
export function buzz(sampleRate: number, seconds: number, seed: number): Int16Array {
  const r = random(seed);
  const out = new Int16Array(Math.round(sampleRate * seconds));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    const f0 = 120 + 30 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * f0) / sampleRate;
    const on = Math.sin(2 * Math.PI * 3 * t) > -0.2 ? 1 : 0;
    let v = 0;
    for (let h = 1; h <= 12; h++) v += Math.sin(h * phase) / h;
    out[i] = Math.round(on * 6000 * v + (r() - 0.5) * 200);
  }
  return out;
}

/** Pushes `pcm` in the given chunk sizes (cycled), then ends. */
export function run(driver: Driver, pcm: Int16Array, chunk: number | (() => number)): DriveFrame[] {
  const frames: DriveFrame[] = [];
  let i = 0;
  while (i < pcm.length) {
    const n = Math.max(1, typeof chunk === 'number' ? chunk : chunk());
    frames.push(...driver.push(pcm.subarray(i, i + n)));
    i += n;
  }
  frames.push(...driver.end());
  return frames;
}

/** Synthesises English speech with espeak-ng; returns 16-bit mono samples and the rate. */
export function espeak(text: string, voice = 'en-us'): { pcm: Int16Array; sampleRate: number } {
  const dir = mkdtempSync(join(tmpdir(), 'engine-test-'));
  const file = join(dir, 'speech.wav');
  const result = spawnSync('espeak-ng', ['-v', voice, '-w', file, text]);
  if (result.status !== 0) throw new Error(`espeak-ng failed: ${result.stderr}`);
  return readPcmWav(file);
}

/** Reads a mono s16 WAV written by espeak-ng or the tests. */
export function readPcmWav(file: string): { pcm: Int16Array; sampleRate: number } {
  const bytes = readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') sampleRate = view.getUint32(at + 12, true);
    if (id === 'data') {
      const n = Math.floor(Math.min(size, bytes.length - at - 8) / 2);
      const pcm = new Int16Array(n);
      for (let i = 0; i < n; i++) pcm[i] = view.getInt16(at + 8 + 2 * i, true);
      return { pcm, sampleRate };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

/** Writes a mono s16 WAV. */
export function wavBytes(pcm: Int16Array, sampleRate: number, channels = 1): Uint8Array {
  const data = pcm.length * 2;
  const out = new Uint8Array(44 + data);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + data, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, data, true);
  for (let i = 0; i < pcm.length; i++) view.setInt16(44 + 2 * i, pcm[i]!, true);
  return out;
}
