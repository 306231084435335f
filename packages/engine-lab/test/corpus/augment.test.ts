import { resample as coreResample } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import {
  activePower,
  addNoise,
  applyGain,
  babbleNoise,
  limitPeak,
  pinkNoise,
  power,
  resample,
  reverb,
  telephone,
  whiteNoise,
} from '../../corpus/augment.js';
import { createRng } from '../../corpus/rng.js';

function sine(freq: number, rate: number, seconds: number, amp = 0.5): Float32Array {
  const x = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < x.length; i++) x[i] = amp * Math.sin((2 * Math.PI * freq * i) / rate);
  return x;
}

/** RMS over the middle of a signal, away from filter start-up and edges. */
function midRms(x: Float32Array): number {
  const a = Math.floor(x.length * 0.2);
  return Math.sqrt(power(x.subarray(a, x.length - a)));
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('addNoise', () => {
  for (const kind of ['white', 'pink'] as const) {
    for (const snr of [20, 10, 0]) {
      it(`hits ${snr} dB SNR with ${kind} noise`, () => {
        const rate = 16000;
        const clean = sine(440, rate, 1);
        const rng = createRng(`${kind}${snr}`);
        const noise = kind === 'white' ? whiteNoise(rate, rng) : pinkNoise(rate, rng);
        const noisy = addNoise(clean, noise, snr, rate);
        const residual = noisy.map((v, i) => v - clean[i]!);
        const measured = 10 * Math.log10(power(clean) / power(residual));
        expect(measured).toBeCloseTo(snr, 1);
      });
    }
  }

  it('refers the SNR to active speech, not to padding silence', () => {
    const rate = 16000;
    const clean = new Float32Array(rate * 2);
    clean.set(sine(300, rate, 1), rate / 2); // 0.5 s silence, 1 s tone, 0.5 s silence
    const noisy = addNoise(clean, whiteNoise(clean.length, createRng(3)), 10, rate);
    const residual = noisy.map((v, i) => v - clean[i]!);
    const speechPower = power(clean.subarray(rate / 2, rate / 2 + rate));
    expect(10 * Math.log10(speechPower / power(residual))).toBeCloseTo(10, 1);
    expect(activePower(clean, rate)).toBeCloseTo(speechPower, 3);
  });

  it('makes babble from other utterances and is deterministic for a seed', () => {
    const rate = 8000;
    const sources = [sine(200, rate, 0.7), sine(330, rate, 1.1), sine(510, rate, 0.4)];
    const a = babbleNoise(rate, sources, rate, createRng(9), 4);
    const b = babbleNoise(rate, sources, rate, createRng(9), 4);
    const c = babbleNoise(rate, sources, rate, createRng(10), 4);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(power(a)).toBeGreaterThan(0);
  });
});

describe('telephone band', () => {
  const rate = 16000;
  const level = (freq: number) => midRms(telephone(sine(freq, rate, 1), rate, { muLaw: false }).samples);

  it('outputs 8 kHz and passes 1 kHz', () => {
    const out = telephone(sine(1000, rate, 1), rate);
    expect(out.sampleRate).toBe(8000);
    expect(out.samples.length).toBe(8000);
    expect(db(level(1000) / (0.5 / Math.SQRT2))).toBeGreaterThan(-1);
  });

  it('attenuates 100 Hz and 5 kHz by more than 20 dB', () => {
    const ref = level(1000);
    expect(db(level(100) / ref)).toBeLessThan(-20);
    expect(db(level(5000) / ref)).toBeLessThan(-20);
  });
});

describe('resample', () => {
  it('keeps a 1 kHz tone at every supported rate', () => {
    for (const [from, to] of [
      [22050, 48000],
      [16000, 44100],
      [22050, 8000],
      [16000, 24000],
      [22050, 32000],
    ] as const) {
      const out = resample(sine(1000, from, 0.5), from, to);
      expect(out.length).toBe(Math.round((0.5 * from * to) / from));
      const ref = sine(1000, to, 0.5);
      // same tone, same phase: the residual is tiny in the middle
      const residual = out.map((v, i) => v - ref[i]!);
      expect(db(midRms(residual) / midRms(ref))).toBeLessThan(-50);
    }
  });

  it("matches @avatar-drive/core's resampler in the passband (same design, 3× faster for bulk data)", () => {
    // tones below 0.8 × the lowest Nyquist: the two filters differ only in their transition bands
    const x = sine(210, 16000, 1, 0.2);
    const y = sine(1130, 16000, 1, 0.2);
    const z = sine(2950, 16000, 1, 0.2);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + y[i]! + z[i]!;
    for (const [from, to] of [
      [16000, 48000],
      [16000, 8000],
      [16000, 22050],
    ] as const) {
      const ours = resample(x, from, to);
      const theirs = coreResample(x, from, to);
      expect(ours.length).toBe(theirs.length);
      let maxDiff = 0;
      // away from the abrupt start and end, where the two kernels' lengths differ
      for (let i = Math.floor(ours.length * 0.1); i < ours.length * 0.9; i++) {
        maxDiff = Math.max(maxDiff, Math.abs(ours[i]! - theirs[i]!));
      }
      expect(maxDiff).toBeLessThan(2e-3);
    }
  });

  it('removes content above the new Nyquist instead of aliasing it', () => {
    const out = resample(sine(5000, 48000, 0.5), 48000, 8000);
    expect(db(midRms(out) / (0.5 / Math.SQRT2))).toBeLessThan(-60);
  });
});

describe('reverb, gain, peak limit', () => {
  it('reverb keeps length and active level, and depends on the seed only', () => {
    const rate = 16000;
    const x = sine(250, rate, 0.5);
    const a = reverb(x, rate, 0.4, createRng(1));
    expect(a.length).toBe(x.length);
    expect(10 * Math.log10(activePower(a, rate) / activePower(x, rate))).toBeCloseTo(0, 1);
    expect(reverb(x, rate, 0.4, createRng(1))).toEqual(a);
    expect(a).not.toEqual(x);
  });

  it('gain scales by dB and the limiter only scales down', () => {
    const x = sine(100, 8000, 0.1, 0.5);
    expect(db(Math.sqrt(power(applyGain(x, -6)) / power(x)))).toBeCloseTo(-6, 5);
    const loud = applyGain(x, 12);
    const limited = limitPeak(loud, 0.9);
    expect(Math.max(...limited.map(Math.abs))).toBeCloseTo(0.9, 5);
    expect(limitPeak(x, 0.9)).toEqual(x);
  });
});
