/**
 * How late animation frames leave the service, measured where they are written (the socket
 * output), per window and in total: what the overload guard keys on and /metrics shows.
 *
 * A frame's deadline is when the audio that completed it was due at its request's own pace: the
 * request's earliest arrival relative to its audio ({@link PlaybackClock.received} keeps
 * `paceOrigin`, the minimum of arrival − audio received so far) plus the audio received. A client
 * streaming in real time sets the pace with its least-delayed chunk; a later chunk read late
 * (the event loop behind, the socket's bytes waiting for their turn) and the engine time after
 * it both show as lateness; a client that sends faster than real time is never late. Lateness
 * that is the same from a request's first chunk on (a loop already behind when it began) cannot
 * be told from network delay here: the event-loop lag measures that part.
 *
 * Recording costs a bucket lookup and two additions: no allocation per frame.
 */

/** Upper edges (ms) of the histogram's buckets: 1 ms steps to 50, then coarser; the last is open. */
const EDGES: readonly number[] = (() => {
  const edges: number[] = [];
  for (let ms = 1; ms <= 50; ms += 1) edges.push(ms);
  for (let ms = 55; ms <= 200; ms += 5) edges.push(ms);
  for (let ms = 225; ms <= 1000; ms += 25) edges.push(ms);
  for (let ms = 1250; ms <= 5000; ms += 250) edges.push(ms);
  return edges;
})();

/** Bucket of a lateness in ms (the overflow bucket past the last edge). */
function bucketOf(ms: number): number {
  if (!(ms > 0)) return 0; // early, on time, or NaN
  if (ms <= 50) return Math.ceil(ms) - 1;
  if (ms <= 200) return 50 + Math.ceil((ms - 50) / 5) - 1;
  if (ms <= 1000) return 80 + Math.ceil((ms - 200) / 25) - 1;
  if (ms <= 5000) return 112 + Math.ceil((ms - 1000) / 250) - 1;
  return EDGES.length;
}

/** A fixed-bucket histogram of lateness in ms; percentiles answer a bucket's upper edge. */
export class LatenessHistogram {
  readonly #counts = new Float64Array(EDGES.length + 1);
  #total = 0;

  /** Adds `count` frames that were `ms` late. */
  add(ms: number, count = 1): void {
    this.#counts[bucketOf(ms)]! += count;
    this.#total += count;
  }

  /** Frames recorded since the last {@link reset}. */
  get count(): number {
    return this.#total;
  }

  /**
   * The lateness (ms, a bucket's upper edge: never under the true value by more than its
   * bucket's width) that `p` % of the frames did not exceed; 0 when empty. Past the last bucket: 5000+.
   */
  percentile(p: number): number {
    if (this.#total === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.#total));
    let seen = 0;
    for (let i = 0; i < this.#counts.length; i++) {
      seen += this.#counts[i]!;
      if (seen >= rank) return i < EDGES.length ? EDGES[i]! : EDGES[EDGES.length - 1]! * 2;
    }
    return EDGES[EDGES.length - 1]! * 2;
  }

  reset(): void {
    this.#counts.fill(0);
    this.#total = 0;
  }
}

/** What one window of frame lateness held. */
export interface LatenessWindow {
  /** Frames recorded in the window. */
  frames: number;
  /** p99 lateness, ms (0 when no frame). */
  p99Ms: number;
  /** p50 lateness, ms. */
  p50Ms: number;
}

/** The service's frame-lateness meter: one window at a time for the guard, totals for /metrics. */
export class FrameLateness {
  readonly #window = new LatenessHistogram();
  /** Frames later than {@link lateMs}, ever (a counter on /metrics). */
  lateFrames = 0;
  /** Frames measured, ever. */
  frames = 0;
  /** What counts as late for {@link lateFrames}, ms. */
  readonly lateMs: number;

  constructor(lateMs = 40) {
    this.lateMs = lateMs;
  }

  /** `count` frames written `ms` after their deadline (negative: early). */
  record(ms: number, count: number): void {
    this.#window.add(ms, count);
    this.frames += count;
    if (ms > this.lateMs) this.lateFrames += count;
  }

  /** The window since the last call, and starts the next. */
  takeWindow(): LatenessWindow {
    const w = this.#window;
    const result = { frames: w.count, p99Ms: w.percentile(99), p50Ms: w.percentile(50) };
    w.reset();
    return result;
  }
}
