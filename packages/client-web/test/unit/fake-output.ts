/** An audio output for unit tests: its clock follows `Date.now()` (fake timers move it). */
import type { PlaybackOutput } from '../../src/index.js';

export class FakeOutput implements PlaybackOutput {
  readonly played: Array<{ samples: Float32Array; when: number; stopped: boolean }> = [];
  readonly #since = Date.now();

  get currentTime(): number {
    return (Date.now() - this.#since) / 1000;
  }

  audibleTime(): number {
    return this.currentTime;
  }

  play(samples: Float32Array, _sampleRate: number, when: number): () => void {
    const chunk = { samples, when, stopped: false };
    this.played.push(chunk);
    return () => {
      chunk.stopped = true;
    };
  }

  setVolume(): void {}
  async suspend(): Promise<void> {}
  async resume(): Promise<void> {}
  async close(): Promise<void> {}
}
