import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus } from '../../corpus/check-corpus.js';
import { generateEntries, writeIndex } from '../../corpus/corpus.js';
import {
  clauses,
  ipaToKokoro,
  KOKORO_FRAME,
  KOKORO_LEAD,
  KOKORO_RATE,
  type KokoroToken,
  kokoroDir,
  kokoroMissing,
  kokoroSymbols,
  parseKokoroOutput,
  snapPauses,
  spansFromKokoroTokens,
} from '../../corpus/kokoro.js';
import { planCorpus } from '../../corpus/plan.js';
import type { CorpusEntry } from '../../corpus/render.js';
import { createRng } from '../../corpus/rng.js';
import { SentenceSource } from '../../corpus/texts.js';
import { KOKORO_VISEMES, VISEMES, visemeOf } from '../../corpus/visemes.js';
import { KOKORO_VOICES } from '../../corpus/voices.js';
import { readWav } from '../../corpus/wav.js';

describe('Kokoro phonemes', () => {
  it("rewrite espeak-ng IPA into Kokoro's diphthong and affricate letters", () => {
    expect(ipaToKokoro('hˈaɪ ðɛɹ, tʃˈiːz ænd dʒˈuːs', 'en-us')).toBe('hˈI ðɛɹ, ʧˈiz ænd ʤˈus');
    expect(ipaToKokoro('bˈɜːd nˈaʊ bˈoʊt bˈɔɪ pˈeɪ', 'en-us')).toBe('bˈɜɹd nˈW bˈOt bˈY pˈA');
    // British: length marks stay, əʊ is Q, r becomes ɹ
    expect(ipaToKokoro('ɡˈəʊ fˈɑːðə rˈɛd', 'en-gb')).toBe('ɡˈQ fˈɑːðə ɹˈɛd');
    // language-switch tags and the syllabic stroke go
    expect(ipaToKokoro('(fr)pɑːɹi(en) bˈʌʔn̩', 'en-us')).toBe('pɑɹi bˈʌʔn');
  });

  it('split text into clauses at punctuation followed by a space or the end', () => {
    expect(clauses('One, two, three.')).toEqual([
      { words: 'One', punct: ',' },
      { words: 'two', punct: ',' },
      { words: 'three', punct: '.' },
    ]);
    expect(clauses('It costs 3.5 dollars! Really?! ok')).toEqual([
      { words: 'It costs 3.5 dollars', punct: '!' },
      { words: 'Really', punct: '?!' },
      { words: 'ok', punct: '' },
    ]);
  });

  it('map every symbol espeak-ng gives for the corpus texts, in both dialects', () => {
    for (const split of ['train', 'dev'] as const) {
      const source = new SentenceSource(split);
      const rng = createRng(`kokoro-sweep:${split}`);
      for (let i = 0; i < 15; i++) {
        const text = source.next(rng.fork(i));
        for (const dialect of ['en-us', 'en-gb'] as const) {
          const symbols = kokoroSymbols(text, dialect); // throws for an unmapped symbol
          expect(symbols.length).toBeGreaterThan(0);
        }
      }
    }
    expect(kokoroSymbols('One, two, three.', 'en-us')).toBe('wˈʌn, tˈu, θɹˈi.');
    for (const v of Object.values(KOKORO_VISEMES)) expect(VISEMES).toContain(v);
    expect(new Set(Object.values(KOKORO_VISEMES))).toEqual(new Set(VISEMES));
    expect(() => visemeOf('kokoro', 'ʘ')).toThrow(/KOKORO_VISEMES/);
  }, 60_000);
});

