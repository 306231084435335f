/**
 * Tells when the avatar's animation has stopped arriving while its audio plays (the frames fell
 * behind or their data channel stalled): `stalled` once per episode, `recovered` when frames
 * cover the audio again. Pure: observations in, transitions out.
 */

/** One observation of the player, taken at every stats poll. */
export interface StallObservation {
  /** Local time (ms). */
  nowMs: number;
  /** Whether the avatar's audio track carries sound right now. */
  audioPlaying: boolean;
  /** Whether a speech frame covers the instant being heard. */
  framesCover: boolean;
  /** Local time the last frame packet arrived (ms), if any. */
  lastPacketAtMs: number | undefined;
}

/** Detects stalls with a grace period. */
export class StallDetector {
  readonly #afterMs: number;
  #stalled = false;
  #uncoveredSinceMs: number | undefined;

  /** @param afterMs How long audio must play without frames before it counts; default 500 ms. */
  constructor(afterMs = 500) {
    this.#afterMs = afterMs;
  }

  /** True between `stalled` and `recovered`. */
  get isStalled(): boolean {
    return this.#stalled;
  }

  /** Returns the transition this observation causes, if any. */
  observe(o: StallObservation): 'stalled' | 'recovered' | undefined {
    if (o.framesCover) {
      this.#uncoveredSinceMs = undefined;
      if (this.#stalled) {
        this.#stalled = false;
        return 'recovered';
      }
      return undefined;
    }
    if (!o.audioPlaying) {
      this.#uncoveredSinceMs = undefined;
      return undefined;
    }
    this.#uncoveredSinceMs ??= o.nowMs;
    const quietFor = o.lastPacketAtMs === undefined ? Infinity : o.nowMs - o.lastPacketAtMs;
    if (!this.#stalled && o.nowMs - this.#uncoveredSinceMs >= this.#afterMs && quietFor >= this.#afterMs) {
      this.#stalled = true;
      return 'stalled';
    }
    return undefined;
  }

  /** Forgets the episode (after a reconnect). */
  reset(): void {
    this.#stalled = false;
    this.#uncoveredSinceMs = undefined;
  }
}
