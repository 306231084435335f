import { describe, expect, it } from 'vitest';
import {
  accuracy,
  bestLag,
  closureCounts,
  type FramePrediction,
  fineJawLag,
  firstWordLatency,
  frameCount,
  laggedPearson,
  macroF1,
  median,
  onsetLatencies,
  type Phone,
  pearson,
  referenceJaw,
  referenceVisemes,
  silenceActivity,
  speechOnsets,
  visemeGroup,
  visemeId,
  vowelShutCounts,
} from '../bench/metrics.js';
import { Scorer } from '../bench/score.js';

// 1.2 s utterance: 0.4 s silence, "pa" + "m" + "i", then silence.
const PHONES: Phone[] = [
  { start: 0, end: 0.4, phone: '_', viseme: 'sil' },
  { start: 0.4, end: 0.48, phone: 'p', viseme: 'PP' },
  { start: 0.48, end: 0.68, phone: 'A:', viseme: 'aa' },
  { start: 0.68, end: 0.76, phone: 'm', viseme: 'PP' },
  { start: 0.76, end: 0.96, phone: 'i:', viseme: 'I' },
  { start: 0.96, end: 1.2, phone: '_', viseme: 'sil' },
];
const FRAMES = frameCount(1.2);

/** A perfect engine: the reference class, the reference jaw, lips shut on PP. */
function perfect(phones: Phone[]): FramePrediction[] {
  const ref = referenceVisemes(phones, FRAMES);
  const jaw = referenceJaw(phones, FRAMES);
  return Array.from(ref, (v, k) => ({
    viseme: v,
    jawOpen: jaw[k]!,
    mouthClose: v === visemeId('PP') ? 1 : 0,
  }));
}

function shift(preds: FramePrediction[], frames: number): FramePrediction[] {
  const idle: FramePrediction = { viseme: 0, jawOpen: 0, mouthClose: 0 };
  return preds.map((_, k) => preds[k - frames] ?? idle);
}

describe('class metrics', () => {
  it('frame grid and reference labels follow the label at each frame centre', () => {
    expect(FRAMES).toBe(30);
    expect(frameCount(0.04)).toBe(1);
    expect(frameCount(0.041)).toBe(2);
    const ref = referenceVisemes(PHONES, FRAMES);
    expect(ref[9]).toBe(visemeId('sil')); // centre 0.38
    expect(ref[10]).toBe(visemeId('PP')); // centre 0.42
    expect(ref[12]).toBe(visemeId('aa')); // centre 0.50
    expect(ref[29]).toBe(visemeId('sil'));
  });

  it('perfect prediction scores 1.0 on accuracy and macro-F1; errors lower them', () => {
    const ref = Array.from(referenceVisemes(PHONES, FRAMES));
    expect(accuracy(ref, ref)).toBe(1);
    expect(macroF1(ref, ref, 15)).toBe(1);
    const allSil = ref.map(() => 0);
    expect(accuracy(ref, allSil)).toBeCloseTo(ref.filter((v) => v === 0).length / ref.length, 12);
    // sil F1 = 2·13/(13+30); the other three labelled classes score 0.
    const silFrames = ref.filter((v) => v === 0).length;
    expect(macroF1(ref, allSil, 15)).toBeCloseTo((2 * silFrames) / (silFrames + ref.length) / 4, 12);
  });

  it('macro-F1 averages per-class F1 over labelled classes', () => {
    // class 0: tp 1, fn 1, fp 0 → F1 2/3; class 1: tp 1, fp 1 → F1 2/3
    expect(macroF1([0, 0, 1], [0, 1, 1], 3)).toBeCloseTo(2 / 3, 12);
  });

  it('7 groups merge O and U and all non-labial consonants', () => {
    expect(visemeGroup(visemeId('O'))).toBe(visemeGroup(visemeId('U')));
    expect(visemeGroup(visemeId('DD'))).toBe(visemeGroup(visemeId('SS')));
    expect(visemeGroup(visemeId('PP'))).not.toBe(visemeGroup(visemeId('FF')));
    expect(new Set(Array.from({ length: 15 }, (_, i) => visemeGroup(i))).size).toBe(8);
    expect(() => visemeId('XX')).toThrow(RangeError);
  });
});

