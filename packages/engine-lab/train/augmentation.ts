/**
 * The augmentation recipe of training: leading silence (noise then present from sample 0), room
 * reverb, white/pink/babble noise or mains hum at 0–30 dB SNR, telephone band or another input
 * rate, speech level −40..−3 dBFS, built from the corpus tools' primitives
 * (corpus/augment.ts). Deterministic per (seed, key).
 */
import { SUPPORTED_SAMPLE_RATES } from '@avatar-drive/core';

export interface Augmenter {
  description: string;
  apply(
    samples: Float32Array,
    sampleRate: number,
    key: string,
  ): { samples: Float32Array; sampleRate: number; leadSeconds: number };
  /**
   * A speech-free clip of steady background (white or pink noise, or mains hum) at −55..−20 dBFS,
   * 1–3 s, at `sampleRate`: present from sample 0, labelled silence throughout.
   */
  backgroundOnly(sampleRate: number, key: string): Float32Array;
}

// The corpus tools' own types, so the compiler checks that this recipe calls them as they are
// (type-only: the modules themselves are loaded at run time, below, when they are installed).
type RngModule = typeof import('../corpus/rng.js');
type AugmentModule = typeof import('../corpus/augment.js');

// Resolved at run time: the corpus tools live next to this package's training scripts.
const AUGMENT_MODULE = '../corpus/augment.js';
const RNG_MODULE = '../corpus/rng.js';

/** Loads the corpus tools' augmentation primitives; null when they are not installed. */
export async function loadAugmenter(seed: number): Promise<Augmenter | null> {
  let aug: AugmentModule;
  let rngs: RngModule;
  try {
    aug = (await import(AUGMENT_MODULE)) as AugmentModule;
    rngs = (await import(RNG_MODULE)) as RngModule;
  } catch {
    return null;
  }
  // A small pool of recent utterances provides babble.
  const pool: Float32Array[] = [];
  const poolRates: number[] = [];
  const otherRates = SUPPORTED_SAMPLE_RATES.filter((r) => r !== 16000);
  return {
    description:
      'silence of 0-0.8 s before the speech (p 0.5; any noise then runs from sample 0); reverb RT60 0.15-0.8 s (p 0.4); white/pink/babble noise or mains hum at 0-30 dB SNR (p 0.7); telephone band + mu-law (p 0.15) or resampling to another supported rate (p 0.3); speech level -40..-3 dBFS',
    apply(samples, sampleRate, key) {
      const rng = rngs.createRng(`${seed}/${key}`);
      let x = samples;
      let rate = sampleRate;
      // Users' audio often starts before the speech, with its background already there.
      let lead = 0;
      if (rng.next() < 0.5) {
        lead = Math.round(rng.uniform(0, 0.8) * rate);
        const padded = new Float32Array(lead + x.length);
        padded.set(x, lead);
        x = padded;
      }
      if (rng.next() < 0.4) x = aug.reverb(x, rate, rng.uniform(0.15, 0.8), rng);
      if (rng.next() < 0.7) {
        const kind = rng.weighted([
          ['white', 1],
          ['pink', 2],
          ['babble', pool.length >= 3 ? 2 : 0],
          ['hum', 1],
        ] as const);
        let noise: Float32Array;
        if (kind === 'babble') {
          const sources = pool.filter((_, i) => poolRates[i] === rate);
          noise =
            sources.length > 0
              ? aug.babbleNoise(x.length, sources, rate, rng, rng.int(3, 6))
              : aug.pinkNoise(x.length, rng);
        } else if (kind === 'hum') {
          noise = mainsHum(x.length, rate, rng);
        } else {
          noise = kind === 'white' ? aug.whiteNoise(x.length, rng) : aug.pinkNoise(x.length, rng);
        }
        x = aug.addNoise(x, noise, rng.uniform(0, 30), rate);
      }
      const channel = rng.next();
      if (channel < 0.15) {
        const t = aug.telephone(x, rate);
        x = t.samples;
        rate = t.sampleRate;
      } else if (channel < 0.45) {
        const to = rng.pick(otherRates);
        if (to !== rate) {
          x = aug.resample(x, rate, to);
          rate = to;
        }
      }
      // Speech level: −40..−3 dBFS active power (what users send), then no clipping.
      const active = aug.activePower(x, rate);
      const levelDb = rng.uniform(-40, -3);
      const gainDb = active > 0 ? levelDb - 10 * Math.log10(active) : 0;
      x = aug.limitPeak(aug.applyGain(x, gainDb));
      if (pool.length < 12) {
        pool.push(samples);
        poolRates.push(sampleRate);
      } else if (rng.next() < 0.1) {
        const i = rng.int(0, pool.length - 1);
        pool[i] = samples;
        poolRates[i] = sampleRate;
      }
      return { samples: x, sampleRate: rate, leadSeconds: lead / sampleRate };
    },
    backgroundOnly(sampleRate, key) {
      const rng = rngs.createRng(`${seed}/${key}`);
      const length = Math.round(rng.uniform(1, 3) * sampleRate);
      const kind = rng.weighted([
        ['white', 1],
        ['pink', 2],
        ['hum', 2],
      ] as const);
      const noise =
        kind === 'hum'
          ? mainsHum(length, sampleRate, rng)
          : kind === 'white'
            ? aug.whiteNoise(length, rng)
            : aug.pinkNoise(length, rng);
      const p = aug.power(noise);
      const gainDb = p > 0 ? rng.uniform(-55, -20) - 10 * Math.log10(p) : 0;
      return aug.limitPeak(aug.applyGain(noise, gainDb));
    },
  };
}

/**
 * Mains hum: 50 or 60 Hz with a few decaying harmonics (random phases) over a little pink-ish
 * hiss, unit power. A steady background the model must read as silence.
 */
export function mainsHum(
  length: number,
  rate: number,
  rng: { next(): number; uniform(lo: number, hi: number): number },
): Float32Array {
  const f0 = rng.next() < 0.5 ? 50 : 60;
  const harmonics = 1 + Math.floor(rng.uniform(1, 8));
  const phases = Array.from({ length: harmonics }, () => rng.uniform(0, 2 * Math.PI));
  const amps = Array.from({ length: harmonics }, (_, k) => rng.uniform(0.2, 1) / (k + 1));
  const out = new Float32Array(length);
  let acc = 0;
  for (let i = 0; i < length; i++) {
    let v = 0;
    for (let k = 0; k < harmonics; k++) {
      const f = f0 * (k + 1);
      if (f < rate / 2) v += amps[k]! * Math.sin((2 * Math.PI * f * i) / rate + phases[k]!);
    }
    v += 0.02 * (rng.next() - 0.5);
    out[i] = v;
    acc += v * v;
  }
  const g = acc > 0 ? 1 / Math.sqrt(acc / length) : 0;
  for (let i = 0; i < length; i++) out[i] = out[i]! * g;
  return out;
}
