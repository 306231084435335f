/**
 * Speech for the e2e tests: a WAV synthesised by espeak-ng (Debian package espeak-ng), and drive
 * frames whose jawOpen follows the loudness of that audio around each frame's start — an
 * animation whose alignment with the audio can be measured on the other side.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARKIT_INDEX,
  createDriveFrame,
  type DriveFrame,
  parseWav,
  resample,
  wavToMonoInt16,
} from '@avatar-drive/core';

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

/**
 * One frame per 40 ms; frame k's jawOpen is the loudness of the 40 ms centred on its start
 * (frame k is shown from that instant), scaled so the loudest frames open fully.
 */
export function loudnessFrames(speech: Speech): DriveFrame[] {
  const spf = speech.sampleRate / 25;
  const count = Math.ceil(speech.pcm.length / spf);
  const levels = Array.from({ length: count }, (_, k) =>
    rms(speech.pcm, Math.round(k * spf - spf / 2), Math.round(k * spf + spf / 2)),
  );
  const sorted = [...levels].sort((a, b) => a - b);
  const loud = sorted[Math.floor(sorted.length * 0.9)] || 1;
  return levels.map((level, k) => {
    const frame = createDriveFrame(k);
    frame.expression[ARKIT_INDEX.jawOpen] = Math.min(1, level / loud);
    return frame;
  });
}

/**
 * Frames for audio that arrives in pieces (as a driving session sees it): frame k is made once
 * the 20 ms after its start have arrived (or at the end), jawOpen = loudness / `fullScale`.
 */
export class StreamingLoudness {
  #pcm = new Int16Array(0);
  #next = 0;
  readonly #spf: number;

  constructor(
    sampleRate: number,
    readonly fullScale = 0.12,
  ) {
    this.#spf = sampleRate / 25;
  }

  /** Appends audio and returns the frames it completes. */
  push(pcm: Int16Array, end: boolean): DriveFrame[] {
    const joined = new Int16Array(this.#pcm.length + pcm.length);
    joined.set(this.#pcm);
    joined.set(pcm, this.#pcm.length);
    this.#pcm = joined;
    const out: DriveFrame[] = [];
    const total = Math.ceil(joined.length / this.#spf);
    while (this.#next < total && (end || (this.#next + 0.5) * this.#spf <= joined.length)) {
      const k = this.#next++;
      const frame = createDriveFrame(k);
      const level = rms(
        joined,
        Math.round(k * this.#spf - this.#spf / 2),
        Math.round(k * this.#spf + this.#spf / 2),
      );
      frame.expression[ARKIT_INDEX.jawOpen] = Math.min(1, level / this.fullScale);
      out.push(frame);
    }
    return out;
  }
}
