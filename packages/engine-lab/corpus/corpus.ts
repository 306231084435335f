/**
 * Generates corpus entries for a list of planned utterances: batch synthesis (espeak-ng helper,
 * festival, flite helper, Kokoro helper), then rendering and writing `<id>.wav` + `<id>.json`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesizeEspeak } from './espeak.js';
import { type FestivalJob, synthesizeFestival } from './festival.js';
import { synthesizeFlite } from './flite.js';
import { kokoroDialect, kokoroSymbols, synthesizeKokoro } from './kokoro.js';
import { planBabbleBank, type UtterancePlan } from './plan.js';
import { BabbleBank, type CorpusEntry, renderUtterance, type SynthOutput } from './render.js';
import type { Split } from './texts.js';
import { readWav, writeWav } from './wav.js';

/** One line of index.json. */
export interface IndexEntry {
  id: string;
  sampleRate: number;
  voice: string;
  condition: string;
  duration: number;
}

/** index.json of a corpus directory. */
export interface CorpusIndex {
  format: 'avatar-drive-corpus/1';
  split: Split;
  seed: number;
  count: number;
  totalSeconds: number;
  ids: string[];
  utterances: IndexEntry[];
}

async function synthesizeAll(
  plans: readonly UtterancePlan[],
  tmpDir: string,
  tag: string,
): Promise<Map<string, SynthOutput>> {
  const out = new Map<string, SynthOutput>();
  const espeakPlans = plans.filter((p) => p.synth.engine === 'espeak');
  const festivalPlans = plans.filter((p) => p.synth.engine === 'festival');
  const flitePlans = plans.filter((p) => p.synth.engine === 'flite');
  const kokoroPlans = plans.filter((p) => p.synth.engine === 'kokoro');
  const wavOf = (p: UtterancePlan) => join(tmpDir, `${p.id}.raw.wav`);
  const [espeakResults, , , kokoroResults] = await Promise.all([
    espeakPlans.length > 0
      ? synthesizeEspeak(
          espeakPlans.map((p) => {
            const s = p.synth as Extract<UtterancePlan['synth'], { engine: 'espeak' }>;
            return {
              out: wavOf(p),
              voice: s.voice,
              rate: s.rate,
              pitch: s.pitch,
              range: s.range,
              text: p.text,
            };
          }),
        )
      : Promise.resolve([]),
    festivalPlans.length > 0
      ? synthesizeFestival(
          festivalPlans.map((p): FestivalJob => {
            const s = p.synth as Extract<UtterancePlan['synth'], { engine: 'festival' }>;
            return {
              out: wavOf(p),
              voice: s.voice,
              stretch: s.stretch,
              f0Mean: s.f0Mean,
              f0Std: s.f0Std,
              text: p.text,
            };
          }),
          join(tmpDir, `${tag}.scm`),
        )
      : Promise.resolve(),
    flitePlans.length > 0
      ? synthesizeFlite(
          flitePlans.map((p) => {
            const s = p.synth as Extract<UtterancePlan['synth'], { engine: 'flite' }>;
            return { out: wavOf(p), voice: s.voice, stretch: s.stretch, f0Mean: s.f0Mean, text: p.text };
          }),
        )
      : Promise.resolve(),
    kokoroPlans.length > 0
      ? synthesizeKokoro(
          kokoroPlans.map((p) => {
            const s = p.synth as Extract<UtterancePlan['synth'], { engine: 'kokoro' }>;
            const symbols = kokoroSymbols(p.text, kokoroDialect(s.voice));
            return { out: wavOf(p), voice: s.voice, speed: s.speed, symbols };
          }),
        )
      : Promise.resolve([]),
  ]);
  kokoroPlans.forEach((p, i) => {
    const r = kokoroResults[i]!;
    out.set(p.id, { engine: 'kokoro', audio: readWav(r.out), tokens: r.tokens });
  });
  espeakPlans.forEach((p, i) => {
    const r = espeakResults[i]!;
    const audio = readWav(r.out);
    out.set(p.id, { engine: 'espeak', audio, events: r.events });
  });
  for (const p of plans) {
    // Noise-only utterances start from digital silence at espeak-ng's rate.
    if (p.synth.engine === 'none') {
      const sampleRate = 22050;
      const samples = new Float32Array(Math.round(p.synth.seconds * sampleRate));
      out.set(p.id, { engine: 'none', audio: { sampleRate, samples } });
    }
  }
  // flite writes Festival's segment format, and its phone set is Festival's (radio) one.
  for (const p of [...festivalPlans, ...flitePlans]) {
    const audio = readWav(wavOf(p));
    out.set(p.id, { engine: 'festival', audio, segs: readFileSync(`${wavOf(p)}.segs`, 'utf8') });
  }
  return out;
}

