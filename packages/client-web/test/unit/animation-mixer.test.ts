import { ARKIT_INDEX, createDriveFrame } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { AnimationMixer } from '../../src/animation-mixer.js';

const JAW = ARKIT_INDEX.jawOpen;
const speech = () => {
  const f = createDriveFrame();
  f.expression[JAW] = 1;
  return f;
};

describe('AnimationMixer', () => {
  it('fades into speech over 5 frames and back to idle over 40 by default', () => {
    const m = new AnimationMixer({ idleMotion: false });
    m.update(0, undefined);
    m.update(0.1, speech());
    expect(m.speechWeight).toBeCloseTo(0.5, 6);
    m.update(0.2, speech());
    expect(m.speechWeight).toBe(1);
    expect(m.update(0.21, speech()).expression[JAW]).toBeCloseTo(1, 6);
    m.update(1.0, undefined); // 0.79 s of 1.6 s
    expect(m.speechWeight).toBeCloseTo(1 - 0.79 / 1.6, 6);
    // The mouth closes from the last speech frame, not at once.
    const out = m.update(1.01, undefined);
    expect(out.expression[JAW]).toBeGreaterThan(0.2);
    expect(out.expression[JAW]).toBeLessThan(1);
    m.update(2.0, undefined);
    expect(m.speechWeight).toBe(0);
    expect(m.update(2.01, undefined).expression[JAW]).toBe(0);
  });

  it('honours custom transition lengths and cut()', () => {
    const m = new AnimationMixer({ idleMotion: false, transitionInFrames: 10, transitionOutFrames: 0 });
    m.update(0, undefined);
    m.update(0.2, speech());
    expect(m.speechWeight).toBeCloseTo(0.5, 6);
    m.update(0.21, undefined);
    expect(m.speechWeight).toBe(0);
    m.update(0.6, speech());
    m.cut();
    expect(m.update(0.61, undefined).expression[JAW]).toBe(0);
  });

  it('breathes and blinks when idle, deterministically per seed', () => {
    const run = (seed: number) => {
      const m = new AnimationMixer({ seed });
      let blinks = 0;
      let wasClosed = false;
      let pitchMin = Infinity;
      let pitchMax = -Infinity;
      for (let t = 0; t < 12; t += 0.02) {
        const f = m.update(t, undefined);
        const closed = f.expression[ARKIT_INDEX.eyeBlinkLeft]! > 0.8;
        if (closed && !wasClosed) blinks += 1;
        wasClosed = closed;
        pitchMin = Math.min(pitchMin, f.rotation[0]!);
        pitchMax = Math.max(pitchMax, f.rotation[0]!);
      }
      return { blinks, range: pitchMax - pitchMin };
    };
    const a = run(7);
    expect(a.blinks).toBeGreaterThanOrEqual(2);
    expect(a.blinks).toBeLessThanOrEqual(6);
    expect(a.range).toBeGreaterThan(0.01);
    expect(run(7)).toEqual(a);
  });
});
