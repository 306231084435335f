/**
 * The two numbers that map the service's clock onto the moment a sample is heard here
 * (docs/rtc.md, "Alignment"): the clock offset plus path delay, from frame packet send times,
 * and the playout delay of the avatar's audio track, from the receiver's jitter-buffer stats.
 * Pure: times in, estimates out.
 */

/**
 * `offset = min(arrival − sentAtMs)` over a sliding window: the clock difference between the
 * service and this page plus the shortest path delay. The window follows clock drift.
 */
export class ClockOffsetEstimator {
  readonly #windowMs: number;
  /** (arrivalMs, d) with d increasing: the candidates for the window's minimum. */
  readonly #candidates: Array<{ at: number; d: number }> = [];

  /** @param windowMs How long a sample counts; default 10 s. */
  constructor(windowMs = 10_000) {
    this.#windowMs = windowMs;
  }

  /** Records a packet sent at `sentAtMs` (service clock) that arrived at `arrivalMs` (local). */
  add(sentAtMs: number, arrivalMs: number): void {
    if (!Number.isFinite(sentAtMs) || !Number.isFinite(arrivalMs)) return;
    const d = arrivalMs - sentAtMs;
    const c = this.#candidates;
    while (c.length > 0 && c[c.length - 1]!.d >= d) c.pop();
    c.push({ at: arrivalMs, d });
    while (c.length > 1 && c[0]!.at < arrivalMs - this.#windowMs) c.shift();
  }

  /** Local time minus service time, plus the path delay; `undefined` before the first packet. */
  get offsetMs(): number | undefined {
    return this.#candidates[0]?.d;
  }

  /** Forgets every sample (after a reconnect the path changes). */
  reset(): void {
    this.#candidates.length = 0;
  }
}

/** The inbound-rtp counters of the avatar's audio receiver that the delay is computed from. */
export interface JitterStatsSample {
  /** Local time of the sample (ms). */
  atMs: number;
  /** `jitterBufferDelay`, seconds, cumulative. */
  jitterBufferDelay: number;
  /** `jitterBufferEmittedCount`, samples, cumulative. */
  jitterBufferEmittedCount: number;
  /** `totalAudioEnergy`, cumulative (optional: used to tell whether audio is playing). */
  totalAudioEnergy?: number | undefined;
  /** `totalSamplesDuration`, seconds, cumulative. */
  totalSamplesDuration?: number | undefined;
}

/**
 * Playout delay of the audio track: the recent jitter-buffer delay
 * (Δ`jitterBufferDelay` / Δ`jitterBufferEmittedCount` over the last `windowMs`, not the lifetime
 * average) plus a constant for what follows the jitter buffer (decoding, mixing, output).
 */
export class PlayoutDelayEstimator {
  readonly #windowMs: number;
  readonly #pipelineMs: number;
  readonly #samples: JitterStatsSample[] = [];

  /**
   * @param pipelineMs Delay after the jitter buffer (ms); default 40.
   * @param windowMs How far back "recent" reaches; default 1 s.
   */
  constructor(pipelineMs = 40, windowMs = 1000) {
    this.#pipelineMs = pipelineMs;
    this.#windowMs = windowMs;
  }

  /** Records one stats sample; counters that went backwards (a new receiver) restart the history. */
  add(sample: JitterStatsSample): void {
    if (!Number.isFinite(sample.jitterBufferDelay) || !Number.isFinite(sample.jitterBufferEmittedCount))
      return;
    const last = this.#samples[this.#samples.length - 1];
    if (last && sample.jitterBufferEmittedCount < last.jitterBufferEmittedCount) this.#samples.length = 0;
    this.#samples.push(sample);
    // Keep one sample at or before the window's start so the window is always covered.
    while (this.#samples.length > 2 && this.#samples[1]!.atMs <= sample.atMs - this.#windowMs)
      this.#samples.shift();
  }

  /** The recent jitter-buffer delay alone (ms), or `undefined` while nothing was emitted. */
  get jitterBufferMs(): number | undefined {
    const s = this.#samples;
    const last = s[s.length - 1];
    if (!last) return undefined;
    const first = s[0]!;
    const emitted = last.jitterBufferEmittedCount - first.jitterBufferEmittedCount;
    if (emitted > 0) return ((last.jitterBufferDelay - first.jitterBufferDelay) / emitted) * 1000;
    // No new audio in the window: the lifetime average is the best guess.
    if (last.jitterBufferEmittedCount > 0)
      return (last.jitterBufferDelay / last.jitterBufferEmittedCount) * 1000;
    return undefined;
  }

  /** Jitter-buffer delay plus the pipeline constant (ms); the constant alone before any stats. */
  get delayMs(): number {
    return (this.jitterBufferMs ?? 0) + this.#pipelineMs;
  }

  /**
   * Mean power of the audio received between the last two samples (0 … 1, from
   * `totalAudioEnergy` / `totalSamplesDuration`), or `undefined` when the stats lack them.
   */
  get recentPower(): number | undefined {
    const s = this.#samples;
    if (s.length < 2) return undefined;
    const a = s[s.length - 2]!;
    const b = s[s.length - 1]!;
    if (
      a.totalAudioEnergy === undefined ||
      b.totalAudioEnergy === undefined ||
      a.totalSamplesDuration === undefined ||
      b.totalSamplesDuration === undefined
    ) {
      return undefined;
    }
    const duration = b.totalSamplesDuration - a.totalSamplesDuration;
    return duration > 0 ? Math.max(0, b.totalAudioEnergy - a.totalAudioEnergy) / duration : 0;
  }

  /** Forgets every sample. */
  reset(): void {
    this.#samples.length = 0;
  }
}

/** Reads the counters above from an `RTCStatsReport` of the audio receiver (inbound-rtp). */
export function jitterSampleFromStats(report: RTCStatsReport, atMs: number): JitterStatsSample | undefined {
  let found: JitterStatsSample | undefined;
  report.forEach((entry: Record<string, unknown>) => {
    if (entry.type !== 'inbound-rtp' || (entry.kind !== undefined && entry.kind !== 'audio')) return;
    const delay = entry.jitterBufferDelay;
    const count = entry.jitterBufferEmittedCount;
    if (typeof delay !== 'number' || typeof count !== 'number') return;
    found = {
      atMs,
      jitterBufferDelay: delay,
      jitterBufferEmittedCount: count,
      totalAudioEnergy: typeof entry.totalAudioEnergy === 'number' ? entry.totalAudioEnergy : undefined,
      totalSamplesDuration:
        typeof entry.totalSamplesDuration === 'number' ? entry.totalSamplesDuration : undefined,
    };
  });
  return found;
}
