/**
 * The one seeded pseudo-random generator of Avatar Drive (mulberry32): small, fast, the same
 * sequence on every JS engine for a seed. The engine's motion, client-web's idle motion, the
 * trainer's initialisation and the test and training data all draw from it.
 */

/**
 * A generator of uniform numbers in [0, 1) seeded with `seed` (taken as an unsigned 32-bit
 * integer).
 *
 * @example
 * ```ts
 * const next = mulberry32(7);
 * const jitter = next() - 0.5;
 * ```
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
