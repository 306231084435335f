/**
 * Unit tests of the playout scheduler: a fake sink and a fake clock (the real-server behaviour is
 * in egress-livekit.test.ts; the packet codec's tests are in @avatar-drive/core).
 */

import {
  ARKIT_INDEX,
  type ControlMessage,
  createDriveFrame,
  type DriveFrame,
  decodeControlMessage,
  decodeFramePacket,
  encodeControlMessage,
  encodeFramePacket,
  type FramePacket,
} from '@avatar-drive/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlayoutScheduler, type PlayoutSink } from '../src/egress/playout.js';

const RATE = 16000;
const JAW = ARKIT_INDEX.jawOpen;

class FakeSink implements PlayoutSink {
  readonly captured: Array<{ atMs: number; pcm: Int16Array }> = [];
  readonly clears: number[] = [];
  readonly frames: FramePacket[] = [];
  readonly control: ControlMessage[] = [];

  capture(pcm: Int16Array): Promise<void> {
    this.captured.push({ atMs: Date.now(), pcm });
    return Promise.resolve();
  }
  clear(): void {
    this.clears.push(Date.now());
  }
  sendFrames(packet: FramePacket): void {
    // Through the codec, as a receiver would see it.
    this.frames.push(decodeFramePacket(encodeFramePacket(packet)));
  }
  sendControl(message: ControlMessage): void {
    this.control.push(decodeControlMessage(encodeControlMessage(message)));
  }

  /** All captured samples, in order. */
  samples(): number[] {
    return this.captured.flatMap((c) => Array.from(c.pcm));
  }

  /** The last copy of each frame index of `reqId` → its play time. */
  frameTimes(reqId: string): Map<number, number> {
    const times = new Map<number, number>();
    for (const p of this.frames.filter((f) => f.animation.reqId === reqId)) {
      for (const [j, t] of p.playAtMs.entries()) times.set(p.firstFrameIndex + j, t);
    }
    return times;
  }
}

/** Sample i holds (i % 30000) + 1: positions stay identifiable and never silent. */
function ramp(samples: number, from = 0): Int16Array {
  return Int16Array.from({ length: samples }, (_, i) => ((from + i) % 30000) + 1);
}

function frames(first: number, count: number): DriveFrame[] {
  return Array.from({ length: count }, (_, j) => {
    const f = createDriveFrame(first + j);
    f.expression[JAW] = (first + j) / 100;
    return f;
  });
}

