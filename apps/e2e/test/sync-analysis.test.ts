// The measuring tools of the e2e tests must find a known lag, or the e2e figures mean nothing.
import { describe, expect, it } from 'vitest';
import { firstAbove, lagMs, lastAbove, onGrid, type Series } from './support/sync-analysis.js';

function envelope(shiftMs: number, stepMs: number): Series {
  const out: Series = [];
  for (let t = 0; t < 3000; t += stepMs) {
    const u = t - shiftMs;
    out.push([t, u > 200 && u < 2600 ? Math.abs(Math.sin(u / 90)) * (1 + Math.sin(u / 370)) : 0]);
  }
  return out;
}

describe('sync analysis', () => {
  it('finds the lag between two sampled envelopes, with its sign', () => {
    const audio = onGrid(envelope(0, 4), 0, 3000);
    for (const shift of [-60, 0, 30, 80]) {
      const jaw = onGrid(envelope(shift, 16), 0, 3000);
      const result = lagMs(audio, jaw);
      expect(Math.abs(result.lagMs - shift)).toBeLessThanOrEqual(10);
      expect(result.correlation).toBeGreaterThan(0.9);
    }
  });

  it('finds onsets and ends', () => {
    const s = envelope(100, 10);
    expect(firstAbove(s, 0.05)).toBeGreaterThan(300);
    expect(lastAbove(s, 0.05)).toBeLessThan(2710);
  });
});