describe('jaw correlation', () => {
  it('reference jaw is closed in silence, open on aa, zero-phase smoothed', () => {
    const jaw = referenceJaw(PHONES, FRAMES);
    expect(jaw[2]).toBeCloseTo(0, 6);
    expect(jaw[14]).toBeGreaterThan(0.9); // middle of aa
    expect(jaw[14]!).toBeGreaterThan(jaw[22]!); // aa opens wider than i
    // smoothing is symmetric: ramp into aa starts before its label, not after
    expect(jaw[11]!).toBeGreaterThan(0);
    expect(jaw[11]!).toBeLessThan(jaw[14]!);
  });

  it('pearson is 1 for identical tracks, -1 for mirrored, NaN for constant', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it('finds the lag of a delayed prediction', () => {
    const ref = perfect(PHONES).map((p) => p.jawOpen);
    const late = shift(perfect(PHONES), 3).map((p) => p.jawOpen);
    const pairs = [{ ref, pred: late }];
    expect(laggedPearson(pairs, 0)).toBeLessThan(0.9);
    const best = bestLag(pairs, 10);
    expect(best.lag).toBe(3);
    expect(best.r).toBeCloseTo(1, 9);
    const early = shift(perfect(PHONES), -2).map((p) => p.jawOpen);
    expect(bestLag([{ ref, pred: early }], 10).lag).toBe(-2);
  });
});

describe('closure, onset and silence metrics', () => {
  it('closure recall counts PP segments ≥ 40 ms with a closed frame', () => {
    const preds = perfect(PHONES);
    expect(closureCounts(PHONES, preds)).toEqual({ segments: 2, closed: 2 });
    const open = preds.map((p) => ({ ...p, jawOpen: 0.5, mouthClose: 0 }));
    expect(closureCounts(PHONES, open)).toEqual({ segments: 2, closed: 0 });
    // jaw alone may close the lips when there is no mouthClose output
    const jawOnly = preds.map((p) => ({
      ...p,
      jawOpen: p.mouthClose === 1 ? 0.05 : 0.6,
      mouthClose: Number.NaN,
    }));
    expect(closureCounts(PHONES, jawOnly).closed).toBe(2);
    // the smoothed reference jaw alone does not reach 0.1 inside a short medial m
    const refJawOnly = preds.map((p) => ({ ...p, mouthClose: Number.NaN }));
    expect(closureCounts(PHONES, refJawOnly).closed).toBe(1);
    const short: Phone[] = [{ start: 0.1, end: 0.13, phone: 'b', viseme: 'PP' }];
    expect(closureCounts(short, preds).segments).toBe(0);
  });

  it('counts vowel frames with the mouth shut', () => {
    // 0.2 s of aa (frames 0–4), 0.08 s of m, 0.12 s of I (frames 7–9).
    const phones: Phone[] = [
      { start: 0, end: 0.2, phone: 'a', viseme: 'aa' },
      { start: 0.2, end: 0.28, phone: 'm', viseme: 'PP' },
      { start: 0.28, end: 0.4, phone: 'i', viseme: 'I' },
    ];
    const open = Array.from({ length: 10 }, () => ({ viseme: 10, jawOpen: 0.5, mouthClose: 0 }));
    expect(vowelShutCounts(phones, open)).toEqual({ frames: 8, shut: 0 });
    // Shut in frame 2 (inside aa) by the jaw, in frame 8 (inside I) by the lips, and in frame 5
    // (the m: not a vowel, not counted).
    const shut = open.map((p, k) =>
      k === 2
        ? { ...p, jawOpen: 0.05 }
        : k === 8
          ? { ...p, mouthClose: 0.9 }
          : k === 5
            ? { ...p, jawOpen: 0 }
            : p,
    );
    expect(vowelShutCounts(phones, shut)).toEqual({ frames: 8, shut: 2 });
  });

  it('onset latency is measured from speech after ≥ 300 ms silence', () => {
    expect(speechOnsets(PHONES)).toEqual([0.4]);
    const preds = perfect(PHONES);
    expect(onsetLatencies(PHONES, preds)).toEqual([0]); // frame 10 starts at 0.40 and is active
    const late = shift(preds, 2);
    expect(onsetLatencies(PHONES, late)[0]).toBeCloseTo(80, 6);
    const silent = preds.map(() => ({ viseme: 0, jawOpen: 0, mouthClose: 0 }));
    expect(onsetLatencies(PHONES, silent)).toEqual([500]);
    const twoBursts: Phone[] = [
      { start: 0.1, end: 0.3, phone: 'a', viseme: 'aa' },
      { start: 0.4, end: 0.5, phone: 'a', viseme: 'aa' }, // only 100 ms pause: not an onset
      { start: 0.9, end: 1.0, phone: 'a', viseme: 'aa' },
    ];
    expect(speechOnsets(twoBursts)).toEqual([0.9]);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it('fine jaw lag finds a prediction running 20 ms late, finer than a frame', () => {
    const phones: Phone[] = [];
    for (let i = 0; i < 12; i++) {
      phones.push({ start: i * 0.25, end: i * 0.25 + 0.13, phone: 'a', viseme: 'aa' });
      phones.push({ start: i * 0.25 + 0.13, end: (i + 1) * 0.25, phone: 'p', viseme: 'PP' });
    }
    const frames = frameCount(3);
    const late = phones.map((p) => ({ ...p, start: p.start + 0.02, end: p.end + 0.02 }));
    const onTime = fineJawLag([{ phones, pred: referenceJaw(phones, frames) }]);
    expect(onTime.lagMs).toBe(0);
    expect(onTime.r).toBeCloseTo(1, 6);
    expect(fineJawLag([{ phones, pred: referenceJaw(late, frames) }]).lagMs).toBe(20);
    const early = phones.map((p) => ({ ...p, start: p.start - 0.03, end: p.end - 0.03 }));
    expect(fineJawLag([{ phones, pred: referenceJaw(early, frames) }]).lagMs).toBe(-30);
  });

  it('first-word latency counts the first onset whatever precedes it, speech at sample 0 too', () => {
    const preds = perfect(PHONES);
    expect(firstWordLatency(PHONES, preds)).toBe(0);
    expect(firstWordLatency(PHONES, shift(preds, 3))).toBeCloseTo(120, 6);
    const fromZero: Phone[] = [
      { start: 0, end: 0.3, phone: 'a', viseme: 'aa' },
      { start: 0.3, end: 0.6, phone: '_', viseme: 'sil' },
    ];
    expect(speechOnsets(fromZero)).toEqual([]); // not an onset after silence…
    const shut = Array.from({ length: 15 }, () => ({ viseme: 0, jawOpen: 0, mouthClose: 1 }));
    const opensAtFrame = (k: number) => shut.map((p, i) => (i === k ? { ...p, jawOpen: 0.5 } : p));
    expect(firstWordLatency(fromZero, opensAtFrame(0))).toBe(0); // …but it is a first word
    expect(firstWordLatency(fromZero, opensAtFrame(6))).toBeCloseTo(240, 6);
    expect(firstWordLatency(fromZero, shut)).toBe(500);
    expect(firstWordLatency([{ start: 0, end: 1, phone: '_', viseme: 'sil' }], shut)).toBeUndefined();
  });

  it('false activity counts active silence frames away from speech', () => {
    const preds = perfect(PHONES);
    const clean = silenceActivity(PHONES, preds);
    expect(clean.active).toBe(0);
    // guard of 100 ms: frames centred in [0, 0.3] and [1.06, 1.2] are scored
    expect(clean.frames).toBe(8 + 4);
    const chatter = preds.map((p) => ({ ...p, jawOpen: 0.3 }));
    expect(silenceActivity(PHONES, chatter).active).toBe(clean.frames);
  });
});

describe('Scorer', () => {
  it('summarises a perfect engine with perfect figures', () => {
    const s = new Scorer();
    s.add(PHONES, perfect(PHONES));
    s.audioSeconds = 1.2;
    s.cpuSeconds = 0.01;
    const sum = s.summary();
    expect(sum.acc15).toBe(1);
    expect(sum.acc7).toBe(1);
    expect(sum.macroF1).toBe(1);
    expect(sum.jawR0).toBeCloseTo(1, 9);
    expect(sum.jawBestLagMs).toBe(0);
    expect(sum.closureRecall).toBe(1);
    expect(sum.onsetMedianMs).toBe(0);
    expect(sum.falseActivity).toBe(0);
    expect(sum.xRealTime).toBeCloseTo(120, 9);
  });

  it('reports the lag of a late engine in ms', () => {
    const s = new Scorer();
    s.add(PHONES, shift(perfect(PHONES), 2));
    expect(s.summary().jawBestLagMs).toBe(80);
    expect(s.summary().acc15).toBeLessThan(1);
  });
});
