// The measuring tools of the e2e tests must find a known lag, or the e2e figures mean nothing.
import { describe, expect, it } from 'vitest';
import { firstAbove, frameLag, lastAbove, type Series } from './support/sync-analysis.js';
import { shownAt } from './support/utterance-sync.js';

function envelope(shiftMs: number, stepMs: number): Series {
  const out: Series = [];
  for (let t = 0; t < 3000; t += stepMs) {
    const u = t - shiftMs;
    out.push([t, u > 200 && u < 2600 ? Math.abs(Math.sin(u / 90)) * (1 + Math.sin(u / 370)) : 0]);
  }
  return out;
}

describe('sync analysis', () => {
  it('finds onsets and ends', () => {
    const s = envelope(100, 10);
    expect(firstAbove(s, 0.05)).toBeGreaterThan(300);
    expect(lastAbove(s, 0.05)).toBeLessThan(2710);
  });

  it('finds a known lag per frame over voiced frames, in 5 ms steps, with its sign', () => {
    // A syllable-like loudness per 40 ms frame; the audio blocks (5 ms) carry it `delay` ms late.
    const level = (k: number) => (k % 9 < 2 ? 0 : 0.2 + 0.15 * Math.sin(k * 1.7) + 0.1 * Math.sin(k * 0.45));
    const starts = Array.from({ length: 120 }, (_, k) => 1000 + k * 40);
    const voiced = starts.map((_, k) => level(k) > 0);
    const jaw = starts.map((_, k) => level(k) * 2);
    for (const delay of [-60, -25, 0, 35, 80]) {
      const blocks: Series = [];
      for (let t = 900; t < 6000; t += 5) blocks.push([t, level(Math.floor((t - delay - 1000) / 40))]);
      const found = frameLag(blocks, starts, jaw, voiced);
      // Sound `delay` ms after its frame = the mouth `delay` ms ahead: lag −delay.
      expect(Math.abs(found.lagMs + delay)).toBeLessThanOrEqual(5);
      expect(found.correlation).toBeGreaterThan(0.95);
    }
    // Beyond the ±3-frame search the best found is poor.
    const far: Series = [];
    for (let t = 900; t < 6000; t += 5) far.push([t, level(Math.floor((t - 300 - 1000) / 40))]);
    expect(frameLag(far, starts, jaw, voiced).correlation).toBeLessThan(0.6);
  });

  it('places a service time on the page clock from the rendered service times', () => {
    const shown: Series = [
      [100, 10],
      [116, 26],
      [132, 20], // the delay estimate grew: service time stepped back
      [148, 36],
    ];
    expect(shownAt(shown, 18)).toBeCloseTo(108);
    expect(shownAt(shown, 26)).toBe(116);
    expect(shownAt(shown, 30)).toBeCloseTo(142); // first shown at or after it: between 132 (20) and 148 (36)
    expect(shownAt(shown, 40)).toBeNaN();
  });
});
