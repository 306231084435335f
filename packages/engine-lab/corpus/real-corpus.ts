/**
 * Real speech for training, as a corpus the trainer reads like a generated one:
 *
 *   tsx corpus/real-corpus.ts --out DIR [--min-fit F] ALIGNED_DIR...
 *
 * Each ALIGNED_DIR is what corpus/real-align.py wrote (per recording `<id>.wav` and
 * `<id>.align.json`, plus manifest.json). The recordings are copied unchanged (their own rate) and
 * their pocketsphinx phones mapped to visemes exactly as the dev set's `human` recordings are
 * (corpus/human.ts), with condition `real` and split `train`. Augmentation happens in the trainer.
 * `--min-fit F` leaves out recordings whose alignment fit (acoustic score per frame of the words,
 * written by real-align.py) is below F: the words least like the phones they were forced onto,
 * i.e. mispronounced, mistranscribed or drowned in noise. Recordings without a fit are kept.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type IndexEntry, writeIndex } from './corpus.js';
import { HUMAN_ALIGNER, type HumanAlignment, spansFromAlignment } from './human.js';
import { toLabels } from './labels.js';
import { unaugmented } from './plan.js';
import type { CorpusEntry } from './render.js';
import { readWav, writeWav } from './wav.js';

function main(): void {
  const argv = process.argv.slice(2);
  const usage = 'usage: real-corpus.ts --out DIR [--min-fit F] ALIGNED_DIR...';
  const at = argv.indexOf('--out');
  if (at < 0 || !argv[at + 1]) throw new Error(usage);
  const out = resolve(argv[at + 1]!);
  const fitAt = argv.indexOf('--min-fit');
  const minFit = fitAt >= 0 ? Number(argv[fitAt + 1]) : Number.NEGATIVE_INFINITY;
  if (Number.isNaN(minFit)) throw new Error(`--min-fit needs a number (e.g. -28). ${usage}`);
  const options = new Set([at, at + 1, ...(fitAt >= 0 ? [fitAt, fitAt + 1] : [])]);
  const sources = argv.filter((_, i) => !options.has(i)).map((d) => resolve(d));
  if (sources.length === 0)
    throw new Error('real-corpus: name at least one directory written by real-align.py');
  mkdirSync(out, { recursive: true });
  const entries: IndexEntry[] = [];
  for (const dir of sources) {
    // real-align.py rewrites manifest.json as it goes, so a run cut short still lists what it kept.
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      kind: string;
      kept: { id: string; speaker: string; fit?: number }[];
    };
    const fitting = manifest.kept.filter((k) => k.fit === undefined || k.fit >= minFit);
    const speakers = new Map(fitting.map((k) => [k.id, k.speaker]));
    const ids = readdirSync(dir)
      .filter((n) => n.endsWith('.align.json'))
      .map((n) => n.slice(0, -'.align.json'.length))
      .filter((id) => speakers.has(id))
      .sort();
    for (const id of ids) {
      const audio = readWav(join(dir, `${id}.wav`));
      const alignment = JSON.parse(readFileSync(join(dir, `${id}.align.json`), 'utf8')) as HumanAlignment;
      const spans = spansFromAlignment(alignment, audio.sampleRate, audio.samples.length);
      const entry: CorpusEntry = {
        id,
        sampleRate: audio.sampleRate,
        voice: `real:${speakers.get(id)}`,
        text: alignment.words
          .map((w) => w.word)
          .filter((w) => !w.startsWith('<') && !w.startsWith('['))
          .join(' '),
        condition: 'real',
        split: 'train',
        phones: toLabels(spans, 'festival', audio.sampleRate, audio.samples.length),
        duration: audio.samples.length / audio.sampleRate,
        synth: { engine: 'human', recording: id, aligner: HUMAN_ALIGNER },
        augment: unaugmented(audio.sampleRate),
      };
      writeWav(join(out, `${id}.wav`), audio);
      writeFileSync(join(out, `${id}.json`), `${JSON.stringify(entry)}\n`);
      entries.push({
        id,
        sampleRate: entry.sampleRate,
        voice: entry.voice,
        condition: entry.condition,
        duration: entry.duration,
      });
    }
    const unfit = manifest.kept.length - fitting.length;
    console.log(
      `real-corpus: ${ids.length} recordings from ${dir} (${manifest.kind})${unfit > 0 ? `; ${unfit} left out with a fit below ${minFit}` : ''}`,
    );
  }
  const index = writeIndex(out, 'train', 0, entries);
  console.log(
    `real-corpus: ${index.count} utterances, ${(index.totalSeconds / 3600).toFixed(2)} h in ${out}`,
  );
}

main();
