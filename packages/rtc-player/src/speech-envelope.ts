/**
 * The player's transitions into and out of speech: a weight that rises over
 * `transitionStartFrameCount` frames while speech frames are present and falls over
 * `transitionEndFrameCount` frames after they stop, applied by blending the speech pose with the
 * neutral pose. Pure: time in, weight out.
 */

import { lerpFrame } from '@avatar-drive/client-web';
import { createDriveFrame, type DriveFrame, FRAME_MS } from '@avatar-drive/core';

const NEUTRAL = createDriveFrame();

/** Blends speech in and out of the neutral pose over whole frames (40 ms each). */
export class SpeechEnvelope {
  readonly #inPerMs: number;
  readonly #outPerMs: number;
  #weight = 0;
  #lastMs: number | undefined;
  #held: DriveFrame | undefined;

  /**
   * @param startFrames Frames to fade into speech (0 = at once).
   * @param endFrames Frames to fade back out (0 = at once).
   */
  constructor(startFrames: number, endFrames: number) {
    this.#inPerMs = startFrames > 0 ? 1 / (startFrames * FRAME_MS) : Infinity;
    this.#outPerMs = endFrames > 0 ? 1 / (endFrames * FRAME_MS) : Infinity;
  }

  /** Current weight of speech, 0 … 1. */
  get weight(): number {
    return this.#weight;
  }

  /**
   * The pose to show at local time `nowMs` given the speech pose for that instant (`undefined`
   * when there is none): speech faded in, the last speech pose faded out, then `undefined` (idle).
   */
  apply(nowMs: number, speech: DriveFrame | undefined): DriveFrame | undefined {
    const dt = this.#lastMs === undefined ? 0 : Math.max(0, Math.min(250, nowMs - this.#lastMs));
    this.#lastMs = nowMs;
    if (speech) {
      this.#held = speech;
      this.#weight = this.#inPerMs === Infinity ? 1 : Math.min(1, this.#weight + dt * this.#inPerMs);
    } else {
      this.#weight = this.#outPerMs === Infinity ? 0 : Math.max(0, this.#weight - dt * this.#outPerMs);
      if (this.#weight === 0) this.#held = undefined;
    }
    const pose = speech ?? this.#held;
    if (!pose || this.#weight === 0) return undefined;
    if (this.#weight === 1) return pose;
    const w = this.#weight * this.#weight * (3 - 2 * this.#weight);
    return { ...lerpFrame(NEUTRAL, pose, w), index: pose.index };
  }

  /** Drops speech at once. */
  cut(): void {
    this.#weight = 0;
    this.#held = undefined;
  }
}
