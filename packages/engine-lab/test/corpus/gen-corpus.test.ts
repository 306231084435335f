import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus } from '../../corpus/check-corpus.js';
import { generateEntries, writeIndex } from '../../corpus/corpus.js';
import { planCorpus, type UtterancePlan } from '../../corpus/plan.js';
import type { CorpusEntry } from '../../corpus/render.js';
import { splitOfText } from '../../corpus/texts.js';
import { VISEMES } from '../../corpus/visemes.js';
import { readWav } from '../../corpus/wav.js';

describe('corpus generation end to end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engine-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes labelled utterances (espeak-ng, Festival, flite; speech from sample 0) whose labels cover the audio', async () => {
    const planned = planCorpus('dev', 40, 5);
    const espeak = planned.find((p) => p.synth.engine === 'espeak' && p.augment.noise?.kind === 'babble');
    const festival = planned.find((p) => p.synth.engine === 'festival' && p.augment.sampleRate !== 22050);
    const flite = planned.find((p) => p.synth.engine === 'flite');
    const start0 = planned.find((p) => p.condition === 'start0' && p.synth.engine === 'espeak');
    expect(espeak && festival && flite && start0).toBeTruthy();
    expect(flite!.condition).toBe('othersynth');
    expect(start0!.augment).toMatchObject({ fromStart: true, padLead: 0 });
    expect(planCorpus('train', 200, 1).some((p) => p.synth.engine === 'flite')).toBe(false);
    const plans: UtterancePlan[] = [espeak!, festival!, flite!, start0!];
    const outDir = join(dir, 'dev');
    const entries = await generateEntries(plans, { outDir, tmpDir: join(dir, 'tmp'), split: 'dev', seed: 5 });
    const index = writeIndex(outDir, 'dev', 5, entries);
    expect(index.ids).toEqual(plans.map((p) => p.id).sort());
    expect(JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8')).ids).toEqual(index.ids);

    for (const plan of plans) {
      const entry = JSON.parse(readFileSync(join(outDir, `${plan.id}.json`), 'utf8')) as CorpusEntry;
      const audio = readWav(join(outDir, `${plan.id}.wav`));
      expect(entry.sampleRate).toBe(audio.sampleRate);
      expect(entry.sampleRate).toBe(plan.augment.sampleRate);
      expect(entry.split).toBe('dev');
      expect(splitOfText(entry.text)).toBe('dev');
      expect(entry.condition).toBe(plan.condition);
      const duration = audio.samples.length / audio.sampleRate;
      expect(audio.samples.length).toBeGreaterThan(audio.sampleRate * 0.5);
      // labels: start at 0, contiguous, positive length, end exactly at the end of the audio
      const phones = entry.phones;
      expect(phones[0]!.start).toBe(0);
      expect(phones[phones.length - 1]!.end).toBeCloseTo(duration, 9);
      for (let i = 0; i < phones.length; i++) {
        expect(phones[i]!.end).toBeGreaterThan(phones[i]!.start);
        if (i > 0) expect(phones[i]!.start).toBe(phones[i - 1]!.end);
        expect(VISEMES).toContain(phones[i]!.viseme);
      }
      expect(phones[phones.length - 1]!.viseme).toBe('sil');
      if (plan.augment.fromStart) {
        // speech from sample 0: the first label is a phone, and sound comes within its first 80 ms
        expect(phones[0]!.viseme).not.toBe('sil');
        const firstLoud = audio.samples.findIndex((v) => Math.abs(v) > 0.01);
        expect(firstLoud / audio.sampleRate).toBeLessThan(0.08);
        continue;
      }
      expect(phones[0]!.viseme).toBe('sil'); // leading padding
      expect(phones.filter((p) => p.viseme !== 'sil').length).toBeGreaterThan(5);
      // speech is where the labels say: louder inside phones than in the leading silence
      const rms = (a: number, b: number) => {
        let acc = 0;
        const from = Math.floor(a * audio.sampleRate);
        const to = Math.floor(b * audio.sampleRate);
        for (let i = from; i < to; i++) acc += audio.samples[i]! ** 2;
        return Math.sqrt(acc / Math.max(1, to - from));
      };
      const speech = phones.filter((p) => p.viseme !== 'sil');
      expect(rms(speech[0]!.start, speech[speech.length - 1]!.end)).toBeGreaterThan(
        2 * rms(0, phones[0]!.end),
      );
    }

    const report = checkCorpus(outDir);
    expect(report.problems).toEqual([]);
    expect(report.count).toBe(4);

    // the same plan renders to the same bytes (noise, babble and impulse responses are seeded)
    const again = join(dir, 'again');
    await generateEntries([espeak!], { outDir: again, tmpDir: join(dir, 'tmp2'), split: 'dev', seed: 5 });
    expect(readFileSync(join(again, `${espeak!.id}.wav`))).toEqual(
      readFileSync(join(outDir, `${espeak!.id}.wav`)),
    );
    expect(readFileSync(join(again, `${espeak!.id}.json`), 'utf8')).toBe(
      readFileSync(join(outDir, `${espeak!.id}.json`), 'utf8'),
    );
  }, 120_000);

  it('renders noise-only train utterances as one silence at the planned background level', async () => {
    const plan = planCorpus('train', 200, 1).find((p) => p.condition === 'noise-only');
    expect(plan).toBeDefined();
    const outDir = join(dir, 'noise');
    await generateEntries([plan!], { outDir, tmpDir: join(dir, 'tmp3'), split: 'train', seed: 1 });
    const entry = JSON.parse(readFileSync(join(outDir, `${plan!.id}.json`), 'utf8')) as CorpusEntry;
    const audio = readWav(join(outDir, `${plan!.id}.wav`));
    expect(entry.voice).toBe('none');
    expect(entry.phones).toEqual([
      { start: 0, end: audio.samples.length / audio.sampleRate, phone: '_', viseme: 'sil' },
    ]);
    const noise = plan!.augment.noise;
    expect(noise && 'levelDb' in noise).toBe(true);
    if (noise && 'levelDb' in noise && !plan!.augment.telephone) {
      let acc = 0;
      for (const v of audio.samples) acc += v * v;
      const rmsDb = 10 * Math.log10(acc / audio.samples.length);
      expect(Math.abs(rmsDb - noise.levelDb)).toBeLessThan(1);
    }
  }, 60_000);

  it('reports problems instead of passing a broken corpus', () => {
    const report = checkCorpus(join(dir, 'does-not-exist'));
    expect(report.problems[0]).toMatch(/index.json is missing/);
  });
});
