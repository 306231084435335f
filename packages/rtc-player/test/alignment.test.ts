// The alignment math of docs/rtc.md: clock offset, playout delay, the frame timeline and
// the speech envelope, with fake times (the real-server behaviour is in apps/e2e).
import {
  ARKIT_INDEX,
  type ControlMessage,
  createDriveFrame,
  driveFrameToFlame,
  type FramePacket,
  ServerResponseAnimationSchema,
} from '@avatar-drive/core';
import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  ClockOffsetEstimator,
  FrameTimeline,
  jitterSampleFromStats,
  PlayoutDelayEstimator,
  SpeechEnvelope,
  StallDetector,
} from '../src/index.js';

const JAW = ARKIT_INDEX.jawOpen;

/** A packet of frames `first…first+jaws.length-1` of `reqId`, frame k heard at `t0 + 40k`. */
function packet(reqId: string, first: number, jaws: number[], t0: number, end = false): FramePacket {
  const frames = jaws.map((jaw, j) => {
    const f = createDriveFrame(first + j);
    f.expression[JAW] = jaw;
    return f;
  });
  return {
    firstFrameIndex: first,
    sampleRate: 24000,
    sentAtMs: t0 + 40 * first - 150,
    playAtMs: jaws.map((_, j) => t0 + 40 * (first + j)),
    end,
    animation: create(ServerResponseAnimationSchema, {
      reqId,
      end,
      animation: { keyframes: frames.map(driveFrameToFlame) },
    }),
  };
}

const control = (m: {
  type: ControlMessage['type'];
  reqId: string;
  atMs: number;
  playedMs?: number;
}): ControlMessage => ({ v: 1, ...m }) as ControlMessage;

describe('ClockOffsetEstimator', () => {
  it('keeps the smallest arrival − send difference in the window and follows drift', () => {
    const c = new ClockOffsetEstimator(10_000);
    expect(c.offsetMs).toBeUndefined();
    c.add(1000, 1000 + 5030); // service clock 5 s behind, 30 ms path
    c.add(1100, 1100 + 5012);
    c.add(1200, 1200 + 5090);
    expect(c.offsetMs).toBe(5012);
    // 11 s later the 5012 sample has left the window; the clocks drifted by 3 ms.
    c.add(12_200, 12_200 + 5020);
    c.add(12_300, 12_300 + 5016);
    expect(c.offsetMs).toBe(5016);
    c.reset();
    expect(c.offsetMs).toBeUndefined();
  });

  it('ignores non-finite samples', () => {
    const c = new ClockOffsetEstimator();
    c.add(Number.NaN, 10);
    expect(c.offsetMs).toBeUndefined();
  });
});

describe('PlayoutDelayEstimator', () => {
  it('uses the recent jitter-buffer delay, not the lifetime average, plus the pipeline constant', () => {
    const d = new PlayoutDelayEstimator(40, 1000);
    expect(d.delayMs).toBe(40);
    // First second: 200 ms per sample (settling); then 30 ms.
    d.add({ atMs: 0, jitterBufferDelay: 0, jitterBufferEmittedCount: 0 });
    d.add({ atMs: 1000, jitterBufferDelay: 48_000 * 0.2, jitterBufferEmittedCount: 48_000 });
    expect(d.jitterBufferMs).toBeCloseTo(200);
    let delay = 48_000 * 0.2;
    let count = 48_000;
    for (let t = 1250; t <= 3000; t += 250) {
      delay += 12_000 * 0.03;
      count += 12_000;
      d.add({ atMs: t, jitterBufferDelay: delay, jitterBufferEmittedCount: count });
    }
    expect(d.jitterBufferMs).toBeCloseTo(30);
    expect(d.delayMs).toBeCloseTo(70);
    // Lifetime average would be far above.
    expect((delay / count) * 1000).toBeGreaterThan(60);
  });

  it('falls back to the lifetime average when nothing new was emitted, and restarts on a new receiver', () => {
    const d = new PlayoutDelayEstimator(0, 1000);
    d.add({ atMs: 0, jitterBufferDelay: 4800, jitterBufferEmittedCount: 96_000 });
    expect(d.jitterBufferMs).toBeCloseTo(50);
    d.add({ atMs: 500, jitterBufferDelay: 4800, jitterBufferEmittedCount: 96_000 });
    expect(d.jitterBufferMs).toBeCloseTo(50);
    d.add({ atMs: 600, jitterBufferDelay: 480, jitterBufferEmittedCount: 24_000 }); // counters went back
    expect(d.jitterBufferMs).toBeCloseTo(20);
  });

  it('measures the recent audio power from the energy counters', () => {
    const d = new PlayoutDelayEstimator();
    d.add({
      atMs: 0,
      jitterBufferDelay: 0,
      jitterBufferEmittedCount: 1,
      totalAudioEnergy: 1,
      totalSamplesDuration: 10,
    });
    d.add({
      atMs: 250,
      jitterBufferDelay: 0,
      jitterBufferEmittedCount: 2,
      totalAudioEnergy: 1.0025,
      totalSamplesDuration: 10.25,
    });
    expect(d.recentPower).toBeCloseTo(0.01);
    d.add({
      atMs: 500,
      jitterBufferDelay: 0,
      jitterBufferEmittedCount: 3,
      totalAudioEnergy: 1.0025,
      totalSamplesDuration: 10.5,
    });
    expect(d.recentPower).toBe(0);
  });

  it('reads the inbound-rtp audio entry of a stats report', () => {
    const report = new Map<string, Record<string, unknown>>([
      ['t', { type: 'transport' }],
      ['v', { type: 'inbound-rtp', kind: 'video', jitterBufferDelay: 9, jitterBufferEmittedCount: 9 }],
      [
        'a',
        {
          type: 'inbound-rtp',
          kind: 'audio',
          jitterBufferDelay: 1.5,
          jitterBufferEmittedCount: 48_000,
          totalAudioEnergy: 0.2,
          totalSamplesDuration: 1,
        },
      ],
    ]) as unknown as RTCStatsReport;
    expect(jitterSampleFromStats(report, 7)).toEqual({
      atMs: 7,
      jitterBufferDelay: 1.5,
      jitterBufferEmittedCount: 48_000,
      totalAudioEnergy: 0.2,
      totalSamplesDuration: 1,
    });
    expect(jitterSampleFromStats(new Map() as unknown as RTCStatsReport, 7)).toBeUndefined();
  });
});

