import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AvatarError, Resampler, resample, SUPPORTED_SAMPLE_RATES } from '../src/index.js';

const AMPLITUDE = 0.5;

function tone(freq: number, rate: number, seconds: number, phase = 0): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = AMPLITUDE * Math.sin((2 * Math.PI * freq * i) / rate + phase);
  return out;
}

/** Middle 60% of a signal, away from the edges where the kernel meets the implicit silence. */
function middle(x: Float32Array): Float32Array {
  return x.subarray(Math.floor(x.length * 0.2), Math.floor(x.length * 0.8));
}

/**
 * Amplitude of the `freq` component: quadrature correlation over the middle part, Hann-windowed
 * so that a strong tone elsewhere does not leak into the measurement.
 */
function amplitudeAt(x: Float32Array, freq: number, rate: number): number {
  const start = Math.floor(x.length * 0.2);
  const mid = middle(x);
  let s = 0;
  let c = 0;
  let weight = 0;
  for (let i = 0; i < mid.length; i++) {
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (mid.length - 1));
    const w = (2 * Math.PI * freq * (start + i)) / rate;
    s += hann * mid[i]! * Math.sin(w);
    c += hann * mid[i]! * Math.cos(w);
    weight += hann;
  }
  return (2 * Math.hypot(s, c)) / weight;
}

