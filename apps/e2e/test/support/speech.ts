/**
 * Speech for the e2e tests: a WAV synthesised by espeak-ng (Debian package espeak-ng), and its
 * loudness.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';

export interface Speech {
  pcm: Int16Array;
  sampleRate: number;
  /** Duration in ms. */
  durationMs: number;
}

/** Synthesises `text` with espeak-ng into a mono s16 WAV, read back at `sampleRate` (default 24 kHz). */
export function synthesize(text: string, sampleRate = 24000): Speech {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-drive-speech-'));
  try {
    const file = join(dir, 'speech.wav');
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '165', '-w', file, text]);
    const wav = parseWav(readFileSync(file));
    const pcm = resample(wavToMonoInt16(wav), wav.sampleRate, sampleRate);
    return { pcm, sampleRate, durationMs: (pcm.length / sampleRate) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RMS (0 … 1) of `pcm` over [from, to). */
export function rms(pcm: Int16Array, from: number, to: number): number {
  let sum = 0;
  let n = 0;
  for (let i = Math.max(0, from); i < Math.min(pcm.length, to); i++) {
    const v = pcm[i]! / 32768;
    sum += v * v;
    n += 1;
  }
  return n === 0 ? 0 : Math.sqrt(sum / n);
}
