/**
 * Frame lateness, the overload guard's reading of what users feel: the fixed-bucket histogram's
 * percentiles, the meter's windows and totals, and the deadline the playback clock gives a
 * request's output (its own pace), with a controlled clock.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameLateness, LatenessHistogram } from '../src/frame-lateness.js';
import { PACE_GAP_MS, PlaybackClock } from '../src/ingress/output/playback-clock.js';

describe('LatenessHistogram', () => {
  it('answers percentiles at 1 ms resolution under 50 ms and coarser above', () => {
    const h = new LatenessHistogram();
    expect(h.percentile(99)).toBe(0);
    for (let i = 0; i < 98; i++) h.add(3.2);
    h.add(17.5);
    h.add(130, 1);
    expect(h.count).toBe(100);
    expect(h.percentile(50)).toBe(4);
    expect(h.percentile(99)).toBe(18);
    expect(h.percentile(100)).toBe(130);
    h.add(131, 100);
    expect(h.percentile(99)).toBe(135);
    h.add(-12, 1000); // early counts as on time
    expect(h.percentile(50)).toBe(1);
    h.add(9000, 10_000);
    expect(h.percentile(99)).toBeGreaterThan(5000);
    h.reset();
    expect(h.count).toBe(0);
    expect(h.percentile(99)).toBe(0);
  });

  it('puts every value in a bucket whose upper edge is not below it', () => {
    for (const ms of [0.001, 1, 1.0001, 49.9, 50, 50.1, 199, 200, 201, 999, 1000, 1001, 4999, 5000]) {
      const h = new LatenessHistogram();
      h.add(ms);
      const edge = h.percentile(100);
      expect(edge).toBeGreaterThanOrEqual(ms);
      expect(edge - ms).toBeLessThan(ms <= 50 ? 1 : ms <= 200 ? 5 : ms <= 1000 ? 25 : 250);
    }
  });
});

describe('FrameLateness', () => {
  it('hands the guard one window at a time and keeps totals for /metrics', () => {
    const meter = new FrameLateness(40);
    meter.record(5, 200);
    meter.record(60, 3);
    expect(meter.takeWindow()).toEqual({ frames: 203, p99Ms: 60, p50Ms: 5 });
    expect(meter.takeWindow()).toEqual({ frames: 0, p99Ms: 0, p50Ms: 0 });
    meter.record(41, 1);
    expect(meter.frames).toBe(204);
    expect(meter.lateFrames).toBe(4);
  });
});

describe('PlaybackClock: when output is due', () => {
  let now = 1000;
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const at = (ms: number) => {
    now = ms;
  };

  it('follows the request’s best pace: a chunk read late is late by that much, a fast client is never late', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const clock = new PlaybackClock(() => undefined, 10_000);
    const entry = clock.add('r1');
    // Real time: 20 ms chunks, each read 20 ms after the one before.
    at(1000);
    expect(clock.received(entry, 20, false)).toBe(1000);
    at(1020);
    expect(clock.received(entry, 20, false)).toBe(1020);
    // Read 35 ms after it was due (the loop behind): due at 1040, so 35 ms late.
    at(1075);
    expect(clock.received(entry, 20, false)).toBe(1040);
    // Two chunks in one read (the client was on time, the service behind): the second's deadline is 1080.
    at(1085);
    clock.received(entry, 20, false);
    expect(clock.received(entry, 20, false)).toBe(1080);
    // A client sending faster than real time sets the pace earlier: nothing it sends is late.
    const fast = clock.add('r2');
    at(2000);
    expect(clock.received(fast, 20, false)).toBe(2000);
    at(2005);
    expect(clock.received(fast, 20, false)).toBe(2005);
    at(2010);
    expect(clock.received(fast, 20, false)).toBe(2010);
    clock.dispose();
  });

  it('starts the pace again after the client paused its input', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const clock = new PlaybackClock(() => undefined, 10_000);
    const entry = clock.add('r1');
    at(1000);
    clock.received(entry, 20, false);
    at(1020);
    clock.received(entry, 20, false);
    // Input pauses for longer than PACE_GAP_MS: the next chunk is on time by its own pace.
    at(1020 + PACE_GAP_MS + 1);
    expect(clock.received(entry, 20, false)).toBe(1020 + PACE_GAP_MS + 1);
    // A shorter pause counts as lateness.
    at(1020 + PACE_GAP_MS + 1 + 100);
    expect(clock.received(entry, 20, false)).toBe(1020 + PACE_GAP_MS + 1 + 20);
    clock.dispose();
  });
});
