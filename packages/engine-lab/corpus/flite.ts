/**
 * flite's clustergen voice awb with segment times, for the dev set's `othersynth` condition: a
 * synthesiser the model never trains on. Runs the flite-align C helper (native/flite-align.c), built
 * with gcc on first use into the git-ignored corpus/.build directory; it writes each WAV and, next to
 * it, `<wav>.segs` in Festival's format.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR } from './espeak.js';
import { runHelper } from './run-helper.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCE = join(HERE, 'native', 'flite-align.c');
const BINARY = join(BUILD_DIR, 'flite-align');

/**
 * flite voices the dev set uses (Debian flite). Only awb: the other CMU ARCTIC voices (rms, slt) are
 * reserved for the independent evaluation.
 */
export type FliteVoice = 'awb';

/** One synthesis job for flite. */
export interface FliteJob {
  /** Output WAV path (16 kHz); segments go to `<wav>.segs`. */
  out: string;
  voice: FliteVoice;
  /** Duration stretch: >1 is slower. */
  stretch: number;
  /** Target F0 mean in Hz. */
  f0Mean: number;
  text: string;
}

function ensureFliteAlign(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(BUILD_DIR, { recursive: true });
  const partial = `${BINARY}.${process.pid}`;
  const libs = ['-lflite_cmu_us_awb', '-lflite_usenglish', '-lflite_cmulex', '-lflite', '-lm'];
  try {
    execFileSync('gcc', ['-O2', '-Wall', '-I/usr/include/flite', '-o', partial, SOURCE, ...libs], {
      stdio: 'pipe',
    });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? String(err);
    throw new Error(
      `building flite-align failed; install gcc and flite1-dev (bash scripts/setup.sh):\n${stderr}`,
    );
  }
  renameSync(partial, BINARY);
  return BINARY;
}

/** Synthesises a batch with one helper process; resolves when every WAV and its segments are written. */
export async function synthesizeFlite(jobs: readonly FliteJob[]): Promise<void> {
  const binary = ensureFliteAlign();
  const input = jobs
    .map((j) =>
      [
        j.out,
        j.voice,
        j.stretch.toFixed(3),
        j.f0Mean.toFixed(1),
        j.text.replace(/[\t\r\n]+/g, ' ').trim(),
      ].join('\t'),
    )
    .join('\n');
  const { code, stdout, stderr } = await runHelper('flite-align', binary, [], { input: `${input}\n` });
  const done = stdout.split('\n').filter((l) => l.startsWith('DONE ')).length;
  if (code !== 0 || done !== jobs.length) {
    throw new Error(
      `flite-align failed (exit ${code}, ${done}/${jobs.length} jobs): ${stderr.trim().slice(0, 500)}`,
    );
  }
}
