/**
 * The augmentation recipe of training: random gain, room reverb, white/pink/babble noise at 0–30 dB
 * SNR, telephone band or another input rate, built from the corpus tools' primitives
 * (corpus/augment.ts). Deterministic per (seed, key).
 */
import { SUPPORTED_SAMPLE_RATES } from '@avatar-drive/core';

export interface Augmenter {
  description: string;
  apply(
    samples: Float32Array,
    sampleRate: number,
    key: string,
  ): { samples: Float32Array; sampleRate: number };
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
      'gain -24..+6 dB; reverb RT60 0.15-0.8 s (p 0.4); white/pink/babble noise at 0-30 dB SNR (p 0.7); telephone band + mu-law (p 0.15) or resampling to another supported rate (p 0.3)',
    apply(samples, sampleRate, key) {
      const rng = rngs.createRng(`${seed}/${key}`);
      let x = samples;
      let rate = sampleRate;
      if (rng.next() < 0.4) x = aug.reverb(x, rate, rng.uniform(0.15, 0.8), rng);
      if (rng.next() < 0.7) {
        const kind = rng.weighted([
          ['white', 1],
          ['pink', 2],
          ['babble', pool.length >= 3 ? 2 : 0],
        ] as const);
        let noise: Float32Array;
        if (kind === 'babble') {
          const sources = pool.filter((_, i) => poolRates[i] === rate);
          noise =
            sources.length > 0
              ? aug.babbleNoise(x.length, sources, rate, rng, rng.int(3, 6))
              : aug.pinkNoise(x.length, rng);
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
      x = aug.limitPeak(aug.applyGain(x, rng.uniform(-24, 6)));
      if (pool.length < 12) {
        pool.push(samples);
        poolRates.push(sampleRate);
      } else if (rng.next() < 0.1) {
        const i = rng.int(0, pool.length - 1);
        pool[i] = samples;
        poolRates[i] = sampleRate;
      }
      return { samples: x, sampleRate: rate };
    },
  };
}