describe('FrameTimeline', () => {
  const T0 = 1_000_000;

  it('shows the latest keyframe at or before T, interpolated towards the next', () => {
    const tl = new FrameTimeline();
    tl.addPacket(packet('r1', 0, [0, 1, 0.5], T0, true));
    expect(tl.sample(T0 - 1)).toBeUndefined();
    expect(tl.sample(T0)?.frame.expression[JAW]).toBe(0);
    expect(tl.sample(T0 + 20)?.frame.expression[JAW]).toBeCloseTo(0.5);
    expect(tl.sample(T0 + 40)?.frame.expression[JAW]).toBe(1);
    expect(tl.sample(T0 + 60)?.frame.expression[JAW]).toBeCloseTo(0.75);
    expect(tl.sample(T0 + 60)?.position).toBeCloseTo(1.5);
    // The last frame covers its 40 ms, then idle.
    expect(tl.sample(T0 + 110)?.frame.expression[JAW]).toBe(0.5);
    expect(tl.sample(T0 + 121)).toBeUndefined();
    expect(tl.coveredUntilMs).toBe(T0 + 120);
  });

  it('merges packets in any order; the last copy of a frame wins', () => {
    const tl = new FrameTimeline();
    tl.addPacket(packet('r1', 2, [0.2, 0.3], T0));
    tl.addPacket(packet('r1', 0, [0, 0.1], T0));
    expect(tl.sample(T0 + 80)?.frame.expression[JAW]).toBeCloseTo(0.2);
    // Frames 2 and 3 sent again later with new times: the new copies replace them, and the
    // gap before them is not interpolated across.
    tl.addPacket(packet('r1', 2, [0.9, 0.8], T0 + 500));
    expect(tl.sample(T0 + 60)?.frame.expression[JAW]).toBeCloseTo(0.1);
    expect(tl.sample(T0 + 100)).toBeUndefined();
    expect(tl.sample(T0 + 580)?.frame.expression[JAW]).toBeCloseTo(0.9);
    expect(tl.sample(T0 + 640)?.frame.expression[JAW]).toBeCloseTo(0.8);
  });

  it('interrupted drops the request at once and its late packets', () => {
    const tl = new FrameTimeline();
    tl.addPacket(packet('r1', 0, [1, 1, 1, 1], T0));
    expect(tl.control(control({ type: 'interrupted', reqId: 'r1', atMs: T0 + 50, playedMs: 50 }))).toBe(true);
    expect(tl.sample(T0 + 60)).toBeUndefined();
    tl.addPacket(packet('r1', 4, [1], T0));
    expect(tl.sample(T0 + 170)).toBeUndefined();
    expect(tl.requestIds).toEqual([]);
    // A later request plays normally.
    tl.addPacket(packet('r2', 0, [0.4], T0 + 1000));
    expect(tl.sample(T0 + 1010)?.reqId).toBe('r2');
  });

  it('paused holds the pose and drops later frames; resumed plays the frames sent again', () => {
    const tl = new FrameTimeline();
    tl.addPacket(packet('r1', 0, [0.1, 0.2, 0.3, 0.4, 0.5], T0));
    tl.control(control({ type: 'paused', reqId: 'r1', atMs: T0 + 90, playedMs: 90 }));
    expect(tl.sample(T0 + 5000)?.frame.expression[JAW]).toBeCloseTo(0.3); // held at frame 2
    tl.control(control({ type: 'resumed', reqId: 'r1', atMs: T0 + 6000, playedMs: 90 }));
    tl.addPacket(packet('r1', 3, [0.4, 0.5], T0 + 6000 - 120, true));
    expect(tl.sample(T0 + 6000)?.frame.expression[JAW]).toBeCloseTo(0.4);
    expect(tl.sample(T0 + 6000)?.position).toBe(3);
  });

  it('plays requests one after another and prunes finished ones', () => {
    const tl = new FrameTimeline();
    tl.addPacket(packet('r1', 0, [0.1, 0.1], T0, true));
    tl.control(control({ type: 'ended', reqId: 'r1', atMs: T0 + 80, playedMs: 80 }));
    tl.addPacket(packet('r2', 0, [0.7, 0.7], T0 + 200));
    expect(tl.sample(T0 + 40)?.reqId).toBe('r1');
    expect(tl.sample(T0 + 150)).toBeUndefined();
    expect(tl.sample(T0 + 210)?.reqId).toBe('r2');
    tl.prune(T0 + 3000);
    expect(tl.requestIds).toEqual(['r2']);
    tl.addPacket(packet('r1', 2, [1], T0)); // late packet of a pruned, ended request
    expect(tl.requestIds).toEqual(['r2']);
  });
});

