/**
 * The engine seam of the service: a pool that hands each session an {@link EngineChannel}, a
 * per-session lip-sync driver (`createDriver` of @avatar-drive/engine) that runs inline on the
 * event loop or pinned to one worker thread. Results come back in call order.
 */
import type { DriveFrame } from '@avatar-drive/core';
import type { Driver, DriverOptions as EngineDriverOptions } from '@avatar-drive/engine';

/** What the pool uses of @avatar-drive/engine's driver (imported, so the compiler checks they agree). */
export type DriveDriver = Pick<Driver, 'push' | 'end' | 'reset'> & Partial<Pick<Driver, 'close' | 'recycle'>>;

/** The driver options the pool passes (a subset of the engine's, checked against them). */
export type DriverOptions = Pick<EngineDriverOptions, 'sampleRate' | 'lookaheadMs' | 'seed' | 'backend'>;

export type DriverFactory = (options: DriverOptions) => DriveDriver;

/** Frames from one engine call, and the engine time it took. */
export interface EngineResult {
  frames: DriveFrame[];
  /** Milliseconds the engine computed (on whichever thread ran it). */
  cpuMs: number;
}

/** One session's driver. Calls are processed strictly in order. */
export interface EngineChannel {
  /** Runs `pcm` through the driver. The pool may read `pcm` until the promise settles: do not reuse it. */
  push(pcm: Int16Array): Promise<EngineResult>;
  /** Flushes the current utterance. */
  end(): Promise<EngineResult>;
  /**
   * Present when the driver runs on the caller's thread (inline pool): `push` and `end` computed
   * synchronously, without a promise, a closure and a microtask per call. Same order rules.
   */
  readonly now?: {
    push(pcm: Int16Array): EngineResult;
    end(): EngineResult;
    /**
     * Hands frames of this channel's results back to the driver once the caller has sent them
     * (`Driver.recycle`): later frames reuse their arrays. Absent when the driver cannot.
     */
    recycle?(frames: readonly DriveFrame[]): void;
  };
  /** Forgets the current utterance (new request, interrupt). */
  reset(): void;
  close(): void;
}

export interface EnginePool {
  readonly mode: 'inline' | 'workers';
  /** Opens a channel for one session at `sampleRate`. */
  open(sampleRate: number): EngineChannel;
  /** True while the pool can take sessions. */
  ready(): boolean;
  close(): Promise<void>;
}

/** Loads `createDriver` (or `exportName`) from a module specifier or file URL. */
export async function loadDriverFactory(
  specifier: string,
  exportName = 'createDriver',
): Promise<DriverFactory> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `Cannot load the engine module ${specifier} (${(error as Error).message}). Build the workspace (pnpm build) or pass --engine-module with a module exporting ${exportName}.`,
    );
  }
  const factory = mod[exportName];
  if (typeof factory !== 'function') {
    throw new Error(`Engine module ${specifier} has no function export "${exportName}".`);
  }
  return factory as DriverFactory;
}
