/**
 * The server's model of client playback, behind ServerPlaybackState: requests play one after
 * another in real time as their audio arrives; played_ms is the audio time elapsed since a request
 * started playing, excluding paused time and never ahead of the audio received.
 */
import { performance } from 'node:perf_hooks';

export type PlaybackPhase = 'queued' | 'playing' | 'ended' | 'interrupted';

export interface PlaybackEntry {
  readonly reqId: string;
  phase: PlaybackPhase;
  /** Audio received so far, ms. */
  receivedMs: number;
  /** Audio played so far, ms. */
  playedMs: number;
  /** True once the request's end=true arrived. */
  inputEnded: boolean;
  /** True once its last animation went out (ENDED never precedes it). */
  outputDone: boolean;
  /**
   * The request's pace: the earliest (arrival time − audio received) of its chunks so far, on the
   * `performance.now()` clock; its audio received so far was due at `paceOrigin + receivedMs`.
   */
  paceOrigin: number;
  /** When its latest chunk arrived (`performance.now()`). */
  lastInputAt: number;
}

/**
 * A request whose input pauses this long between two chunks has paused on the client's side (a
 * loop that late shows in the event-loop lag): its pace starts again from the next chunk.
 */
export const PACE_GAP_MS = 500;

export type PlaybackEvent =
  | { kind: 'playing'; entry: PlaybackEntry }
  | { kind: 'ended'; entry: PlaybackEntry }
  | { kind: 'interrupted'; entry: PlaybackEntry; reason: 'explicit' | 'preempted' | 'pause_timeout' };

export class PlaybackClock {
  readonly #emit: (event: PlaybackEvent) => void;
  readonly #pauseTimeoutMs: number;
  readonly #queue: PlaybackEntry[] = [];
  #playing: PlaybackEntry | null = null;
  #lastTick = 0;
  #paused = false;
  #endTimer: NodeJS.Timeout | undefined;
  #pauseTimer: NodeJS.Timeout | undefined;

  constructor(emit: (event: PlaybackEvent) => void, pauseTimeoutMs: number) {
    this.#emit = emit;
    this.#pauseTimeoutMs = pauseTimeoutMs;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Adds a request; it plays once those before it have ended. */
  add(reqId: string): PlaybackEntry {
    const entry: PlaybackEntry = {
      reqId,
      phase: 'queued',
      receivedMs: 0,
      playedMs: 0,
      inputEnded: false,
      outputDone: false,
      paceOrigin: Number.POSITIVE_INFINITY,
      lastInputAt: Number.NEGATIVE_INFINITY,
    };
    this.#queue.push(entry);
    this.#startNext();
    return entry;
  }

  /**
   * More audio arrived for `entry`. Returns when output for the audio received so far is due
   * (`performance.now()` clock) at the request's own pace ({@link PlaybackEntry.paceOrigin}).
   */
  received(entry: PlaybackEntry, ms: number, inputEnded: boolean): number {
    const now = this.#tick();
    entry.receivedMs += ms;
    if (inputEnded) entry.inputEnded = true;
    const origin = now - entry.receivedMs;
    if (origin < entry.paceOrigin || now - entry.lastInputAt > PACE_GAP_MS) entry.paceOrigin = origin;
    entry.lastInputAt = now;
    if (entry === this.#playing) this.#scheduleEnd();
    return entry.paceOrigin + entry.receivedMs;
  }

  /** The last animation of `entry` was sent. */
  outputFinished(entry: PlaybackEntry): void {
    entry.outputDone = true;
    if (entry === this.#playing) {
      this.#tick();
      this.#scheduleEnd();
    }
  }

  /** Ends `entry` as INTERRUPTED now (no-op once it has finished). */
  interrupt(entry: PlaybackEntry, reason: 'explicit' | 'preempted' | 'pause_timeout'): void {
    if (entry.phase === 'ended' || entry.phase === 'interrupted') return;
    this.#tick();
    const i = this.#queue.indexOf(entry);
    if (i >= 0) this.#queue.splice(i, 1);
    entry.phase = 'interrupted';
    this.#emit({ kind: 'interrupted', entry, reason });
    if (entry === this.#playing) {
      this.#playing = null;
      clearTimeout(this.#endTimer);
      this.#startNext();
    }
  }

  /** Unfinished requests, oldest first. */
  unfinished(): PlaybackEntry[] {
    return this.#playing ? [this.#playing, ...this.#queue] : [...this.#queue];
  }

  pause(): void {
    this.#tick();
    if (this.#paused) return;
    this.#paused = true;
    clearTimeout(this.#endTimer);
    this.#pauseTimer = setTimeout(() => {
      this.#paused = false;
      for (const entry of this.unfinished()) this.interrupt(entry, 'pause_timeout');
    }, this.#pauseTimeoutMs);
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    clearTimeout(this.#pauseTimer);
    this.#lastTick = performance.now();
    this.#scheduleEnd();
  }

  /** Brings played_ms of the playing request up to now. */
  refresh(): void {
    this.#tick();
  }

  dispose(): void {
    clearTimeout(this.#endTimer);
    clearTimeout(this.#pauseTimer);
  }

  #tick(): number {
    const now = performance.now();
    const playing = this.#playing;
    if (playing && !this.#paused) {
      playing.playedMs = Math.min(playing.receivedMs, playing.playedMs + (now - this.#lastTick));
    }
    this.#lastTick = now;
    return now;
  }

  #startNext(): void {
    if (this.#playing) return;
    const next = this.#queue.shift();
    if (!next) return;
    this.#playing = next;
    this.#lastTick = performance.now();
    next.phase = 'playing';
    this.#emit({ kind: 'playing', entry: next });
    this.#scheduleEnd();
  }

  #scheduleEnd(): void {
    clearTimeout(this.#endTimer);
    const playing = this.#playing;
    if (!playing || this.#paused || !playing.inputEnded || !playing.outputDone) return;
    const remaining = playing.receivedMs - playing.playedMs;
    if (remaining <= 0.5) {
      this.#finish(playing);
      return;
    }
    this.#endTimer = setTimeout(() => {
      this.#tick();
      this.#scheduleEnd();
    }, Math.ceil(remaining));
  }

  #finish(entry: PlaybackEntry): void {
    entry.playedMs = entry.receivedMs;
    entry.phase = 'ended';
    this.#playing = null;
    this.#emit({ kind: 'ended', entry });
    this.#startNext();
  }
}
