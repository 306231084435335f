/**
 * Runs the espeak-align C helper (native/espeak-align.c): builds it with gcc on first use into the
 * git-ignored corpus/.build directory, feeds it a batch of jobs, and parses its phoneme events.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PhoneEvent } from './labels.js';
import { runHelper } from './run-helper.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCE = join(HERE, 'native', 'espeak-align.c');
/** Where the helper binary is built (git-ignored). */
export const BUILD_DIR = join(HERE, '.build');
const BINARY = join(BUILD_DIR, 'espeak-align');

/** One synthesis job for espeak-ng. */
export interface EspeakJob {
  /** Where to write the WAV (mono s16le at espeak-ng's 22050 Hz). */
  out: string;
  /** Voice name with optional variant, e.g. `en-us+m3`. */
  voice: string;
  /** Words per minute (80–450). */
  rate: number;
  /** Base pitch 0–99 (espeak-ng default 50). */
  pitch: number;
  /** Pitch range 0–99 (default 50). */
  range: number;
  text: string;
}

/** The helper's answer for one job. */
export interface EspeakResult {
  out: string;
  sampleRate: number;
  totalSamples: number;
  events: PhoneEvent[];
}

/** Builds the helper if it is missing or older than its source; returns the binary path. */
export function ensureEspeakAlign(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(BUILD_DIR, { recursive: true });
  // Build under a private name and rename: a concurrent caller never runs a half-written binary.
  const partial = `${BINARY}.${process.pid}`;
  try {
    execFileSync('gcc', ['-O2', '-Wall', '-o', partial, SOURCE, '-lespeak-ng'], { stdio: 'pipe' });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? String(err);
    throw new Error(
      `building espeak-align failed; install gcc and libespeak-ng-dev (bash scripts/setup.sh):\n${stderr}`,
    );
  }
  renameSync(partial, BINARY);
  return BINARY;
}

/** Text safe for the helper's one-line, tab-separated job format. */
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ').trim();
}

/** Synthesises a batch of jobs with one helper process; resolves with one result per job, in order. */
export async function synthesizeEspeak(jobs: readonly EspeakJob[]): Promise<EspeakResult[]> {
  const binary = ensureEspeakAlign();
  const input = jobs
    .map(
      (j) =>
        `${j.out}\t${j.voice}\t${Math.round(j.rate)}\t${Math.round(j.pitch)}\t${Math.round(j.range)}\t${oneLine(j.text)}\n`,
    )
    .join('');
  const { code, stdout, stderr } = await runHelper('espeak-align', binary, [], { input });
  if (code !== 0) throw new Error(`espeak-align exited with ${code}: ${stderr.trim()}`);
  return parseHelperOutput(stdout, jobs);
}

/** Parses `JOB`/`PH`/`END`/`ERR` lines; throws if any job failed or is missing. */
export function parseHelperOutput(stdout: string, jobs: readonly EspeakJob[]): EspeakResult[] {
  const results = new Map<string, EspeakResult>();
  let current: EspeakResult | undefined;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('JOB ')) {
      const parts = line.split(' ');
      const sampleRate = Number(parts.pop());
      current = { out: parts.slice(1).join(' '), sampleRate, totalSamples: 0, events: [] };
    } else if (line.startsWith('PH ') && current) {
      const [, sample, phone] = line.split(' ');
      current.events.push({ sample: Number(sample), phone: phone ?? '' });
    } else if (line.startsWith('END ') && current) {
      current.totalSamples = Number(line.slice(4));
      results.set(current.out, current);
      current = undefined;
    } else if (line.startsWith('ERR ')) {
      throw new Error(`espeak-align: ${line.slice(4)}`);
    }
  }
  return jobs.map((j) => {
    const r = results.get(j.out);
    if (!r) throw new Error(`espeak-align gave no result for ${j.out}`);
    return r;
  });
}
