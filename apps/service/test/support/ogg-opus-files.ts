/**
 * Test audio for the Ogg Opus input: speech from espeak-ng, encoded by Debian's `opusenc`
 * (opus-tools: libopus and libopusenc in C, no code shared with the service's demuxer, and a
 * separate libopus build from its decoder).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav, parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';

/** espeak-ng's rendering of `text`, mono s16 at its own rate (22050 Hz). */
export function speech(text: string): { pcm: Int16Array; sampleRate: number } {
  const dir = mkdtempSync(join(tmpdir(), 'avd-speech-'));
  try {
    const file = join(dir, 'speech.wav');
    const run = spawnSync('espeak-ng', ['-v', 'en-us', '-w', file, text]);
    if (run.status !== 0)
      throw new Error(`espeak-ng failed (bash scripts/setup.sh installs it): ${run.stderr}`);
    const wav = parseWav(readFileSync(file));
    return { pcm: wavToMonoInt16(wav), sampleRate: wav.sampleRate };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `source` at `rate` (core's resampler; a copy when the rates match). */
export function atRate(source: { pcm: Int16Array; sampleRate: number }, rate: number): Int16Array {
  return rate === source.sampleRate ? source.pcm.slice() : resample(source.pcm, source.sampleRate, rate);
}

export interface OpusencOptions {
  /** Target bitrate, kbit/s. */
  kbps: number;
  /** Frame size, ms (opusenc --framesize; default 20). */
  frameMs?: number;
  /** Longest wait before a page is flushed, ms (opusenc --max-delay; default 1000). */
  maxDelayMs?: number;
}

/** Ogg Opus bytes of mono `pcm` at `sampleRate`, as `opusenc` writes them. */
export function opusenc(pcm: Int16Array, sampleRate: number, options: OpusencOptions): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'avd-opusenc-'));
  try {
    const input = join(dir, 'in.wav');
    const output = join(dir, 'out.opus');
    writeFileSync(input, encodeWav(pcm, sampleRate));
    const args = ['--quiet', '--bitrate', String(options.kbps)];
    if (options.frameMs) args.push('--framesize', String(options.frameMs));
    if (options.maxDelayMs !== undefined) args.push('--max-delay', String(options.maxDelayMs));
    const run = spawnSync('opusenc', [...args, input, output]);
    if (run.status !== 0) {
      throw new Error(`opusenc failed (bash scripts/setup.sh installs opus-tools): ${run.stderr}`);
    }
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Splits `bytes` at `pieces − 1` random places (a seeded generator: the same splits each run). */
export function splitAtRandom(bytes: Uint8Array, pieces: number, seed: number): Uint8Array[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const cuts = new Set<number>();
  while (cuts.size < Math.min(pieces - 1, bytes.length - 1))
    cuts.add(1 + Math.floor(next() * (bytes.length - 1)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const cut of [...sorted, bytes.length]) {
    out.push(bytes.subarray(at, cut));
    at = cut;
  }
  return out;
}
