/**
 * The `avatar-drive` command.
 *
 *   avatar-drive lipsync <file.wav> [--lookahead <ms>] [--format jsonl|csv] [--seed <n>]
 *
 * Streams the WAV file through the driver in 20 ms chunks, as a live source would, and writes one
 * record per 25 fps frame to stdout. Exit codes: 0 done, 2 bad usage or unreadable audio, 1 other.
 */
import { readFileSync } from 'node:fs';
import {
  ARKIT_BLENDSHAPES,
  AvatarError,
  type DriveFrame,
  FRAME_MS,
  isAvatarError,
  isSupportedSampleRate,
  parseWav,
  Resampler,
  SUPPORTED_SAMPLE_RATES,
  VISEMES,
} from '@avatar-drive/core';
import packageJson from '../package.json' with { type: 'json' };
import { createDriver, DEFAULT_LOOKAHEAD_MS } from './driver.js';

const USAGE = `Usage: avatar-drive lipsync <file.wav> [--lookahead <ms>] [--format jsonl|csv] [--seed <n>]

Streams a WAV file through the Avatar Drive engine in 20 ms chunks and prints one record per
25 fps frame: {"t_ms", "visemes", "blendshapes", "head"} as JSON lines (default) or CSV.

  --lookahead <ms>  audio to wait for past each frame, 0..200 (default ${DEFAULT_LOOKAHEAD_MS})
  --format <f>      jsonl (default) or csv
  --seed <n>        seed of head motion and blinks (default 0)

  avatar-drive --version   prints the version`;

class UsageError extends Error {}

interface Options {
  file: string;
  lookaheadMs: number;
  format: 'jsonl' | 'csv';
  seed: number;
}

function parseArgs(argv: string[]): Options | 'help' | 'version' {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return 'help';
  if (argv[0] === '--version' || argv[0] === '-v') return 'version';
  const [command, ...rest] = argv;
  if (command !== 'lipsync') {
    throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
  }
  let file: string | undefined;
  let lookaheadMs = DEFAULT_LOOKAHEAD_MS;
  let format: Options['format'] = 'jsonl';
  let seed = 0;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value.`);
      return v;
    };
    if (arg === '--lookahead') {
      lookaheadMs = Number(value());
      if (!Number.isFinite(lookaheadMs) || lookaheadMs < 0 || lookaheadMs > 200) {
        throw new UsageError('--lookahead takes milliseconds from 0 to 200.');
      }
    } else if (arg === '--format') {
      const f = value();
      if (f !== 'jsonl' && f !== 'csv') throw new UsageError('--format is jsonl or csv.');
      format = f;
    } else if (arg === '--seed') {
      seed = Number(value());
      if (!Number.isInteger(seed)) throw new UsageError('--seed takes an integer.');
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option ${arg}.`);
    } else if (file === undefined) {
      file = arg;
    } else {
      throw new UsageError(`Unexpected argument ${arg}.`);
    }
  }
  if (file === undefined) throw new UsageError('No WAV file given.');
  return { file, lookaheadMs, format, seed };
}

const round = (v: number) => Math.round(v * 10000) / 10000;

function jsonRecord(frame: DriveFrame): string {
  const visemes: Record<string, number> = {};
  VISEMES.forEach((name, i) => {
    visemes[name] = round(frame.visemes[i]!);
  });
  const blendshapes: Record<string, number> = {};
  ARKIT_BLENDSHAPES.forEach((name, i) => {
    blendshapes[name] = round(frame.expression[i]!);
  });
  const r = frame.rotation;
  const head = { pitch: round(r[0]!), yaw: round(r[1]!), roll: round(r[2]!) };
  return JSON.stringify({ t_ms: Math.round(frame.index * FRAME_MS), visemes, blendshapes, head });
}

const CSV_HEADER = [
  't_ms',
  ...VISEMES.map((v) => `viseme_${v}`),
  ...ARKIT_BLENDSHAPES,
  'head_pitch',
  'head_yaw',
  'head_roll',
].join(',');

function csvRecord(frame: DriveFrame): string {
  return [
    Math.round(frame.index * FRAME_MS),
    ...Array.from(frame.visemes, round),
    ...Array.from(frame.expression, round),
    ...Array.from(frame.rotation, round),
  ].join(',');
}

/** Reads, mixes down and (if needed) resamples the file to a supported rate. */
function loadAudio(file: string): { pcm: Int16Array; sampleRate: number } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new AvatarError(
      'invalidAudio',
      `Cannot read ${file}: ${(error as Error).message}. Check the path.`,
    );
  }
  const wav = parseWav(bytes);
  const n = wav.frameCount;
  let mono = wav.channels[0]!;
  if (wav.channelCount > 1) {
    process.stderr.write(
      `avatar-drive: note: ${file} has ${wav.channelCount} channels; mixing them down to mono.\n`,
    );
    mono = new Float32Array(n);
    for (const channel of wav.channels)
      for (let i = 0; i < n; i++) mono[i] = mono[i]! + channel[i]! / wav.channelCount;
  }
  let sampleRate = wav.sampleRate;
  if (!isSupportedSampleRate(sampleRate)) {
    const target = SUPPORTED_SAMPLE_RATES.find((r) => r >= sampleRate) ?? 48000;
    process.stderr.write(`avatar-drive: note: resampling ${sampleRate} Hz to ${target} Hz.\n`);
    const resampler = new Resampler(sampleRate, target);
    const head = resampler.push(mono);
    const tail = resampler.flush();
    mono = new Float32Array(head.length + tail.length);
    mono.set(head);
    mono.set(tail, head.length);
    sampleRate = target;
  }
  const pcm = new Int16Array(mono.length);
  for (let i = 0; i < mono.length; i++)
    pcm[i] = Math.max(-32768, Math.min(32767, Math.round(mono[i]! * 32768)));
  return { pcm, sampleRate };
}

function lipsync(options: Options): void {
  const { pcm, sampleRate } = loadAudio(options.file);
  const driver = createDriver({ sampleRate, lookaheadMs: options.lookaheadMs, seed: options.seed });
  const format = options.format === 'csv' ? csvRecord : jsonRecord;
  const lines: string[] = options.format === 'csv' ? [CSV_HEADER] : [];
  const chunk = sampleRate / 50;
  const flush = () => {
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    lines.length = 0;
  };
  for (let i = 0; i < pcm.length; i += chunk) {
    for (const frame of driver.push(pcm.subarray(i, i + chunk))) lines.push(format(frame));
    if (lines.length >= 250) flush();
  }
  for (const frame of driver.end()) lines.push(format(frame));
  flush();
}

function main(argv: string[]): number {
  try {
    const options = parseArgs(argv);
    if (options === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (options === 'version') {
      process.stdout.write(`${packageJson.version}\n`);
      return 0;
    }
    lipsync(options);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`avatar-drive: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (isAvatarError(error) && (error.code === 'invalidAudio' || error.code === 'unsupportedSampleRate')) {
      process.stderr.write(`avatar-drive: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`avatar-drive: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

// A closed pipe (`… | head`) ends the output quietly instead of crashing.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = main(process.argv.slice(2));
