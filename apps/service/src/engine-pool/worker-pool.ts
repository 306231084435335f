/**
 * Runs drivers on worker threads. Each session is pinned to the least-loaded worker for its life,
 * so its driver state never moves; a worker that dies fails its sessions' pending calls (the
 * sessions end with 4503) and is replaced. Calls to one worker are batched per event-loop turn
 * (worker-protocol), in call order.
 */
import { Worker } from 'node:worker_threads';
import { PACKED_DRIVE_FRAME_FLOATS, unpackDriveFrames } from '@avatar-drive/core';
import type { DriverOptions, EngineChannel, EnginePool, EngineResult } from './engine-pool.js';
import {
  OP_CLOSE,
  OP_END,
  OP_OPEN,
  OP_PUSH,
  OP_RESET,
  type WorkerBatch,
  type WorkerBatchReply,
  type WorkerSetup,
} from './worker-protocol.js';

export interface WorkerPoolOptions {
  /** Number of worker threads. */
  size: number;
  /** Module specifier or file URL exporting the driver factory. */
  driverModule: string;
  driverExport?: string;
  driverOptions?: Omit<DriverOptions, 'sampleRate'>;
}

interface Pending {
  resolve: (result: EngineResult) => void;
  reject: (error: Error) => void;
}

class PoolWorker {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  channels = 0;
  alive = true;
  readonly started: Promise<void>;
  /** The batch being gathered this turn: ops as [op, channel, id, a, b], and its PCM chunks. */
  #ops: number[] = [];
  #pcm: Int16Array[] = [];
  #pcmLength = 0;
  #flushScheduled = false;

  constructor(setup: WorkerSetup, onExit: (w: PoolWorker) => void) {
    const fromSource = import.meta.url.endsWith('.ts');
    const url = new URL(fromSource ? './engine-worker.ts' : './engine-worker.js', import.meta.url);
    // From source (tests, tsx), the worker registers the TypeScript loader before loading itself.
    this.worker = fromSource
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
          { eval: true, workerData: setup },
        )
      : new Worker(url, { workerData: setup });
    this.worker.unref();
    this.started = new Promise((resolve, reject) => {
      const onFirst = (message: unknown) => {
        if ((message as { ready?: boolean }).ready) {
          this.worker.off('message', onFirst);
          resolve();
        }
      };
      this.worker.on('message', onFirst);
      this.worker.once('error', reject);
    });
    this.worker.on('message', (reply: WorkerBatchReply | { ready: true }) => {
      if (!('ids' in reply)) return;
      const failed = new Map(reply.errors);
      let at = 0;
      for (let i = 0; i < reply.ids.length; i++) {
        const id = reply.ids[i]!;
        const count = reply.frameCounts[i]!;
        const pending = this.pending.get(id);
        this.pending.delete(id);
        if (count < 0) {
          pending?.reject(new Error(`engine error: ${failed.get(id) ?? 'unknown'}`));
          continue;
        }
        const end = at + count * PACKED_DRIVE_FRAME_FLOATS;
        pending?.resolve({
          frames: unpackDriveFrames(reply.packed.subarray(at, end)),
          cpuMs: reply.cpuMs[i]!,
        });
        at = end;
      }
    });
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.alive = false;
      this.#ops = [];
      this.#pcm = [];
      for (const pending of this.pending.values()) pending.reject(new Error('engine worker exited'));
      this.pending.clear();
      onExit(this);
    });
  }

  /** Queues one op for this turn's batch; the batch goes out once the turn's I/O is handled. */
  enqueue(op: number, channel: number, id = 0, a = 0, pcm?: Int16Array): void {
    if (!this.alive) return;
    if (pcm) {
      this.#ops.push(op, channel, id, this.#pcmLength, pcm.length);
      this.#pcm.push(pcm);
      this.#pcmLength += pcm.length;
    } else {
      this.#ops.push(op, channel, id, a, 0);
    }
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (!this.alive || this.#ops.length === 0) return;
    // One copy of all PCM (the callers' buffers are never detached) and two transfers per batch.
    const pcm = new Int16Array(this.#pcmLength);
    let at = 0;
    for (const chunk of this.#pcm) {
      pcm.set(chunk, at);
      at += chunk.length;
    }
    const batch: WorkerBatch = { ops: Int32Array.from(this.#ops), pcm };
    this.#ops = [];
    this.#pcm = [];
    this.#pcmLength = 0;
    this.worker.postMessage(batch, [batch.ops.buffer as ArrayBuffer, pcm.buffer as ArrayBuffer]);
  }
}

export class WorkerEnginePool implements EnginePool {
  readonly mode = 'workers';
  readonly #setup: WorkerSetup;
  readonly #workers: PoolWorker[] = [];
  #nextId = 1;
  #nextChannel = 1;
  #closed = false;

  private constructor(options: WorkerPoolOptions) {
    this.#setup = {
      driverModule: options.driverModule,
      driverExport: options.driverExport ?? 'createDriver',
      driverOptions: options.driverOptions ?? {},
    };
    for (let i = 0; i < Math.max(1, options.size); i++) this.#spawn();
  }

  /** Starts the workers and waits until each has loaded the engine. */
  static async start(options: WorkerPoolOptions): Promise<WorkerEnginePool> {
    const pool = new WorkerEnginePool(options);
    try {
      await Promise.all(pool.#workers.map((w) => w.started));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  #spawn(): PoolWorker {
    const worker = new PoolWorker(this.#setup, (dead) => {
      const i = this.#workers.indexOf(dead);
      if (i >= 0) this.#workers.splice(i, 1);
      if (!this.#closed) this.#spawn();
    });
    this.#workers.push(worker);
    return worker;
  }

  open(sampleRate: number): EngineChannel {
    const alive = this.#workers.filter((w) => w.alive);
    if (alive.length === 0) throw new Error('no engine worker is running');
    const worker = alive.reduce((a, b) => (b.channels < a.channels ? b : a));
    const channel = this.#nextChannel++;
    worker.channels += 1;
    worker.enqueue(OP_OPEN, channel, 0, sampleRate);
    const call = (op: typeof OP_PUSH | typeof OP_END, pcm?: Int16Array): Promise<EngineResult> => {
      if (!worker.alive) return Promise.reject(new Error('engine worker exited'));
      const id = this.#nextId++;
      return new Promise((resolve, reject) => {
        worker.pending.set(id, { resolve, reject });
        worker.enqueue(op, channel, id, 0, pcm);
      });
    };
    let closed = false;
    return {
      push: (pcm) => call(OP_PUSH, pcm),
      end: () => call(OP_END),
      reset: () => worker.enqueue(OP_RESET, channel),
      close: () => {
        if (closed) return;
        closed = true;
        worker.channels -= 1;
        worker.enqueue(OP_CLOSE, channel);
      },
    };
  }

  ready(): boolean {
    return this.#workers.some((w) => w.alive);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#workers.map((w) => w.worker.terminate()));
    this.#workers.length = 0;
  }
}
