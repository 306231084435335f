import { createDriveFrame, DRIVE_FRAME_FIELDS, FRAME_LAYOUT } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { PACKED_FRAME_LENGTH, packFrames, unpackFrames } from '../../src/local/frame-packing.js';

describe('frame packing across the worker boundary', () => {
  it('round-trips every field of every frame, float32 for float32', () => {
    const frames = [0, 1, 2].map((k) => {
      const frame = createDriveFrame(k);
      for (const field of DRIVE_FRAME_FIELDS)
        for (let i = 0; i < frame[field].length; i++)
          frame[field][i] = Math.fround(Math.sin(k * 100 + i) / 3);
      return frame;
    });
    const packed = packFrames(frames);
    expect(PACKED_FRAME_LENGTH).toBe(Object.values(FRAME_LAYOUT).reduce((a, b) => a + b, 0));
    expect(packed.length).toBe(3 * PACKED_FRAME_LENGTH);
    const back = unpackFrames(packed, 7);
    expect(back.map((f) => f.index)).toEqual([7, 8, 9]);
    for (let k = 0; k < 3; k++)
      for (const field of DRIVE_FRAME_FIELDS)
        expect(Array.from(back[k]![field])).toEqual(Array.from(frames[k]![field]));
    expect(unpackFrames(new Float32Array(0))).toEqual([]);
  });
});