function setUp(options: { idleTimeoutMs?: number; frameHoldMs?: number } = {}) {
  const sink = new FakeSink();
  const events = {
    playing: [] as string[],
    ended: [] as Array<[string, number]>,
    interrupted: [] as Array<[string, number]>,
    idle: [] as number[],
    errors: [] as unknown[],
  };
  const scheduler = new PlayoutScheduler(
    sink,
    {
      onPlaying: (r) => events.playing.push(r),
      onEnded: (r, ms) => events.ended.push([r, ms]),
      onInterrupted: (r, ms) => events.interrupted.push([r, ms]),
      onIdle: (ms) => events.idle.push(ms),
      onError: (e) => events.errors.push(e),
    },
    {
      trackRate: RATE,
      connectionId: 'conn',
      avatarId: 'av',
      idleTimeoutMs: options.idleTimeoutMs ?? 0,
      frameHoldMs: options.frameHoldMs ?? 300,
      maxLeadMs: 100,
      now: () => Date.now(),
    },
  );
  scheduler.start();
  return { sink, events, scheduler };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PlayoutScheduler', () => {
  it('hands audio over in real time, at most 100 ms ahead, and stamps every frame', async () => {
    const { sink, events, scheduler } = setUp();
    const t0 = Date.now();
    scheduler.pushAudio('r1', ramp(RATE), true);
    scheduler.pushFrames('r1', frames(0, 25), true);
    await advance(0);
    expect(sink.captured.length).toBeGreaterThanOrEqual(10);
    expect(sink.captured.length).toBeLessThanOrEqual(11);
    await advance(500);
    expect(sink.captured.length).toBeGreaterThanOrEqual(60);
    expect(sink.captured.length).toBeLessThanOrEqual(61);
    expect(events.playing).toEqual(['r1']);
    await advance(600);
    expect(sink.samples()).toEqual(Array.from(ramp(RATE)));
    expect(events.ended).toEqual([['r1', 1000]]);
    const times = sink.frameTimes('r1');
    expect([...times.keys()]).toEqual(Array.from({ length: 25 }, (_, k) => k));
    for (const [k, t] of times) expect(t).toBe(t0 + 40 * k);
    expect(sink.frames.at(-1)?.end).toBe(true);
    expect(
      sink.frames.flatMap((p) => p.animation.animation?.keyframes ?? []).map((k) => k.expression[JAW]),
    ).toEqual(frames(0, 25).map((f) => Math.fround(f.expression[JAW]!)));
    expect(sink.control.map((c) => c.type)).toEqual(['playing', 'ended']);
    await scheduler.stop();
  });

  it('holds audio until the frame that animates it arrives, and no longer than frameHoldMs', async () => {
    const { sink, scheduler } = setUp({ frameHoldMs: 300 });
    scheduler.pushAudio('r1', ramp(RATE / 2), true);
    await advance(200);
    expect(sink.captured).toHaveLength(0);
    const t1 = Date.now();
    scheduler.pushFrames('r1', frames(0, 5), false); // 200 ms of frames
    await advance(0);
    expect(sink.captured.length).toBeGreaterThan(0);
    // The 6th frame is missing: audio stops at 200 ms and waits up to 300 ms for it.
    await advance(250);
    expect(sink.samples()).toHaveLength((RATE / 1000) * 200);
    await advance(300);
    expect(sink.samples().length).toBeGreaterThan((RATE / 1000) * 200);
    expect(sink.frameTimes('r1').get(0)).toBe(t1);
    await scheduler.stop();
  });

  it('pause cuts the audio where it is; resume hands over the rest without loss or repeat', async () => {
    const { sink, events, scheduler } = setUp();
    const t0 = Date.now();
    scheduler.pushAudio('r1', ramp(RATE), true);
    scheduler.pushFrames('r1', frames(0, 25), true);
    await advance(300);
    const paused = scheduler.pause();
    expect(paused).toEqual({ state: 'paused', reqId: 'r1', playedMs: 300 });
    expect(sink.clears).toEqual([Date.now()]);
    const handedBeforePause = sink.captured.length;
    await advance(500);
    expect(sink.captured.length).toBe(handedBeforePause);
    const resumedAt = Date.now();
    expect(scheduler.resume()).toEqual({ state: 'playing', reqId: 'r1', playedMs: 300 });
    await advance(800);
    expect(events.ended).toEqual([['r1', 1000]]);
    // What the source played: the first 300 ms, then (after the clear) from 300 ms on.
    const afterResume = sink.captured.slice(handedBeforePause).flatMap((c) => Array.from(c.pcm));
    expect(afterResume).toEqual(Array.from(ramp(RATE * 0.7, RATE * 0.3)));
    // Frames from the cut on were sent again with their new times.
    const times = sink.frameTimes('r1');
    expect(times.get(7)).toBe(t0 + 280); // frame 7 starts at 280 ms, before the cut: it keeps its time
    expect(times.get(8)).toBe(resumedAt + 20); // frame 8 starts at 320 ms: 20 ms after the resume point
    expect(times.get(24)).toBe(resumedAt + 24 * 40 - 300);
    expect(sink.control.map((c) => c.type)).toEqual(['playing', 'paused', 'resumed', 'ended']);
    await scheduler.stop();
  });

  it('interrupt stops the request and those before it, drops their late input, and plays the next', async () => {
    const { sink, events, scheduler } = setUp({ idleTimeoutMs: 0 });
    scheduler.pushAudio('r1', ramp(RATE), true);
    scheduler.pushFrames('r1', frames(0, 25), true);
    scheduler.pushAudio('r2', ramp(RATE / 5, 5000), true);
    scheduler.pushFrames('r2', frames(0, 5), true);
    await advance(200);
    const snap = scheduler.interrupt('r1');
    expect(sink.clears).toEqual([Date.now()]);
    expect(events.interrupted).toEqual([['r1', 200]]);
    expect(snap.reqId).toBe('r2');
    scheduler.pushAudio('r1', ramp(RATE), false); // late audio of the interrupted request
    scheduler.pushFrames('r1', frames(25, 5), true);
    const r1Packets = sink.frames.filter((f) => f.animation.reqId === 'r1').length;
    await advance(400);
    expect(events.ended).toEqual([['r2', 200]]);
    expect(sink.frames.filter((f) => f.animation.reqId === 'r1')).toHaveLength(r1Packets);
    const types = sink.control.map((c) => `${c.type}:${c.reqId}`);
    expect(types).toEqual(['playing:r1', 'interrupted:r1', 'playing:r2', 'ended:r2']);
    expect(scheduler.snapshot()).toEqual({ state: 'idle', reqId: '', playedMs: 0 });
    await scheduler.stop();
  });

  it('ends a request whose end arrives after its audio was handed over', async () => {
    const { events, scheduler } = setUp();
    scheduler.pushAudio('r1', ramp(RATE / 10), false);
    scheduler.pushFrames('r1', frames(0, 3), false);
    await advance(500);
    expect(events.ended).toEqual([]);
    scheduler.pushAudio('r1', new Int16Array(0), true);
    // While the request is still queued, audio after its end is a client error.
    expect(() => scheduler.pushAudio('r1', ramp(10), false)).toThrow(
      expect.objectContaining({ code: 'invalidRequest' }),
    );
    scheduler.pushFrames('r1', [], true);
    await advance(0);
    expect(events.ended).toEqual([['r1', 100]]);
    await scheduler.stop();
  });

  it('audio of a new request ends one left open, so it cannot block the queue', async () => {
    const { events, scheduler } = setUp();
    scheduler.pushAudio('r1', ramp(RATE / 10), false);
    scheduler.pushFrames('r1', frames(0, 3), false);
    await advance(300);
    scheduler.pushAudio('r2', ramp(RATE / 5), true);
    scheduler.pushFrames('r2', frames(0, 5), true);
    await advance(400);
    expect(events.ended).toEqual([
      ['r1', 100],
      ['r2', 200],
    ]);
    // Once it ended, late audio for it is dropped.
    scheduler.pushAudio('r1', ramp(RATE / 10), true);
    await advance(300);
    expect(events.ended).toHaveLength(2);
    await scheduler.stop();
  });

  it('reports idle after the idle timeout, and not while audio plays', async () => {
    const { events, scheduler } = setUp({ idleTimeoutMs: 1000 });
    await advance(600);
    scheduler.pushAudio('r1', ramp(RATE), true);
    scheduler.pushFrames('r1', frames(0, 25), true);
    await advance(1500);
    expect(events.idle).toEqual([]);
    await advance(600);
    expect(events.idle).toEqual([1000]);
    await scheduler.stop();
  });
});
