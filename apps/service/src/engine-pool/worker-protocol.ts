/**
 * Messages between the engine pool and its worker threads. Calls are batched: everything the event
 * loop asked of one worker during one turn goes in one message (ops in one Int32Array, all PCM in
 * one Int16Array, both transferred), and the worker answers the whole batch in one message. Two
 * `postMessage`s per 20 ms chunk per session cost more than the engine work they moved.
 */
import type { DriveFrame } from '@avatar-drive/core';
import type { DriverOptions } from './engine-pool.js';

export interface WorkerSetup {
  driverModule: string;
  driverExport: string;
  driverOptions: Omit<DriverOptions, 'sampleRate'>;
}

/** Operation codes of a batch. */
export const OP_OPEN = 0;
export const OP_CLOSE = 1;
export const OP_RESET = 2;
export const OP_PUSH = 3;
export const OP_END = 4;

/** Int32s per op: [op, channel, id, a, b] (open: a = sample rate; push: a = PCM offset, b = length). */
export const OP_SIZE = 5;

/** Main thread → worker: ops in order. */
export interface WorkerBatch {
  ops: Int32Array;
  pcm: Int16Array;
}

/** Worker → main thread: the results of a batch's push/end ops, in op order. */
export interface WorkerBatchReply {
  /** Call ids answered, in order. */
  ids: Int32Array;
  /** Frames per call (−1: the call failed, see `errors`). */
  frameCounts: Int32Array;
  /** Engine milliseconds per call. */
  cpuMs: Float64Array;
  /** Every call's frames, packed ({@link packFramesInto}), concatenated. */
  packed: Float32Array;
  /** Error messages of failed calls, by call id. */
  errors: [id: number, message: string][];
}

/** Floats per packed frame: index + translation 3, rotation 3, neck 3, jaw 3, eyes 6, lids 2, 52, 15. */
export const PACKED_FRAME_FLOATS = 1 + 3 + 3 + 3 + 3 + 6 + 2 + 52 + 15;

/** Packs frames into `out` from float `offset` on; returns the offset after them. */
export function packFramesInto(frames: readonly DriveFrame[], out: Float32Array, offset: number): number {
  let o = offset;
  for (const f of frames) {
    out[o++] = f.index;
    for (const field of [
      f.translation,
      f.rotation,
      f.neckPose,
      f.jawPose,
      f.eyePose,
      f.eyeLid,
      f.expression,
      f.visemes,
    ]) {
      out.set(field, o);
      o += field.length;
    }
  }
  return o;
}

/** Inverse of {@link packFramesInto}: frames whose fields are views into `packed`. */
export function unpackFrames(packed: Float32Array): DriveFrame[] {
  const frames: DriveFrame[] = [];
  for (let o = 0; o + PACKED_FRAME_FLOATS <= packed.length; o += PACKED_FRAME_FLOATS) {
    let p = o + 1;
    const take = (n: number): Float32Array => {
      const view = packed.subarray(p, p + n);
      p += n;
      return view;
    };
    frames.push({
      index: packed[o]!,
      translation: take(3),
      rotation: take(3),
      neckPose: take(3),
      jawPose: take(3),
      eyePose: take(6),
      eyeLid: take(2),
      expression: take(52),
      visemes: take(15),
    });
  }
  return frames;
}