describe('SpeechEnvelope', () => {
  const speech = createDriveFrame(3);
  speech.expression[JAW] = 1;

  it('fades in over the start frames and out over the end frames, then idles', () => {
    const env = new SpeechEnvelope(5, 40);
    expect(env.apply(0, undefined)).toBeUndefined();
    expect(env.apply(0, speech)).toBeUndefined(); // weight 0 yet
    expect(env.apply(100, speech)?.expression[JAW]).toBeCloseTo(0.5); // halfway: eased 0.5 → 0.5
    expect(env.apply(200, speech)).toBe(speech);
    for (let t = 300; t < 1000; t += 100) env.apply(t, undefined);
    const out = env.apply(1000, undefined); // 800 of 1600 ms out
    expect(out?.expression[JAW]).toBeCloseTo(0.5);
    expect(out?.index).toBe(3);
    for (let t = 1100; t < 1800; t += 100) env.apply(t, undefined);
    expect(env.apply(1800, undefined)).toBeUndefined();
    expect(env.weight).toBe(0);
  });

  it('with zero frames switches at once; cut() drops speech', () => {
    const env = new SpeechEnvelope(0, 0);
    expect(env.apply(0, speech)).toBe(speech);
    expect(env.apply(10, undefined)).toBeUndefined();
    const slow = new SpeechEnvelope(0, 40);
    slow.apply(0, speech);
    slow.cut();
    expect(slow.apply(10, undefined)).toBeUndefined();
  });
});

describe('StallDetector', () => {
  it('reports a stall once when audio plays without frames, and the recovery', () => {
    const s = new StallDetector(500);
    const o = (nowMs: number, audioPlaying: boolean, framesCover: boolean, lastPacketAtMs = 0) => ({
      nowMs,
      audioPlaying,
      framesCover,
      lastPacketAtMs,
    });
    expect(s.observe(o(0, true, true))).toBeUndefined();
    expect(s.observe(o(250, true, false))).toBeUndefined();
    expect(s.observe(o(500, true, false))).toBeUndefined();
    expect(s.observe(o(750, true, false))).toBe('stalled');
    expect(s.observe(o(1000, true, false))).toBeUndefined();
    expect(s.isStalled).toBe(true);
    expect(s.observe(o(1250, true, true, 1200))).toBe('recovered');
    // Silence without frames is idle, not a stall.
    expect(s.observe(o(2000, false, false))).toBeUndefined();
    expect(s.observe(o(4000, false, false))).toBeUndefined();
    // Packets still arriving (frames just late) is not a stall yet.
    expect(s.observe(o(5000, true, false, 4900))).toBeUndefined();
    expect(s.observe(o(5600, true, false, 5500))).toBeUndefined();
  });
});
