/** Fakes for unit tests: an audio output on a hand-moved clock. */
import type { PlaybackOutput } from '../../src/platform-seams.js';

export interface PlayedChunk {
  samples: Float32Array;
  sampleRate: number;
  when: number;
  stopped: boolean;
}

/** An audio output whose clock follows `Date.now()` (fake timers move it) and stops while suspended. */
export class FakeOutput implements PlaybackOutput {
  readonly played: PlayedChunk[] = [];
  volume = 1;
  suspended = false;
  #base = 0;
  #since = Date.now();

  get currentTime(): number {
    return this.suspended ? this.#base : this.#base + (Date.now() - this.#since) / 1000;
  }

  audibleTime(): number {
    return this.currentTime;
  }

  play(samples: Float32Array, sampleRate: number, when: number): () => void {
    const chunk = { samples, sampleRate, when, stopped: false };
    this.played.push(chunk);
    return () => {
      chunk.stopped = true;
    };
  }

  setVolume(volume: number): void {
    this.volume = volume;
  }

  async suspend(): Promise<void> {
    this.#base = this.currentTime;
    this.suspended = true;
  }

  async resume(): Promise<void> {
    if (!this.suspended) return;
    this.#since = Date.now();
    this.suspended = false;
  }

  async close(): Promise<void> {}
}

/** A clock moved by hand, for the scheduler alone. */
export class ManualSink {
  currentTime = 0;
  readonly played: PlayedChunk[] = [];

  play(samples: Float32Array, sampleRate: number, when: number): () => void {
    const chunk = { samples, sampleRate, when, stopped: false };
    this.played.push(chunk);
    return () => {
      chunk.stopped = true;
    };
  }
}
