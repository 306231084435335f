/**
 * Runs drivers on worker threads. Each session is pinned to the least-loaded worker for its life,
 * so its driver state never moves; a worker that dies fails its sessions' pending calls (the
 * sessions end with 4503) and is replaced.
 */
import { Worker } from 'node:worker_threads';
import type { DriverOptions, EngineChannel, EnginePool, EngineResult } from './engine-pool.js';
import { unpackFrames } from './engine-pool.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.js';

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
    this.worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if (!('id' in reply)) return;
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) pending.reject(new Error(`engine error: ${reply.error}`));
      else pending.resolve({ frames: unpackFrames(reply.packed), cpuMs: reply.cpuMs });
    });
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.alive = false;
      for (const pending of this.pending.values()) pending.reject(new Error('engine worker exited'));
      this.pending.clear();
      onExit(this);
    });
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
    const post = (message: WorkerRequest, transfer?: ArrayBuffer[]) => {
      if (worker.alive) worker.worker.postMessage(message, transfer);
    };
    post({ op: 'open', channel, sampleRate });
    const call = (op: 'push' | 'end', pcm?: Int16Array): Promise<EngineResult> => {
      if (!worker.alive) return Promise.reject(new Error('engine worker exited'));
      const id = this.#nextId++;
      return new Promise((resolve, reject) => {
        worker.pending.set(id, { resolve, reject });
        if (op === 'push') {
          // Copy so the caller's buffer is never detached.
          const copy = pcm!.slice();
          post({ op, channel, id, pcm: copy }, [copy.buffer as ArrayBuffer]);
        } else {
          post({ op, channel, id });
        }
      });
    };
    let closed = false;
    return {
      push: (pcm) => call('push', pcm),
      end: () => call('end'),
      reset: () => post({ op: 'reset', channel }),
      close: () => {
        if (closed) return;
        closed = true;
        worker.channels -= 1;
        post({ op: 'close', channel });
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
