/**
 * Seeded pseudo-random numbers, so a corpus is a pure function of its seed.
 */
import { mulberry32 } from '@avatar-drive/core';

/** A deterministic random source. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Integer uniform in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One key, chosen with probability proportional to its weight. */
  weighted<K extends string | number>(weights: ReadonlyArray<readonly [K, number]>): K;
  /** A child generator whose stream depends only on this seed and `label`. */
  fork(label: string | number): Rng;
}

/** FNV-1a 32-bit hash of a string; used for seeds and for the train/dev split of texts. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Core's mulberry32 with the draws data generation needs. */
export function createRng(seed: number | string): Rng {
  const seed32 = typeof seed === 'string' ? hash32(seed) : seed >>> 0;
  let spare: number | undefined;
  const next = mulberry32(seed32);
  const rng: Rng = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    normal: () => {
      if (spare !== undefined) {
        const s = spare;
        spare = undefined;
        return s;
      }
      let u = next();
      while (u <= 1e-12) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: (weights) => {
      let total = 0;
      for (const [, w] of weights) total += w;
      let r = next() * total;
      for (const [k, w] of weights) {
        r -= w;
        if (r < 0) return k;
      }
      return weights[weights.length - 1]![0];
    },
    fork: (label) => createRng(hash32(`${seed32}:${label}`)),
  };
  return rng;
}
