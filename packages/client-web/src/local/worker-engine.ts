/**
 * WorkerEngine: the on-device engine of `drivingServiceMode: 'local'` in a dedicated Worker, so
 * the page's main thread only posts audio and receives frames. The worker's code (engine and
 * weights and its WebAssembly module, ~62 KiB gzipped) is a separate chunk loaded by dynamic import on the first `open()`,
 * so pages that never drive locally never download it.
 */
import type { LocalEngine, LocalEngineEvents } from '@avatar-drive/client-core';
import {
  AvatarError,
  type AvatarErrorCode,
  isSupportedSampleRate,
  unpackDriveFrames,
} from '@avatar-drive/core';
import type { FromEngineWorker, ToEngineWorker } from './worker-protocol.js';

/** Options of the on-device engine (`localEngine` in the view's options). */
export interface LocalEngineOptions {
  /**
   * Audio awaited past the end of a frame before the engine emits it, ms (0..200, rounded down
   * to 20); default 20, the service's default. Frames match the service's for the same value.
   */
  lookaheadMs?: number;
  /** Seed of head motion, blinks and gaze; default 0 (the service's). */
  seed?: number;
  /**
   * Where to load the worker from instead of the package's inline copy: the URL of
   * `@avatar-drive/client-web/engine-worker.js` served by your site. For a Content-Security-Policy
   * whose `worker-src` does not allow `blob:`.
   */
  workerUrl?: string | URL;
}

let inlineWorkerUrl: Promise<string> | undefined;

/** A blob URL of the bundled worker, made once per page (workers started later reuse it). */
function bundledWorkerUrl(): Promise<string> {
  inlineWorkerUrl ??= import('../gen/engine-worker-source.js').then(({ ENGINE_WORKER_SOURCE }) =>
    URL.createObjectURL(new Blob([ENGINE_WORKER_SOURCE], { type: 'text/javascript' })),
  );
  inlineWorkerUrl.catch(() => {
    inlineWorkerUrl = undefined;
  });
  return inlineWorkerUrl;
}

/** {@link LocalEngine} over `@avatar-drive/engine` running in a Worker. */
export class WorkerEngine implements LocalEngine {
  readonly #options: LocalEngineOptions;
  #worker: Worker | undefined;
  #events: LocalEngineEvents | undefined;
  #closed = false;

  constructor(options: LocalEngineOptions = {}) {
    this.#options = options;
  }

  /**
   * Downloads the engine's chunk now rather than at `start()` (a view made in local mode does
   * this itself), so that speaking later makes no network request. Nothing to do with a
   * `workerUrl`: the worker file is loaded when the engine starts.
   * @throws AvatarError `connectionFailed` when the chunk cannot be loaded.
   */
  static async preload(options: LocalEngineOptions = {}): Promise<void> {
    if (options.workerUrl !== undefined) return;
    try {
      await bundledWorkerUrl();
    } catch (cause) {
      throw chunkFailed(cause);
    }
  }

  /**
   * Starts the worker and the engine in it for `sampleRate`.
   * @throws AvatarError `invalidState` where workers are unavailable or blocked (CSP),
   *   `unsupportedSampleRate`, `invalidRequest` for bad options, `connectionFailed` when the
   *   worker's code cannot be loaded.
   */
  async open(sampleRate: number, events: LocalEngineEvents): Promise<void> {
    if (this.#worker || this.#closed)
      throw new AvatarError('invalidState', 'WorkerEngine.open() was already called.');
    if (!isSupportedSampleRate(sampleRate)) {
      throw new AvatarError(
        'unsupportedSampleRate',
        `The on-device engine does not take ${sampleRate} Hz audio.`,
      );
    }
    if (typeof Worker === 'undefined') {
      throw new AvatarError(
        'invalidState',
        "This browser has no Web Workers; drivingServiceMode 'local' runs the engine in one. Use 'sdk' mode here.",
        { phase: 'connect' },
      );
    }
    let url: string | URL;
    try {
      url = this.#options.workerUrl ?? (await bundledWorkerUrl());
    } catch (cause) {
      throw chunkFailed(cause);
    }
    if (this.#closed) return;
    let worker: Worker;
    try {
      worker = new Worker(url, { name: 'avatar-drive-engine' });
    } catch (cause) {
      throw blockedWorker(cause);
    }
    this.#worker = worker;
    this.#events = events;
    await new Promise<void>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<FromEngineWorker>) => {
        const message = event.data;
        if (message.op === 'ready') resolve();
        else if (message.op === 'failed')
          reject(new AvatarError(message.code as AvatarErrorCode, message.message));
        else this.#receive(message);
      };
      // A worker script that cannot load (CSP, a 404 workerUrl) or throws at start.
      worker.onerror = (event) => {
        event.preventDefault();
        reject(blockedWorker(event.message));
      };
      this.#post({
        op: 'open',
        sampleRate,
        ...(this.#options.lookaheadMs !== undefined && { lookaheadMs: this.#options.lookaheadMs }),
        ...(this.#options.seed !== undefined && { seed: this.#options.seed }),
      });
    }).catch((error: unknown) => {
      this.close();
      throw error;
    });
    if (this.#closed) return;
    worker.onmessage = (event: MessageEvent<FromEngineWorker>) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new AvatarError('upstreamError', `The on-device engine crashed: ${event.message}`));
    };
  }

  push(id: string, pcm: Int16Array, end: boolean): void {
    // A copy: the caller (the controller) still plays `pcm`, and transferring would detach it.
    const copy = pcm.slice();
    this.#post({ op: 'push', id, pcm: copy, end }, [copy.buffer]);
  }

  cancel(id: string): void {
    this.#post({ op: 'cancel', id });
  }

  close(): void {
    this.#closed = true;
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#events = undefined;
  }

  #receive(message: FromEngineWorker): void {
    if (message.op === 'frames')
      this.#events?.onFrames(message.id, unpackDriveFrames(message.data), message.end);
    else if (message.op === 'failed')
      this.#fail(new AvatarError(message.code as AvatarErrorCode, message.message));
  }

  #fail(error: AvatarError): void {
    const events = this.#events;
    this.close();
    events?.onFailure(error);
  }

  #post(message: ToEngineWorker, transfer: Transferable[] = []): void {
    this.#worker?.postMessage(message, transfer);
  }
}

function chunkFailed(cause: unknown): AvatarError {
  return new AvatarError(
    'connectionFailed',
    'The on-device engine could not be downloaded (its chunk of @avatar-drive/client-web failed to load). Check the network and retry start().',
    { cause, phase: 'connect' },
  );
}

function blockedWorker(cause: unknown): AvatarError {
  return new AvatarError(
    'invalidState',
    "The engine's Worker could not start (a Content-Security-Policy without worker-src blob:, or a bad workerUrl). Allow blob: workers, or serve @avatar-drive/client-web/engine-worker.js and pass localEngine: { workerUrl }.",
    { cause, phase: 'connect' },
  );
}
