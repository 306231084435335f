import {
  ARKIT_INDEX,
  type DriveFrame,
  isAvatarError,
  SUPPORTED_SAMPLE_RATES,
  VISEMES,
} from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriver } from '../src/driver.js';
import { CLOSURE_PRESS } from '../src/mouth-shapes.js';
import { buzz, espeak, noise, random, run } from './helpers.js';

const JAW = ARKIT_INDEX.jawOpen;
const SIL = VISEMES.indexOf('sil');

/**
 * The lips meet on a p/b/m: past half closure, the jaw nearly shut and the lips pressed (ARKit
 * convention: closure is the lips' own press, not mouthClose over a shut jaw).
 */
function lipsMeet(f: DriveFrame): boolean {
  return f.expression[ARKIT_INDEX.mouthPressLeft]! > 0.5 * CLOSURE_PRESS && f.expression[JAW]! < 0.1;
}

function same(a: DriveFrame[], b: DriveFrame[]): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    expect(x.index).toBe(y.index);
    for (const key of [
      'visemes',
      'expression',
      'jawPose',
      'rotation',
      'neckPose',
      'eyePose',
      'eyeLid',
      'translation',
    ] as const) {
      expect(Array.from(x[key]), `frame ${i} ${key}`).toEqual(Array.from(y[key]));
    }
  }
}

