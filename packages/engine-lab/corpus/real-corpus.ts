/**
 * Real speech for training, as a corpus the trainer reads like a generated one:
 *
 *   tsx corpus/real-corpus.ts --out DIR ALIGNED_DIR...
 *
 * Each ALIGNED_DIR is what corpus/real-align.py wrote (per recording `<id>.wav` and
 * `<id>.align.json`, plus manifest.json). The recordings are copied unchanged (their own rate) and
 * their pocketsphinx phones mapped to visemes exactly as the dev set's `human` recordings are
 * (corpus/human.ts), with condition `real` and split `train`. Augmentation happens in the trainer.
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
  const at = argv.indexOf('--out');
  if (at < 0 || !argv[at + 1]) throw new Error('usage: real-corpus.ts --out DIR ALIGNED_DIR...');
  const out = resolve(argv[at + 1]!);
  const sources = argv.filter((_, i) => i !== at && i !== at + 1).map((d) => resolve(d));
  if (sources.length === 0)
    throw new Error('real-corpus: name at least one directory written by real-align.py');
  mkdirSync(out, { recursive: true });
  const entries: IndexEntry[] = [];
  for (const dir of sources) {
    // real-align.py rewrites manifest.json as it goes, so a run cut short still lists what it kept.
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      kind: string;
      kept: { id: string; speaker: string }[];
    };
    const speakers = new Map(manifest.kept.map((k) => [k.id, k.speaker]));
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
    console.log(`real-corpus: ${ids.length} recordings from ${dir} (${manifest.kind})`);
  }
  const index = writeIndex(out, 'train', 0, entries);
  console.log(
    `real-corpus: ${index.count} utterances, ${(index.totalSeconds / 3600).toFixed(2)} h in ${out}`,
  );
}

main();
