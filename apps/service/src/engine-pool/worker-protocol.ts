/**
 * Messages between the engine pool and its worker threads. Calls are batched: everything the event
 * loop asked of one worker during one turn goes in one message (ops in one Int32Array, all PCM in
 * one Int16Array, both transferred), and the worker answers the whole batch in one message. Two
 * `postMessage`s per 20 ms chunk per session cost more than the engine work they moved.
 */
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
  /** Every call's frames, packed (core's `packDriveFramesInto`), concatenated. */
  packed: Float32Array;
  /** Error messages of failed calls, by call id. */
  errors: [id: number, message: string][];
}
