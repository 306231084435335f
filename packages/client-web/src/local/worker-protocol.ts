/** Messages between {@link WorkerEngine} (page) and the engine worker. Internal to client-web. */

/** Page → worker. */
export type ToEngineWorker =
  | { op: 'open'; sampleRate: number; lookaheadMs?: number; seed?: number }
  /** `pcm`'s buffer is transferred. */
  | { op: 'push'; id: string; pcm: Int16Array; end: boolean }
  | { op: 'cancel'; id: string };

/** Worker → page. */
export type FromEngineWorker =
  | { op: 'ready' }
  /** `data`: packed frames (core's `packDriveFrames`), transferred. */
  | { op: 'frames'; id: string; data: Float32Array; end: boolean }
  | { op: 'failed'; code: string; message: string };