describe('createDriver', () => {
  it('rejects unsupported sample rates with unsupportedSampleRate', () => {
    for (const sampleRate of [0, 11025, 96000, 16000.5, Number.NaN]) {
      try {
        createDriver({ sampleRate });
        expect.unreachable();
      } catch (error) {
        expect(isAvatarError(error) && error.code).toBe('unsupportedSampleRate');
        expect((error as Error).message).toMatch(/8000, 16000, 22050, 24000, 32000, 44100, 48000/);
      }
    }
  });

  it('rejects a bad lookahead and non-Int16Array input', () => {
    expect(() => createDriver({ sampleRate: 16000, lookaheadMs: -1 })).toThrow(/lookaheadMs/);
    expect(() => createDriver({ sampleRate: 16000, lookaheadMs: 1000 })).toThrow(/lookaheadMs/);
    const driver = createDriver({ sampleRate: 16000 });
    expect(() => driver.push(new Float32Array(10) as unknown as Int16Array)).toThrow(/Int16Array/);
  });

  it('is deterministic whatever the chunking (random chunk sizes, 1 sample to seconds)', () => {
    const pcm = new Int16Array(16000 * 3);
    pcm.set(buzz(16000, 2, 1), 8000);
    const reference = run(createDriver({ sampleRate: 16000, seed: 5 }), pcm, pcm.length);
    const r = random(42);
    for (let trial = 0; trial < 4; trial++) {
      const chunking = trial === 0 ? () => 1 + Math.floor(r() * 7) : () => 1 + Math.floor(r() ** 3 * 20000);
      same(run(createDriver({ sampleRate: 16000, seed: 5 }), pcm, chunking), reference);
    }
  });

  it('is deterministic whatever the chunking at a resampled rate, and with extra lookahead', () => {
    const pcm = buzz(44100, 1.5, 3);
    const r = random(7);
    for (const lookaheadMs of [20, 60]) {
      const reference = run(createDriver({ sampleRate: 44100, lookaheadMs }), pcm, 882);
      const chunked = run(
        createDriver({ sampleRate: 44100, lookaheadMs }),
        pcm,
        () => 1 + Math.floor(r() * 3000),
      );
      same(chunked, reference);
    }
  });

  it.each(SUPPORTED_SAMPLE_RATES)(
    'emits frame k once samples [0, (k+1)·sr/25) plus the lookahead arrived, never earlier, at %i Hz',
    (sampleRate) => {
      const driver = createDriver({ sampleRate });
      expect(driver.lookaheadMs).toBe(20);
      // 60 ms at every rate: at 44.1/48 kHz the hops run early enough to cover the decimator's delay.
      expect(driver.latencyMs).toBe(60);
      const frame = sampleRate / 25;
      const pcm = buzz(sampleRate, 1, 9);
      let pushed = 0;
      let emitted = 0;
      for (let k = 0; k < 20; k++) {
        const ready = Math.ceil((k + 1) * frame + sampleRate / 50); // frame end + 20 ms
        const frames = driver.push(pcm.subarray(pushed, ready - 1));
        pushed = ready - 1;
        emitted += frames.length;
        expect(emitted, `frame ${k} before its lookahead`).toBe(k);
        const next = driver.push(pcm.subarray(pushed, ready));
        pushed = ready;
        expect(next.map((f) => f.index)).toEqual([k]);
        emitted++;
      }
    },
  );

  it.each(SUPPORTED_SAMPLE_RATES)('gives ⌈n·25/sr⌉ frames in order at %i Hz, none early', (sampleRate) => {
    const driver = createDriver({ sampleRate });
    const seconds = 1.37;
    const pcm = buzz(sampleRate, seconds, sampleRate);
    const chunk = Math.round(sampleRate / 50);
    const frames: DriveFrame[] = [];
    for (let i = 0; i < pcm.length; i += chunk) {
      frames.push(...driver.push(pcm.subarray(i, i + chunk)));
      const received = Math.min(pcm.length, i + chunk);
      // Never before its audio and the 20 ms lookahead arrived.
      expect(frames.length).toBeLessThanOrEqual(
        Math.max(0, Math.floor((received - sampleRate * 0.02) / (sampleRate / 25))),
      );
    }
    frames.push(...driver.end());
    expect(frames.length).toBe(Math.ceil((pcm.length * 25) / sampleRate));
    expect(frames.map((f) => f.index)).toEqual(frames.map((_, i) => i));
    for (const f of frames) {
      expect(f.visemes.length).toBe(15);
      expect(f.expression.length).toBe(52);
      for (const v of f.expression) expect(v >= 0 && v <= 1).toBe(true);
      const sum = f.visemes.reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(1, 4);
    }
  });

  it('starts a new utterance at frame 0 after end(), and reset() forgets everything', () => {
    const driver = createDriver({ sampleRate: 16000 });
    const pcm = buzz(16000, 0.5, 1);
    const first = run(driver, pcm, 320);
    const second = run(driver, pcm, 320);
    expect(second[0]!.index).toBe(0);
    expect(second.length).toBe(first.length);
    driver.reset();
    same(run(driver, pcm, 320), run(createDriver({ sampleRate: 16000 }), pcm, 320));
  });

  it('keeps a relaxed closed mouth in digital silence', () => {
    const frames = run(createDriver({ sampleRate: 16000 }), new Int16Array(16000 * 2), 320);
    expect(frames.length).toBe(50);
    for (const f of frames) {
      expect(f.visemes[SIL]).toBeGreaterThan(0.99);
      expect(f.expression[JAW]).toBeLessThan(0.02);
      expect(f.jawPose[0]).toBeLessThan(0.01);
    }
  });

  it('does not chatter on steady background noise', () => {
    for (const rms of [0.001, 0.01, 0.05]) {
      const frames = run(createDriver({ sampleRate: 16000 }), noise(16000 * 4, rms, 11), 320);
      // After the noise-floor tracker has seen a little of it, the mouth stays shut.
      const settled = frames.slice(10);
      const jaw = settled.map((f) => f.expression[JAW]!);
      expect(Math.max(...jaw), `rms ${rms}`).toBeLessThan(0.1);
      const moving = settled.filter((f) => f.visemes[SIL]! < 0.5).length;
      expect(moving / settled.length, `rms ${rms}`).toBeLessThan(0.05);
    }
  });

  it('opens the mouth during synthesized speech and closes it in the pauses around it', () => {
    const { pcm, sampleRate } = espeak(
      'Hello there. How are you doing today? I am fine, thank you very much.',
    );
    const padded = new Int16Array(pcm.length + sampleRate);
    padded.set(pcm, sampleRate / 2);
    const frames = run(createDriver({ sampleRate }), padded, sampleRate / 50);
    const speech = frames.slice(20, frames.length - 20);
    const open = speech.filter((f) => f.expression[JAW]! > 0.15).length;
    expect(open / speech.length).toBeGreaterThan(0.3);
    // Leading half second of silence: closed.
    for (const f of frames.slice(0, 10)) expect(f.expression[JAW]).toBeLessThan(0.05);
    // Lips meet somewhere on the m/b/p of "am", "much", "you very".
    expect(speech.some(lipsMeet)).toBe(true);
  });

  it('moves head, eyes and lids deterministically per seed', () => {
    const { pcm, sampleRate } = espeak('We will nod and blink while we talk about the weather for a while.');
    const a = run(createDriver({ sampleRate, seed: 1 }), pcm, 441);
    const b = run(createDriver({ sampleRate, seed: 1 }), pcm, 441);
    const c = run(createDriver({ sampleRate, seed: 2 }), pcm, 441);
    same(a, b);
    expect(a.some((f, i) => f.rotation[1] !== c[i]!.rotation[1])).toBe(true);
    const pitch = a.map((f) => f.rotation[0]!);
    expect(Math.max(...pitch) - Math.min(...pitch)).toBeGreaterThan(0.01);
    expect(Math.max(...pitch.map(Math.abs))).toBeLessThan(0.3);
  });

  it('blinks about every 2–6 s in a long input', () => {
    const frames = run(createDriver({ sampleRate: 8000, seed: 3 }), noise(8000 * 30, 0.002, 1), 160);
    const closures = frames.filter(
      (f, i) => f.eyeLid[0] === 1 && (i === 0 || frames[i - 1]!.eyeLid[0] !== 1),
    ).length;
    expect(closures).toBeGreaterThanOrEqual(5);
    expect(closures).toBeLessThanOrEqual(15);
  });

  it("uses lookahead beyond the model's to close the lips before a bilabial", () => {
    const { pcm, sampleRate } = espeak('Bob bought maybe more paper. Mom, buy boots.');
    const closedAt = (lookaheadMs: number) =>
      run(createDriver({ sampleRate, lookaheadMs }), pcm, sampleRate / 50)
        .filter(lipsMeet)
        .map((f) => f.index);
    const plain = closedAt(20);
    const anticipating = closedAt(60);
    expect(plain.length).toBeGreaterThan(5);
    // Every closure still happens, and some start a frame earlier.
    for (const k of plain) expect(anticipating.includes(k) || anticipating.includes(k - 1)).toBe(true);
    expect(anticipating.some((k) => !plain.includes(k) && plain.includes(k + 1))).toBe(true);
  });

  it('emits earlier with lookahead 0 and later with more lookahead', () => {
    const pcm = buzz(16000, 0.5, 2);
    const chunk = pcm.subarray(0, 640 * 3);
    expect(createDriver({ sampleRate: 16000, lookaheadMs: 0 }).push(chunk).length).toBe(3);
    expect(createDriver({ sampleRate: 16000 }).push(chunk).length).toBe(2);
    expect(createDriver({ sampleRate: 16000, lookaheadMs: 100 }).push(chunk).length).toBe(0);
  });
});
