import { createDriveFrame, type DriveFrame } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { lerpFrame, PlaybackScheduler } from '../../src/playback-scheduler.js';
import { ManualSink } from './fakes.js';

const SR = 16000;
const pcm = (n: number) => new Int16Array(n).fill(1000);
function frames(from: number, count: number): DriveFrame[] {
  return Array.from({ length: count }, (_, i) => {
    const f = createDriveFrame(from + i);
    f.expression[17] = (from + i) / 100; // jawOpen carries the frame number
    return f;
  });
}

describe('PlaybackScheduler', () => {
  it('waits for the first frame, then starts one jitter buffer later with audio at t0 + offset/sr', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 80 });
    s.begin('r1', SR);
    s.pushAudio('r1', pcm(3200), false);
    s.pushAudio('r1', pcm(3200), false);
    expect(s.started).toBe(false);
    expect(sink.played).toHaveLength(0);
    sink.currentTime = 0.3;
    s.pushFrames('r1', frames(0, 2));
    expect(s.startTime).toBeCloseTo(0.38, 9);
    expect(sink.played.map((c) => c.when)).toEqual([0.38, 0.38 + 3200 / SR]);
  });

  it('starts an audio-only utterance without waiting for frames', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 50 });
    s.begin('c1', SR);
    s.pushAudio('c1', pcm(1600), false);
    s.setAudioOnly('c1');
    expect(s.startTime).toBeCloseTo(0.05, 9);
    expect(s.sample(0.06)).toMatchObject({ id: 'c1', frame: undefined });
  });

  it('starts without animation once the wait for it times out', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 0, animationWaitMs: 500 });
    s.begin('r', SR);
    s.pushAudio('r', pcm(1600), false);
    sink.currentTime = 0.49;
    expect(s.update()).toBeUndefined();
    expect(s.started).toBe(false);
    sink.currentTime = 0.5;
    s.update();
    expect(s.started).toBe(true);
  });

  it('shows frame k at t0 + k/25, interpolated, and holds the newest frame when the next is late', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 100 });
    s.begin('r', SR);
    s.pushAudio('r', pcm(SR), true);
    s.pushFrames('r', frames(0, 4));
    const t0 = s.startTime!;
    expect(s.sample(t0 - 0.001)).toBeUndefined();
    expect(s.sample(t0 + 2 / 25)!.frame!.expression[17]).toBeCloseTo(0.02, 6);
    expect(s.sample(t0 + 2.5 / 25)!.frame!.expression[17]).toBeCloseTo(0.025, 6);
    const held = s.sample(t0 + 7.5 / 25)!;
    expect(held.frame!.expression[17]).toBeCloseTo(0.03, 6);
    expect(held.framePosition).toBe(3);
    expect(held.framesReceived).toBe(4);
    s.pushFrames('r', frames(4, 6));
    const caughtUp = s.sample(t0 + 7.5 / 25)!;
    expect(caughtUp.frame!.expression[17]).toBeCloseTo(0.075, 6);
    // 10 frames received, 7.5 frames' worth heard: 2.5 frames (100 ms) of animation in hand.
    expect(caughtUp.framesReceived).toBe(10);
  });

  it('moves audio and animation back together when a chunk arrives after its slot', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 40, scheduleLeadMs: 10 });
    s.begin('r', SR);
    s.pushAudio('r', pcm(1600), false); // 100 ms
    s.pushFrames('r', frames(0, 10));
    const t0 = s.startTime!;
    sink.currentTime = t0 + 0.2; // the second chunk was due at t0 + 0.1
    s.pushAudio('r', pcm(1600), true);
    expect(s.stallCount).toBe(1);
    const newT0 = s.startTime!;
    expect(newT0).toBeCloseTo(t0 + 0.11, 9);
    expect(sink.played[1]!.when).toBeCloseTo(newT0 + 0.1, 9);
    expect(s.sample(newT0 + 4 / 25)!.frame!.expression[17]).toBeCloseTo(0.04, 6);
  });

  it('reports the end once, after the last sample has played', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 0, scheduleLeadMs: 0 });
    s.begin('r', SR);
    s.pushAudio('r', pcm(800), false);
    s.pushFrames('r', frames(0, 2));
    s.pushAudio('r', pcm(0), true);
    sink.currentTime = 0.0499;
    expect(s.update()).toBeUndefined();
    sink.currentTime = 0.05;
    expect(s.update()).toBe('r');
    expect(s.update()).toBeUndefined();
    expect(s.currentId).toBeUndefined();
  });

  it('stop() and a new utterance stop every scheduled chunk at once', () => {
    const sink = new ManualSink();
    const s = new PlaybackScheduler(sink, { jitterBufferMs: 0 });
    s.begin('a', SR);
    s.pushAudio('a', pcm(100), false);
    s.setAudioOnly('a');
    s.pushAudio('a', pcm(100), false);
    expect(s.begin('b', SR)).toBe(true);
    expect(sink.played.every((c) => c.stopped)).toBe(true);
    s.pushAudio('a', pcm(100), false); // the old utterance is gone
    expect(sink.played).toHaveLength(2);
    s.pushAudio('b', pcm(100), false);
    s.setAudioOnly('b');
    expect(s.stop()).toBe('b');
    expect(sink.played.every((c) => c.stopped)).toBe(true);
    expect(s.sample()).toBeUndefined();
  });

  it('lerpFrame blends every field', () => {
    const a = createDriveFrame();
    const b = createDriveFrame();
    b.visemes[10] = 1;
    b.rotation[1] = 0.2;
    const m = lerpFrame(a, b, 0.25);
    expect(m.visemes[10]).toBeCloseTo(0.25, 6);
    expect(m.rotation[1]).toBeCloseTo(0.05, 6);
  });
});
