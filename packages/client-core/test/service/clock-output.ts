/**
 * A Node audio output for the service tests: Node has no sound device, so this output's clock
 * is the real monotonic clock (performance.now) and "playing" records what would be heard when.
 * Everything else the controller does (scheduling, frames, states) runs as on a device.
 */
import type { PlaybackOutput } from '../../src/index.js';

export interface PlayedChunk {
  samples: Float32Array;
  sampleRate: number;
  when: number;
  stoppedAt: number | undefined;
}

export class ClockOutput implements PlaybackOutput {
  readonly played: PlayedChunk[] = [];
  #base = 0;
  #since = performance.now();
  #suspended = false;

  get currentTime(): number {
    return this.#suspended ? this.#base : this.#base + (performance.now() - this.#since) / 1000;
  }

  audibleTime(): number {
    return this.currentTime;
  }

  play(samples: Float32Array, sampleRate: number, when: number): () => void {
    const chunk: PlayedChunk = { samples, sampleRate, when, stoppedAt: undefined };
    this.played.push(chunk);
    return () => {
      chunk.stoppedAt ??= this.currentTime;
    };
  }

  /** Seconds of audio scheduled (and not cut before it started). */
  heardSeconds(): number {
    let total = 0;
    for (const c of this.played) {
      const length = c.samples.length / c.sampleRate;
      const end = c.stoppedAt === undefined ? c.when + length : Math.min(c.when + length, c.stoppedAt);
      total += Math.max(0, end - c.when);
    }
    return total;
  }

  setVolume(): void {}

  async suspend(): Promise<void> {
    this.#base = this.currentTime;
    this.#suspended = true;
  }

  async resume(): Promise<void> {
    if (!this.#suspended) return;
    this.#since = performance.now();
    this.#suspended = false;
  }

  async close(): Promise<void> {}
}
