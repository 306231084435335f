/**
 * Validates a corpus directory against the contract in README.md and prints its make-up:
 *
 *   pnpm exec tsx packages/engine-lab/corpus/check-corpus.ts DIR
 *
 * Exit code 0 when valid, 1 with the list of problems otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusIndex } from './corpus.js';
import { OUTPUT_RATES } from './plan.js';
import type { CorpusEntry } from './render.js';
import { VISEMES } from './visemes.js';
import { readWav } from './wav.js';

/** What {@link checkCorpus} found. */
export interface CorpusReport {
  problems: string[];
  count: number;
  seconds: number;
  byCondition: Record<string, number>;
  byRate: Record<string, number>;
  byEngine: Record<string, number>;
  /** Share of labelled time per viseme (0..1). */
  visemeShare: Record<string, number>;
}

const bump = (m: Record<string, number>, k: string, by = 1) => {
  m[k] = (m[k] ?? 0) + by;
};

/** Checks every file of a corpus directory; never throws for content problems, lists them. */
export function checkCorpus(dir: string): CorpusReport {
  const report: CorpusReport = {
    problems: [],
    count: 0,
    seconds: 0,
    byCondition: {},
    byRate: {},
    byEngine: {},
    visemeShare: {},
  };
  const indexPath = join(dir, 'index.json');
  if (!existsSync(indexPath)) {
    report.problems.push(`${indexPath} is missing`);
    return report;
  }
  const index = JSON.parse(readFileSync(indexPath, 'utf8')) as CorpusIndex;
  if (index.ids.length !== index.count) report.problems.push('index.json: count differs from ids.length');
  const visemeTime: Record<string, number> = {};
  for (const id of index.ids) {
    const problem = (what: string) => report.problems.push(`${id}: ${what}`);
    const jsonPath = join(dir, `${id}.json`);
    const wavPath = join(dir, `${id}.wav`);
    if (!existsSync(jsonPath) || !existsSync(wavPath)) {
      problem('missing .json or .wav');
      continue;
    }
    const entry = JSON.parse(readFileSync(jsonPath, 'utf8')) as CorpusEntry;
    const audio = readWav(wavPath);
    const duration = audio.samples.length / audio.sampleRate;
    if (entry.id !== id) problem(`id field is ${entry.id}`);
    if (entry.split !== index.split) problem(`split ${entry.split} in a ${index.split} corpus`);
    if (entry.sampleRate !== audio.sampleRate)
      problem(`sampleRate ${entry.sampleRate} but WAV says ${audio.sampleRate}`);
    if (!(OUTPUT_RATES as readonly number[]).includes(audio.sampleRate))
      problem(`unsupported rate ${audio.sampleRate}`);
    const phones = entry.phones;
    if (phones.length === 0) problem('no phones');
    else {
      if (phones[0]!.start !== 0) problem('first phone does not start at 0');
      if (Math.abs(phones[phones.length - 1]!.end - duration) > 1e-6) {
        problem(`labels end at ${phones[phones.length - 1]!.end}, audio at ${duration}`);
      }
    }
    for (let i = 0; i < phones.length; i++) {
      const p = phones[i]!;
      if (!(p.end > p.start)) problem(`phone ${i} (${p.phone}) has no duration`);
      if (i > 0 && p.start !== phones[i - 1]!.end) problem(`gap or overlap before phone ${i}`);
      if (!(VISEMES as readonly string[]).includes(p.viseme)) problem(`phone ${i} has viseme ${p.viseme}`);
      bump(visemeTime, p.viseme, p.end - p.start);
    }
    report.count++;
    report.seconds += duration;
    bump(report.byCondition, entry.condition);
    bump(report.byRate, String(entry.sampleRate));
    bump(report.byEngine, entry.voice.split(':')[0] ?? '?');
  }
  const total = Object.values(visemeTime).reduce((a, b) => a + b, 0);
  for (const v of VISEMES) report.visemeShare[v] = total > 0 ? (visemeTime[v] ?? 0) / total : 0;
  return report;
}

function main(): void {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: check-corpus.ts DIR\n');
    process.exit(2);
  }
  const r = checkCorpus(resolve(dir));
  const fmt = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  process.stdout.write(
    `${r.count} utterances, ${(r.seconds / 60).toFixed(1)} min\n` +
      `conditions: ${fmt(r.byCondition)}\nrates: ${fmt(r.byRate)}\nengines: ${fmt(r.byEngine)}\n` +
      `visemes (time share): ${Object.entries(r.visemeShare)
        .map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`)
        .join(', ')}\n`,
  );
  if (r.problems.length > 0) {
    process.stderr.write(`${r.problems.length} problems:\n${r.problems.slice(0, 50).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('valid\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
