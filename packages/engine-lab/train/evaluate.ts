/**
 * A quick check of a weights file on a labelled corpus, through the real driver fed in 20 ms
 * chunks: 15-viseme and 7-group frame accuracy (label at the frame centre), jawOpen correlation
 * with a label-derived openness track, bilabial closure recall and false activity in silence.
 * (The full comparison with peer engines is the bench's job: `pnpm bench:lipsync`.)
 *
 * Usage: tsx train/evaluate.ts <corpus dir> [weights file] [--max N]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ARKIT_INDEX, isSupportedSampleRate, VISEMES } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { OPENNESS, visemeGroup } from '../bench/metrics.js';
import { listUtterances, readUtterance, visemeAt } from './corpus.js';

export interface EvaluationReport {
  utterances: number;
  frames: number;
  visemeAccuracy: number;
  groupAccuracy: number;
  jawCorrelation: number;
  closureRecall: number;
  silenceActivity: number;
  /** Accuracy per `condition` of the label files. */
  byCondition: Record<string, number>;
  /** Accuracy per voice (variant suffix dropped). */
  byVoice: Record<string, number>;
}

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((x, y) => x + y, 0) / n;
  const mb = b.reduce((x, y) => x + y, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

export function evaluateCorpus(
  dir: string,
  weights: Uint8Array,
  options: { maxUtterances?: number } = {},
): EvaluationReport {
  const ids = listUtterances(dir).slice(0, options.maxUtterances ?? Number.POSITIVE_INFINITY);
  let frames = 0;
  let correct = 0;
  let groupCorrect = 0;
  let closures = 0;
  let closed = 0;
  let silentFrames = 0;
  let silentActive = 0;
  let used = 0;
  const jawTruth: number[] = [];
  const jawGuess: number[] = [];
  const conditions: Record<string, [number, number]> = {};
  const voices: Record<string, [number, number]> = {};
  for (const id of ids) {
    const u = readUtterance(dir, id);
    if (!isSupportedSampleRate(u.sampleRate)) continue;
    used++;
    const driver = createDriver({ sampleRate: u.sampleRate, weights });
    const pcm = new Int16Array(u.samples.length);
    for (let i = 0; i < pcm.length; i++)
      pcm[i] = Math.max(-32768, Math.min(32767, Math.round(u.samples[i]! * 32768)));
    const chunk = u.sampleRate / 50;
    const out = [];
    for (let i = 0; i < pcm.length; i += chunk) out.push(...driver.push(pcm.subarray(i, i + chunk)));
    out.push(...driver.end());
    const condition = String(u.meta.condition ?? 'all');
    conditions[condition] ??= [0, 0];
    const voice = String(u.meta.voice ?? 'unknown').split('+')[0]!;
    voices[voice] ??= [0, 0];
    const open = out.map((f) => OPENNESS[VISEMES[visemeAt(u.phones, f.index * 0.04 + 0.02)]!]);
    for (const f of out) {
      const truth = visemeAt(u.phones, f.index * 0.04 + 0.02);
      // Openness smoothed over ±2 frames (σ ≈ 30 ms), like a jaw that cannot jump.
      let num = 0;
      let den = 0;
      for (let d = -2; d <= 2; d++) {
        const o = open[f.index + d];
        if (o === undefined) continue;
        const w = Math.exp(-0.5 * ((d * 40) / 30) ** 2);
        num += w * o;
        den += w;
      }
      jawTruth.push(num / den);
      jawGuess.push(f.expression[ARKIT_INDEX.jawOpen]!);
      let guess = 0;
      for (let v = 1; v < VISEMES.length; v++) if (f.visemes[v]! > f.visemes[guess]!) guess = v;
      frames++;
      conditions[condition]![1]++;
      voices[voice]![1]++;
      if (truth === guess) {
        correct++;
        conditions[condition]![0]++;
        voices[voice]![0]++;
      }
      if (visemeGroup(truth) === visemeGroup(guess)) groupCorrect++;
      if (truth === 0) {
        silentFrames++;
        if (guess !== 0 || f.expression[ARKIT_INDEX.jawOpen]! > 0.1) silentActive++;
      }
    }
    for (const p of u.phones) {
      if (VISEMES[p.viseme] !== 'PP' || p.end - p.start < 0.04) continue;
      closures++;
      const first = Math.floor(p.start / 0.04);
      const last = Math.ceil(p.end / 0.04) - 1;
      const hit = out.some(
        (f) =>
          f.index >= first &&
          f.index <= last &&
          (f.expression[ARKIT_INDEX.mouthClose]! >= 0.5 || f.expression[ARKIT_INDEX.jawOpen]! <= 0.1),
      );
      if (hit) closed++;
    }
  }
  const r = (n: number, d: number) => Number((d ? n / d : 0).toFixed(4));
  return {
    utterances: used,
    frames,
    visemeAccuracy: r(correct, frames),
    groupAccuracy: r(groupCorrect, frames),
    jawCorrelation: Number(pearson(jawTruth, jawGuess).toFixed(4)),
    closureRecall: r(closed, closures),
    silenceActivity: r(silentActive, silentFrames),
    byCondition: Object.fromEntries(Object.entries(conditions).map(([k, [c, n]]) => [k, r(c, n)])),
    byVoice: Object.fromEntries(Object.entries(voices).map(([k, [c, n]]) => [k, r(c, n)])),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const maxIndex = args.indexOf('--max');
  const max = maxIndex >= 0 ? Number(args[maxIndex + 1]) : undefined;
  if (maxIndex >= 0) args.splice(maxIndex, 2);
  const [dir, weightsPath] = args;
  if (!dir) {
    console.error('usage: tsx train/evaluate.ts <corpus dir> [weights file] [--max N]');
    process.exit(2);
  }
  const weights = readFileSync(
    weightsPath ?? createRequire(import.meta.url).resolve('@avatar-drive/engine/weights/lipsync.bin'),
  );
  console.log(
    JSON.stringify(
      evaluateCorpus(dir, new Uint8Array(weights), max === undefined ? {} : { maxUtterances: max }),
      null,
      2,
    ),
  );
}
