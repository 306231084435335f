import { mulberry32 } from '@avatar-drive/core';

/** A small seeded PRNG (core's mulberry32): deterministic motion for a given seed. */
export class Prng {
  readonly #uniform: () => number;

  constructor(seed: number) {
    this.#uniform = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.#uniform();
  }

  /** Standard normal (Box–Muller, one value per call). */
  gaussian(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
