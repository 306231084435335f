import { SUPPORTED_SAMPLE_RATES } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { FEATURE_DIM, FeatureExtractor, MEL_BANDS } from '../src/features.js';
import {
  analysisRateFor,
  createAnalysisFrontEnd,
  FEATURE_BAND_HZ,
  HALFBAND_PAIRS,
  halfbandGain,
  halfbandTaps,
} from '../src/front-end.js';
import { PitchTracker } from '../src/pitch.js';
import { noise, random } from './helpers.js';

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The front end's whole output for `pcm` fed in the given chunk sizes (copied: push reuses its array). */
function decimate(rate: number, pcm: Int16Array, chunk: () => number): Float32Array {
  const frontEnd = createAnalysisFrontEnd(rate);
  const parts: Float32Array[] = [];
  for (let i = 0; i < pcm.length; ) {
    const n = Math.min(pcm.length - i, chunk());
    parts.push(frontEnd.push(pcm.subarray(i, i + n)).slice());
    i += n;
  }
  parts.push(frontEnd.flush());
  return concat(parts);
}

/** Harmonics of 140 Hz up to 7 kHz with a falling spectrum, plus some noise: speech-like, below 8 kHz. */
function vowel(rate: number, seconds: number): Int16Array {
  const out = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (let h = 1; h * 140 < 7000; h++) v += Math.sin((2 * Math.PI * 140 * h * i) / rate + h) / h;
    out[i] = Math.round(3000 * v);
  }
  return out;
}

describe('analysis front end', () => {
  it('analyses up to 32 kHz as is and halves 44.1 and 48 kHz', () => {
    expect(SUPPORTED_SAMPLE_RATES.map(analysisRateFor)).toEqual([
      8000, 16000, 22050, 24000, 32000, 22050, 24000,
    ]);
  });

  it('keeps what aliases into the feature band ≥ 50 dB down, with a flat feature band', () => {
    const taps = halfbandTaps(HALFBAND_PAIRS);
    for (const rate of [44100, 48000]) {
      for (let hz = 0; hz <= FEATURE_BAND_HZ; hz += 50)
        expect(Math.abs(20 * Math.log10(halfbandGain(taps, hz, rate)))).toBeLessThan(0.1);
      for (let hz = rate / 2 - FEATURE_BAND_HZ; hz <= rate / 2; hz += 50)
        expect(20 * Math.log10(Math.abs(halfbandGain(taps, hz, rate)) + 1e-12)).toBeLessThan(-50);
    }
  });

  it('decimates identically whatever the chunking, ⌈n/2⌉ samples in all, DC at unity gain', () => {
    const pcm = noise(4801, 0.2, 3);
    pcm.fill(8192, 2000, 3000);
    const whole = decimate(48000, pcm, () => pcm.length);
    expect(whole.length).toBe(2401);
    const r = random(9);
    for (const chunk of [() => 1, () => 7, () => 1 + Math.floor(r() * 900)]) {
      expect(Array.from(decimate(48000, pcm, chunk))).toEqual(Array.from(whole));
    }
    // Output m is centred on input 2m: well inside the DC stretch it reads the DC level.
    expect(whole[1250]).toBeCloseTo(0.25, 6);
  });

  it('gives the same features at every analysis rate for the same sound', () => {
    // 24, 32 and 48 kHz share the 16 kHz bin grid (62.5 Hz) and match it to float noise; 22.05 and
    // 44.1 kHz read a 57.4 Hz grid.
    const collect = (rate: number) => {
      const hops: Float32Array[] = [];
      const extractor = new FeatureExtractor((f) => hops.push(f.slice()), undefined, analysisRateFor(rate));
      extractor.push(decimate(rate, vowel(rate, 0.5), () => rate / 50));
      return hops;
    };
    const reference = collect(16000);
    for (const rate of [22050, 24000, 32000, 44100, 48000]) {
      const hops = collect(rate);
      expect(hops.length).toBeGreaterThanOrEqual(reference.length - 1);
      for (let h = 5; h < reference.length - 1; h++) {
        for (let i = 0; i < FEATURE_DIM; i++) {
          // Mel shapes within 0.5 (ln units, ≈ 2 dB: a line spectrum on a different bin grid), level/SNR/ZCR closer still.
          const tolerance = i < MEL_BANDS ? 0.5 : 0.05;
          expect(Math.abs(hops[h]![i]! - reference[h]![i]!), `rate ${rate} hop ${h} value ${i}`).toBeLessThan(
            tolerance,
          );
        }
      }
    }
  });

  it('tracks the pitch at every analysis rate', () => {
    for (const rate of [8000, 16000, 22050, 24000, 32000]) {
      const pitch = new PitchTracker(rate);
      const pcm = vowel(rate, 0.2);
      pitch.push(Float32Array.from(pcm, (v) => v / 32768));
      expect(pitch.f0At(Math.round(rate * 0.2))).toBeCloseTo(140, -0.5);
    }
  });
});
