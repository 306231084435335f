/**
 * Driver.recycle: frames handed back are written again by later frames. The frames a recycling
 * caller sees must be exactly those of a driver that allocates every frame (same values, same
 * order), across utterances, resets and both backends; a frame handed back twice, or one without
 * the rig's layout, must not be reused.
 */
import { createDriveFrame, DRIVE_FRAME_FIELDS, type DriveFrame, FRAME_LAYOUT } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriver } from '../src/driver.js';
import { espeak, random } from './helpers.js';

/** A frame's values, copied (the recycling caller's frames are overwritten later). */
function snapshot(frame: DriveFrame): number[] {
  return [frame.index, ...DRIVE_FRAME_FIELDS.flatMap((field) => Array.from(frame[field]))];
}

/** Three utterances with a reset before the third, in random chunks; every frame snapshotted. */
function drive(backend: 'wasm' | 'js', recycle: boolean, pcm: Int16Array, sampleRate: number): number[][] {
  const driver = createDriver({ sampleRate, backend });
  const next = random(7);
  const out: number[][] = [];
  const take = (frames: DriveFrame[]) => {
    for (const frame of frames) out.push(snapshot(frame));
    if (recycle) driver.recycle(frames);
  };
  for (let utterance = 0; utterance < 3; utterance++) {
    if (utterance === 2) driver.reset();
    for (let at = 0; at < pcm.length; ) {
      const n = Math.min(pcm.length - at, Math.floor(next() * 1600));
      take(driver.push(pcm.subarray(at, at + n)));
      at += n;
    }
    take(driver.end());
  }
  driver.close();
  return out;
}

describe('Driver.recycle', () => {
  const { pcm, sampleRate } = espeak('Recycled frames carry the same values as new ones.');
  /** Samples per 40 ms frame. */
  const F = sampleRate / 25;

  for (const backend of ['wasm', 'js'] as const) {
    it(`gives the same frames as fresh allocation (${backend})`, () => {
      const fresh = drive(backend, false, pcm, sampleRate);
      const recycled = drive(backend, true, pcm, sampleRate);
      expect(fresh.length).toBeGreaterThan(100);
      expect(recycled).toEqual(fresh);
    });
  }

  it('reuses a recycled frame for the next one, cleared', () => {
    const driver = createDriver({ sampleRate });
    const first = driver.push(pcm.subarray(0, 25 * F));
    expect(first.length).toBeGreaterThan(2);
    const reused = first[first.length - 1]!;
    const lastIndex = reused.index;
    reused.expression.fill(9);
    driver.recycle([reused]);
    const next = driver.push(pcm.subarray(25 * F, 27 * F));
    expect(next[0]).toBe(reused);
    expect(next[0]!.index).toBe(lastIndex + 1);
    expect(Math.max(...next[0]!.expression)).toBeLessThan(1);
  });

  it('ignores a frame handed back twice and frames without the rig layout', () => {
    const driver = createDriver({ sampleRate });
    const frames = driver.push(pcm.subarray(0, 25 * F));
    const twice = frames[0]!;
    const short = { ...createDriveFrame(0), expression: new Float32Array(FRAME_LAYOUT.expression - 1) };
    driver.recycle([twice, twice, short]);
    driver.recycle([twice]);
    const next = driver.push(pcm.subarray(25 * F, 28 * F));
    expect(next.length).toBe(3);
    expect(next.filter((f) => f === twice).length).toBe(1);
    expect(next.includes(short)).toBe(false);
  });
});
