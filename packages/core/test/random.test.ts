import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/index.js';

describe('mulberry32', () => {
  it('gives the published mulberry32 sequence (seed 1), the one every package drew before sharing it', () => {
    const next = mulberry32(1);
    expect([next(), next(), next()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
  });

  it('is deterministic per seed, uniform in [0, 1), and takes the seed as uint32', () => {
    const a = mulberry32(42);
    const b = mulberry32(42 + 2 ** 32);
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const v = a();
      expect(b()).toBe(v);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
      sum += v;
    }
    expect(sum / 10_000).toBeCloseTo(0.5, 1);
  });
});
