/**
 * Worker thread of the engine pool: holds the drivers of the sessions pinned to it, runs each batch
 * of calls in order and answers the batch with one message (see worker-protocol).
 */

import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { type DriveFrame, PACKED_DRIVE_FRAME_FLOATS, packDriveFramesInto } from '@avatar-drive/core';
import { type DriveDriver, loadDriverFactory } from './engine-pool.js';
import {
  OP_CLOSE,
  OP_END,
  OP_OPEN,
  OP_PUSH,
  OP_RESET,
  OP_SIZE,
  type WorkerBatch,
  type WorkerBatchReply,
  type WorkerSetup,
} from './worker-protocol.js';

const setup = workerData as WorkerSetup;
const factory = await loadDriverFactory(setup.driverModule, setup.driverExport);
const drivers = new Map<number, DriveDriver>();
const port = parentPort!;

port.on('message', ({ ops, pcm }: WorkerBatch) => {
  const ids: number[] = [];
  const counts: number[] = [];
  const cpu: number[] = [];
  const results: DriveFrame[][] = [];
  /** The driver of each entry of `results`, which gets its frames back once they are packed. */
  const owners: DriveDriver[] = [];
  const errors: [number, string][] = [];
  let frameTotal = 0;
  for (let o = 0; o < ops.length; o += OP_SIZE) {
    const op = ops[o]!;
    const channel = ops[o + 1]!;
    if (op === OP_OPEN) {
      drivers.set(channel, factory({ ...setup.driverOptions, sampleRate: ops[o + 3]! }));
      continue;
    }
    if (op === OP_CLOSE) {
      drivers.get(channel)?.close?.();
      drivers.delete(channel);
      continue;
    }
    if (op === OP_RESET) {
      drivers.get(channel)?.reset();
      continue;
    }
    if (op !== OP_PUSH && op !== OP_END) continue;
    const id = ops[o + 2]!;
    const driver = drivers.get(channel);
    ids.push(id);
    if (!driver) {
      counts.push(-1);
      cpu.push(0);
      errors.push([id, `engine channel ${channel} is not open`]);
      continue;
    }
    try {
      const start = performance.now();
      const frames =
        op === OP_PUSH ? driver.push(pcm.subarray(ops[o + 3]!, ops[o + 3]! + ops[o + 4]!)) : driver.end();
      cpu.push(performance.now() - start);
      counts.push(frames.length);
      if (frames.length > 0) {
        results.push(frames);
        owners.push(driver);
      }
      frameTotal += frames.length;
    } catch (error) {
      counts.push(-1);
      cpu.push(0);
      errors.push([id, (error as Error).message]);
    }
  }
  if (ids.length === 0) return;
  const packed = new Float32Array(frameTotal * PACKED_DRIVE_FRAME_FLOATS);
  let at = 0;
  for (let r = 0; r < results.length; r++) {
    at = packDriveFramesInto(results[r]!, packed, at);
    // Copied into `packed`: the driver may write its next frames into these.
    owners[r]!.recycle?.(results[r]!);
  }
  const reply: WorkerBatchReply = {
    ids: Int32Array.from(ids),
    frameCounts: Int32Array.from(counts),
    cpuMs: Float64Array.from(cpu),
    packed,
    errors,
  };
  port.postMessage(reply, [
    reply.ids.buffer as ArrayBuffer,
    reply.frameCounts.buffer as ArrayBuffer,
    reply.cpuMs.buffer as ArrayBuffer,
    packed.buffer as ArrayBuffer,
  ]);
});
port.postMessage({ ready: true });
