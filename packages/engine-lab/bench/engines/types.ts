/** What the bench needs from every engine it scores. */
import type { FramePrediction } from '../metrics.js';

/** One utterance's causal stream: audio in, one prediction per 25 fps frame out, in order. */
export interface BenchStream {
  /** Feeds the next chunk of mono s16le PCM; returns the frames that became available. */
  push(pcm: Int16Array): FramePrediction[];
  /** Signals the end of the utterance; returns any frames still pending. */
  end(): FramePrediction[];
  /**
   * CPU seconds this stream spent on the bench's own work (resampling a peer's input, which a browser's
   * AudioContext does natively); the runner subtracts it from the engine's time.
   */
  readonly overheadCpuSeconds?: number;
}

/** An engine row of the table. */
export interface BenchEngine {
  /** Row label. */
  readonly name: string;
  /** One line on how it is run (printed under the table). */
  readonly note: string;
  /** Opens a fresh stream for an utterance at its native sample rate. */
  open(sampleRate: number): Promise<BenchStream>;
}
