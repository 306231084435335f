/**
 * The seam of `drivingServiceMode: 'local'`: an on-device lip-sync engine the controller feeds
 * in place of the service. The platform supplies it (client-web: `@avatar-drive/engine` in a
 * Worker), off the UI thread. It mirrors what the service does with a session's audio, so the
 * frames are the service's: one driver per session, `end` flushes an utterance (speaker
 * adaptation carries over), cancelling an utterance whose audio has not ended resets the driver.
 */
import type { AvatarError, DriveFrame } from '@avatar-drive/core';

/** Where a {@link LocalEngine} delivers its results. */
export interface LocalEngineEvents {
  /** Frames of utterance `id`, in order (numbering continues across calls); `end` on its last call. */
  onFrames(id: string, frames: DriveFrame[], end: boolean): void;
  /** The engine stopped working (it crashed or could not start); it takes no more audio. */
  onFailure(error: AvatarError): void;
}

/** An on-device engine for one controller session (see `drivingServiceMode: 'local'`). */
export interface LocalEngine {
  /**
   * Loads the engine for mono s16 PCM at `sampleRate`; resolves once it takes audio.
   * @throws AvatarError when it cannot start (e.g. workers are blocked).
   */
  open(sampleRate: number, events: LocalEngineEvents): Promise<void>;
  /** Audio of utterance `id`: a new id starts an utterance; `end` closes it. */
  push(id: string, pcm: Int16Array, end: boolean): void;
  /** Drops utterance `id` (interrupt): when its audio has not ended, the driver is reset. */
  cancel(id: string): void;
  /** Stops the engine and frees it. */
  close(): void;
}

/** Creates the local engine of a controller (platform packages give a default). */
export type LocalEngineFactory = () => LocalEngine;
