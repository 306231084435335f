/**
 * The engine seam of the service: a pool that hands each session an {@link EngineChannel}, a
 * per-session lip-sync driver (`createDriver` of @avatar-drive/engine) that runs inline on the
 * event loop or pinned to one worker thread. Results come back in call order.
 */
import type { DriveFrame } from '@avatar-drive/core';

/** The driver contract of @avatar-drive/engine. */
export interface DriveDriver {
  push(pcm: Int16Array): DriveFrame[];
  end(): DriveFrame[];
  reset(): void;
}

export interface DriverOptions {
  sampleRate: number;
  lookaheadMs?: number;
  seed?: number;
}

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