describe('Kokoro token timings', () => {
  const frames = (n: number) => n * KOKORO_FRAME;
  /** Audio that is loud in the given sample ranges and silent elsewhere. */
  function audio(length: number, loud: Array<[number, number]>): Float32Array {
    const x = new Float32Array(length);
    for (const [a, b] of loud)
      for (let i = a; i < b; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * 200 * i) / KOKORO_RATE);
    return x;
  }
  /** A token boundary after `n` frames, where the sound is: KOKORO_LEAD earlier. */
  const at = (n: number) => frames(n) - KOKORO_LEAD;
  const show = (spans: { phone: string; start: number; end: number }[]) =>
    spans.map((s) => [s.phone, s.start, s.end]);

  it('give stress marks to the next phone, length marks to the previous, pads and punctuation to pauses', () => {
    const tokens: KokoroToken[] = [
      { symbol: '$', frames: 10 },
      { symbol: 'w', frames: 2 },
      { symbol: 'ˈ', frames: 2 },
      { symbol: 'ʌ', frames: 3 },
      { symbol: 'n', frames: 2 },
      { symbol: ',', frames: 8 },
      { symbol: ' ', frames: 0 },
      { symbol: 't', frames: 2 },
      { symbol: 'ˈ', frames: 1 },
      { symbol: 'u', frames: 2 },
      { symbol: 'ː', frames: 3 },
      { symbol: '$', frames: 5 },
    ];
    const x = audio(frames(40), [
      [at(10), at(19)],
      [at(27), at(35)],
    ]);
    expect(show(spansFromKokoroTokens(tokens, x))).toEqual([
      ['_', 0, at(10)],
      ['w', at(10), at(12)],
      ['ʌ', at(12), at(17)],
      ['n', at(17), at(19)],
      ['_', at(19), at(27)],
      ['t', at(27), at(29)],
      ['u', at(29), at(35)],
      ['_', at(35), frames(40)],
    ]);
  });

  it('make a quiet word gap a pause and share a sounding one between its neighbours', () => {
    const tokens: KokoroToken[] = [
      { symbol: '$', frames: 4 },
      { symbol: 'a', frames: 4 },
      { symbol: ' ', frames: 4 },
      { symbol: 'b', frames: 4 },
      { symbol: ' ', frames: 2 },
      { symbol: 'i', frames: 4 },
      { symbol: '$', frames: 2 },
    ];
    // silent through the first gap, sounding through the second
    const x = audio(frames(24), [
      [at(4), at(8)],
      [at(12), at(22)],
    ]);
    expect(show(spansFromKokoroTokens(tokens, x))).toEqual([
      ['_', 0, at(4)],
      ['a', at(4), at(8)],
      ['_', at(8), at(12)],
      ['b', at(12), (at(16) + at(18)) / 2],
      ['i', (at(16) + at(18)) / 2, at(22)],
      ['_', at(22), frames(24)],
    ]);
  });

  it('move pause boundaries onto the sound: a silent phone tail joins the pause, early sound joins the phone', () => {
    const spans = [
      { phone: '_', start: 0, end: 2400 },
      { phone: 'a', start: 2400, end: 12000 },
      { phone: '_', start: 12000, end: 16800 },
      { phone: 'b', start: 16800, end: 19200 },
      { phone: '_', start: 19200, end: 24000 },
    ];
    // "a" falls silent 200 ms before its frames end; "b" sounds 50 ms before its frames start
    const x = audio(24000, [
      [2400, 7200],
      [15600, 19200],
    ]);
    expect(show(snapPauses(spans, x, 0.01))).toEqual([
      ['_', 0, 2400],
      ['a', 2400, 7200],
      ['_', 7200, 15600],
      ['b', 15600, 19200],
      ['_', 19200, 24000],
    ]);
    // bounded: a phone keeps 30 ms and moves at most 1 s, and a pause ends at most 100 ms early
    const long = [
      { phone: 'a', start: 0, end: 36000 },
      { phone: '_', start: 36000, end: 48000 },
      { phone: 'b', start: 48000, end: 60000 },
    ];
    const y = audio(60000, [
      [0, 720],
      [36000, 60000],
    ]);
    expect(show(snapPauses(long, y, 0.01))).toEqual([
      ['a', 0, 36000 - 24000],
      ['_', 36000 - 24000, 48000 - 2400],
      ['b', 48000 - 2400, 60000],
    ]);
    const short = [
      { phone: 'a', start: 0, end: 12000 },
      { phone: '_', start: 12000, end: 24000 },
    ];
    expect(show(snapPauses(short, audio(24000, [[0, 240]]), 0.01))).toEqual([
      ['a', 0, 720],
      ['_', 720, 24000],
    ]);
  });

  it("end a pause's phone where its sound ends, not at a blip of the decoder's noisy tail", () => {
    // "a" sounds 100–300 ms (0.3 amplitude), then a weak decay 300–340 ms (15 dB over silence, under
    // speech level), then a tail of noise bursts hovering just over silence: 5 ms at 0.013 every
    // 30 ms up to the frames' end at 500 ms. The phone ends with the decay.
    const x = audio(24000, [[2400, 7200]]);
    for (let i = 7200; i < 8160; i++) x[i] = 0.056 * Math.sin((2 * Math.PI * 200 * i) / KOKORO_RATE);
    for (let burst = 8400; burst + 120 <= 12000; burst += 720)
      for (let i = burst; i < burst + 120; i++) x[i] = i % 2 ? 0.0185 : -0.0185;
    const spans = [
      { phone: '_', start: 0, end: 2400 },
      { phone: 'a', start: 2400, end: 12000 },
      { phone: '_', start: 12000, end: 24000 },
    ];
    expect(show(snapPauses(spans, x, 0.01))).toEqual([
      ['_', 0, 2400],
      ['a', 2400, 8160],
      ['_', 8160, 24000],
    ]);
  });

  it('refuse timings that do not cover the audio', () => {
    expect(() =>
      spansFromKokoroTokens([{ symbol: 'a', frames: 3 }], new Float32Array(4 * KOKORO_FRAME)),
    ).toThrow(/samples of tokens/);
  });

  it("parse the helper's output, word-gap tokens included", () => {
    const jobs = [{ out: '/tmp/a.wav', voice: 'af_heart', speed: 1, symbols: 'a b' }];
    const got = parseKokoroOutput(
      'JOB /tmp/a.wav\nTOK 3 $\nTOK 2 a\nTOK 1  \nTOK 2 b\nTOK 4 $\nEND 7200\n',
      jobs,
    );
    expect(got).toEqual([
      {
        out: '/tmp/a.wav',
        totalSamples: 7200,
        tokens: [
          { symbol: '$', frames: 3 },
          { symbol: 'a', frames: 2 },
          { symbol: ' ', frames: 1 },
          { symbol: 'b', frames: 2 },
          { symbol: '$', frames: 4 },
        ],
      },
    ]);
    expect(() => parseKokoroOutput('JOB /tmp/a.wav\nTOK 3 $\n', jobs)).toThrow(/answered 0 of 1/);
  });
});