/** Options of {@link generateEntries}. */
export interface GenerateOptions {
  outDir: string;
  tmpDir: string;
  split: Split;
  seed: number;
  /** Utterances synthesised per batch (bounds memory and temp space). */
  chunk?: number;
  onProgress?: (done: number) => void;
}

/** Synthesises, renders and writes the given plans; returns their index lines in order. */
export async function generateEntries(
  plans: readonly UtterancePlan[],
  options: GenerateOptions,
): Promise<IndexEntry[]> {
  mkdirSync(options.outDir, { recursive: true });
  mkdirSync(options.tmpDir, { recursive: true });
  let babble: BabbleBank | undefined;
  if (plans.some((p) => p.augment.noise?.kind === 'babble')) {
    const bankPlans = planBabbleBank(options.split, options.seed);
    const synth = await synthesizeAll(bankPlans, options.tmpDir, 'babble');
    const sources = bankPlans.map((p) => synth.get(p.id)!.audio.samples);
    babble = new BabbleBank(sources, synth.get(bankPlans[0]!.id)!.audio.sampleRate);
  }
  const chunk = options.chunk ?? 64;
  const entries: IndexEntry[] = [];
  // Synthesis runs in child processes: start the next batch before rendering this one, so the
  // synthesisers and the renderer overlap.
  const synthesize = (from: number) => {
    const pending = synthesizeAll(plans.slice(from, from + chunk), options.tmpDir, `batch-${from}`);
    pending.catch(() => {}); // observed when awaited below; avoids an unhandled rejection meanwhile
    return pending;
  };
  let next = plans.length > 0 ? synthesize(0) : undefined;
  for (let from = 0; from < plans.length; from += chunk) {
    const batch = plans.slice(from, from + chunk);
    const synth = await next!;
    next = from + chunk < plans.length ? synthesize(from + chunk) : undefined;
    for (const plan of batch) {
      const { audio, entry } = renderUtterance(plan, synth.get(plan.id)!, babble);
      writeWav(join(options.outDir, `${plan.id}.wav`), audio);
      writeFileSync(join(options.outDir, `${plan.id}.json`), `${JSON.stringify(entry)}\n`);
      entries.push(indexLine(entry));
      rmSync(join(options.tmpDir, `${plan.id}.raw.wav`), { force: true });
      rmSync(join(options.tmpDir, `${plan.id}.raw.wav.segs`), { force: true });
    }
    options.onProgress?.(entries.length);
  }
  return entries;
}

function indexLine(e: CorpusEntry): IndexEntry {
  return { id: e.id, sampleRate: e.sampleRate, voice: e.voice, condition: e.condition, duration: e.duration };
}

/** Writes index.json listing the corpus' utterances in id order. */
export function writeIndex(
  outDir: string,
  split: Split,
  seed: number,
  entries: readonly IndexEntry[],
): CorpusIndex {
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index: CorpusIndex = {
    format: 'avatar-drive-corpus/1',
    split,
    seed,
    count: sorted.length,
    totalSeconds: Math.round(sorted.reduce((s, e) => s + e.duration, 0) * 100) / 100,
    ids: sorted.map((e) => e.id),
    utterances: sorted,
  };
  writeFileSync(join(outDir, 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
  return index;
}
