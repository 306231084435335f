/**
 * When a peer engine that has no frames of its own owes the bench a 25 fps frame: one per 40 ms of
 * input pushed, plus one for a partial frame at the end. The adapters sample the peer's state then.
 */
export class FrameSchedule {
  private readonly samplesPerFrame: number;
  private pushed = 0;
  private emitted = 0;

  constructor(inputRate: number) {
    this.samplesPerFrame = inputRate / 25;
  }

  /** Counts `samples` more input and returns how many frames became due. */
  advance(samples: number): number {
    this.pushed += samples;
    const due = Math.floor(this.pushed / this.samplesPerFrame) - this.emitted;
    this.emitted += due;
    return due;
  }

  /** Duration of `samples` of input, in ms. */
  durationMs(samples: number): number {
    return (samples / this.samplesPerFrame) * 40;
  }

  /** True when input past the last whole frame is waiting for a final (partial) frame. */
  hasTail(): boolean {
    return this.pushed > this.emitted * this.samplesPerFrame;
  }
}