describe('neural voices in the plan', () => {
  it('are dev-only voices in the dev set, train voices in training, and leave the other utterances as they were', () => {
    expect(KOKORO_VOICES.dev.filter((v) => KOKORO_VOICES.train.includes(v))).toEqual([]);
    const base = planCorpus('dev', 60, 7);
    const withNeural = planCorpus('dev', 60, 7, { neural: 120 });
    expect(withNeural.slice(0, 60)).toEqual(base);
    const neural = withNeural.slice(60);
    expect(neural).toHaveLength(120);
    expect(neural[0]!.id).toBe('dev-00060');
    for (const p of neural) {
      expect(p.condition).toBe('neural');
      expect(p.synth.engine).toBe('kokoro');
      if (p.synth.engine === 'kokoro') expect(KOKORO_VOICES.dev).toContain(p.synth.voice);
      expect(p.augment).toMatchObject({ noise: null, reverb: null, telephone: null });
    }
    expect(new Set(neural.map((p) => p.augment.sampleRate)).size).toBe(7);
    expect(new Set(neural.map((p) => (p.synth.engine === 'kokoro' ? p.synth.voice : ''))).size).toBe(8);
    for (const p of planCorpus('train', 50, 1, { neural: 30 }).slice(50)) {
      expect(p.synth.engine === 'kokoro' && KOKORO_VOICES.train.includes(p.synth.voice)).toBe(true);
    }
    expect(planCorpus('train', 300, 1).some((p) => p.synth.engine === 'kokoro')).toBe(false);
  }, 60_000);

  it('say what to run when the model is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'engine-kokoro-missing-'));
    try {
      expect(kokoroMissing(empty)).toMatch(/kokoro-fetch\.sh/);
      expect(kokoroDir({ AVATAR_DRIVE_DATA: '/data/x' })).toBe('/data/x/kokoro');
      expect(kokoroDir({ AVATAR_DRIVE_KOKORO: '/models/k', AVATAR_DRIVE_DATA: '/data/x' })).toBe('/models/k');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

// The weights are not in git (kokoro-fetch.sh brings them); where they are installed this renders
// real utterances, elsewhere (CI) it is skipped.
const installed = kokoroMissing(kokoroDir()) === null;
describe.runIf(installed)('Kokoro synthesis with the fetched model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engine-kokoro-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes neural utterances whose labels cover the audio and sit on the speech', async () => {
    const plans = planCorpus('dev', 1, 7, { neural: 2 }).slice(1);
    const outDir = join(dir, 'dev');
    writeIndex(
      outDir,
      'dev',
      7,
      await generateEntries(plans, { outDir, tmpDir: join(dir, 'tmp'), split: 'dev', seed: 7 }),
    );
    for (const plan of plans) {
      const entry = JSON.parse(readFileSync(join(outDir, `${plan.id}.json`), 'utf8')) as CorpusEntry;
      const wav = readWav(join(outDir, `${plan.id}.wav`));
      expect(entry.voice).toMatch(/^kokoro:/);
      expect(entry.condition).toBe('neural');
      const phones = entry.phones;
      expect(phones[phones.length - 1]!.end).toBeCloseTo(wav.samples.length / wav.sampleRate, 9);
      const speech = phones.filter((p) => p.viseme !== 'sil');
      expect(speech.length).toBeGreaterThan(8);
      const rms = (a: number, b: number) => {
        let acc = 0;
        const from = Math.floor(a * wav.sampleRate);
        const to = Math.floor(b * wav.sampleRate);
        for (let i = from; i < to; i++) acc += wav.samples[i]! ** 2;
        return Math.sqrt(acc / Math.max(1, to - from));
      };
      // vowels are loud, the leading pause is near silence
      const vowels = speech.filter((p) => ['aa', 'E', 'I', 'O', 'U'].includes(p.viseme));
      const vowelRms = vowels.reduce((a, p) => a + rms(p.start, p.end), 0) / vowels.length;
      expect(vowelRms).toBeGreaterThan(10 * rms(0, phones[0]!.end));
    }
    expect(checkCorpus(outDir).problems).toEqual([]);
  }, 300_000);
});