function rms(x: Float32Array): number {
  let sum = 0;
  for (const v of x) sum += v * v;
  return Math.sqrt(sum / x.length);
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('resample: frequency response', () => {
  const pairs: [number, number][] = [
    [48000, 16000],
    [44100, 16000],
    [44100, 22050],
    [96000, 24000],
    [16000, 48000],
    [8000, 44100],
    [11025, 16000],
    [44099, 48000],
  ];

  it.each(pairs)('%i → %i: passband ripple ≤ 0.5 dB up to 0.9·Nyquist of the lower rate', (from, to) => {
    const nyquist = Math.min(from, to) / 2;
    const gains = [0.02, 0.25, 0.5, 0.75, 0.85, 0.9].map((f) => {
      const freq = f * nyquist;
      return db(amplitudeAt(resample(tone(freq, from, 0.2), from, to), freq, to) / AMPLITUDE);
    });
    for (const gain of gains) expect(Math.abs(gain)).toBeLessThanOrEqual(0.5);
  });

  it.each(pairs.filter(([from, to]) => to < from))(
    '%i → %i: tones above the new Nyquist are rejected by ≥ 50 dB',
    (from, to) => {
      const nyquist = to / 2;
      for (const f of [1.02, 1.1, 1.5, 1.9]) {
        const freq = f * nyquist;
        if (freq >= from / 2) continue;
        const out = middle(resample(tone(freq, from, 0.2), from, to));
        expect(db(rms(out) / (AMPLITUDE / Math.SQRT2))).toBeLessThanOrEqual(-50);
      }
    },
  );

  it.each(pairs.filter(([from, to]) => to > from))(
    '%i → %i: spectral images are rejected by ≥ 50 dB',
    (from, to) => {
      for (const f of [0.3, 0.7, 0.9]) {
        const freq = (f * from) / 2;
        const out = resample(tone(freq, from, 0.2), from, to);
        const image = from - freq; // first image of the tone, above the old Nyquist
        expect(db(amplitudeAt(out, image, to) / AMPLITUDE)).toBeLessThanOrEqual(-60);
      }
    },
  );

  it('measures what it claims: a weak filter fails the aliasing bound', () => {
    const freq = 1.01 * 8000;
    const out = middle(resample(tone(freq, 48000, 0.2), 48000, 16000, { attenuationDb: 20, passband: 0.99 }));
    expect(db(rms(out) / (AMPLITUDE / Math.SQRT2))).toBeGreaterThan(-50);
  });

  it('keeps time alignment: a resampled tone matches the tone sampled at the new rate', () => {
    const from = 44100;
    const to = 16000;
    const out = resample(tone(1000, from, 0.1, 0.3), from, to);
    const ideal = tone(1000, to, 0.1, 0.3);
    const a = middle(out);
    const b = middle(ideal.subarray(0, out.length));
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('passes DC with unity gain', () => {
    const out = middle(resample(new Float32Array(4410).fill(0.25), 44100, 16000));
    for (const v of out) expect(v).toBeCloseTo(0.25, 5);
  });
});

describe('resample: contract', () => {
  it('returns ⌈n·to/from⌉ samples of the input type', () => {
    for (const to of SUPPORTED_SAMPLE_RATES) {
      const out = resample(new Int16Array(1001), 44100, to);
      expect(out).toBeInstanceOf(Int16Array);
      expect(out.length).toBe(Math.ceil((1001 * to) / 44100));
    }
    expect(resample(new Float32Array(0), 48000, 16000).length).toBe(0);
  });

  it('converts s16 in to s16 out with rounding and clipping', () => {
    const loud = new Int16Array(2000);
    for (let i = 0; i < loud.length; i++) loud[i] = i % 2 ? 32767 : -32768; // full-scale Nyquist square
    const out = resample(loud, 48000, 44100);
    expect(out.every((v) => v >= -32768 && v <= 32767)).toBe(true);
    const dc = resample(new Int16Array(800).fill(1000), 16000, 24000);
    expect(Array.from(middle(Float32Array.from(dc)))).toEqual(
      new Array(middle(new Float32Array(dc.length)).length).fill(1000),
    );
  });

  it('copies when the rates are equal', () => {
    const input = Int16Array.from([1, 2, 3]);
    const out = resample(input, 16000, 16000);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    expect(out).not.toBe(input);
  });

  it('rejects bad rates and inputs with typed errors', () => {
    for (const rate of [0, -8000, 16000.5, Number.NaN, 1e9]) {
      expect(() => resample(new Float32Array(4), rate, 16000)).toThrow(AvatarError);
      expect(() => new Resampler(16000, rate)).toThrow(/whole number of Hz/);
    }
    expect(() => resample([1, 2] as unknown as Float32Array, 8000, 16000)).toThrow(AvatarError);
    expect(() => new Resampler(8000, 16000, { attenuationDb: 5 })).toThrow(AvatarError);
    const rs = new Resampler(8000, 16000);
    rs.flush();
    expect(() => rs.push(new Float32Array(1))).toThrow(/flushed/);
    expect(rs.flush().length).toBe(0);
  });
});

describe('Resampler: streaming equals one-shot', () => {
  const concat = (parts: Float32Array[]) => {
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  it('for any chunking and rate pair', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[number, number]>(
          [44100, 16000],
          [48000, 8000],
          [16000, 48000],
          [22050, 24000],
          [44099, 32000],
        ),
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 1500 }),
        fc.array(fc.nat(400), { maxLength: 12 }),
        ([from, to], values, cuts) => {
          const input = Float32Array.from(values);
          const oneShot = resample(input, from, to);
          const rs = new Resampler(from, to);
          const parts: Float32Array[] = [];
          let at = 0;
          for (const cut of cuts) {
            const end = Math.min(input.length, at + cut);
            parts.push(rs.push(input.subarray(at, end)));
            at = end;
          }
          parts.push(rs.push(input.subarray(at)), rs.flush());
          expect(concat(parts)).toEqual(oneShot);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('sample-by-sample pushes equal one-shot, also when phases are quantised (large L)', () => {
    const input = new Float32Array(30000);
    for (let i = 0; i < input.length; i++) input[i] = Math.sin(i * 0.37) * 0.8;
    for (const [from, to] of [
      [44099, 48000],
      [8000, 44100],
    ] as const) {
      const rs = new Resampler(from, to);
      const parts: Float32Array[] = [];
      for (let i = 0; i < input.length; i++) parts.push(rs.push(input.subarray(i, i + 1)));
      parts.push(rs.flush());
      const streamed = concat(parts);
      const oneShot = resample(input, from, to);
      expect(streamed.length).toBe(oneShot.length);
      const mismatches = streamed.filter((v, i) => !Object.is(v, oneShot[i])).length;
      expect(mismatches).toBe(0);
    }
  });

  it('emits output while input arrives, holding back only the kernel half-width', () => {
    const rs = new Resampler(48000, 16000);
    const first = rs.push(new Float32Array(4800)); // 100 ms
    const expected = 1600;
    const heldBack = expected - first.length;
    expect(heldBack).toBeGreaterThan(0);
    expect(heldBack).toBeLessThanOrEqual(Math.ceil((rs.latencySamples * 16000) / 48000) + 1);
    expect(first.length + rs.flush().length).toBe(expected);
  });
});

describe('Resampler: s16 streaming', () => {
  it('pushInt16/flushInt16 equal resample() on Int16Array', () => {
    const input = new Int16Array(3000);
    for (let i = 0; i < input.length; i++)
      input[i] = Math.round(20000 * Math.sin(i / 7) + 9000 * Math.sin(i / 2.1));
    const rs = new Resampler(44100, 16000);
    const parts = [
      rs.pushInt16(input.subarray(0, 1234)),
      rs.pushInt16(input.subarray(1234)),
      rs.flushInt16(),
    ];
    const streamed = Int16Array.from(parts.flatMap((p) => Array.from(p)));
    expect(streamed).toEqual(resample(input, 44100, 16000));
  });
});
