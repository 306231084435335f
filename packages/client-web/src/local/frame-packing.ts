/**
 * Drive frames across the worker boundary as one Float32Array (fields in FRAME_LAYOUT order,
 * frame after frame), so a batch is one transferable buffer rather than a structured clone of
 * eight typed arrays per frame. Float32 in, the same float32 out: nothing is rounded.
 */
import { DRIVE_FRAME_FIELDS, type DriveFrame, FRAME_LAYOUT } from '@avatar-drive/core';

/** Floats per packed frame (87 for arkit-52). */
export const PACKED_FRAME_LENGTH = DRIVE_FRAME_FIELDS.reduce((sum, field) => sum + FRAME_LAYOUT[field], 0);

/** Packs `frames` into one buffer. */
export function packFrames(frames: readonly DriveFrame[]): Float32Array {
  const out = new Float32Array(frames.length * PACKED_FRAME_LENGTH);
  let offset = 0;
  for (const frame of frames) {
    for (const field of DRIVE_FRAME_FIELDS) {
      out.set(frame[field], offset);
      offset += FRAME_LAYOUT[field];
    }
  }
  return out;
}

/** Unpacks frames numbered from `firstIndex`; their fields are views into `data`. */
export function unpackFrames(data: Float32Array, firstIndex = 0): DriveFrame[] {
  const count = Math.floor(data.length / PACKED_FRAME_LENGTH);
  const frames: DriveFrame[] = [];
  let offset = 0;
  for (let k = 0; k < count; k++) {
    const frame = { index: firstIndex + k } as DriveFrame;
    for (const field of DRIVE_FRAME_FIELDS) {
      const length = FRAME_LAYOUT[field];
      frame[field] = data.subarray(offset, offset + length);
      offset += length;
    }
    frames.push(frame);
  }
  return frames;
}
