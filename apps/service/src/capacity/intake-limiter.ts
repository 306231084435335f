/**
 * Caps how fast one session's audio is taken in, as a multiple of real time, so that a client
 * sending audio as fast as it can does not take the engine (and the event loop) from everyone else.
 *
 * A token bucket of audio time: it holds at most `factor × window` of audio (the burst a client
 * may send at once, e.g. a TTS reply that is already complete) and refills at `factor` × real
 * time. Audio beyond it is not dropped: the session's socket stops being read (TCP backpressure
 * reaches the client) until the bucket has refilled, so the client is slowed to the cap and
 * every byte it sent is still processed in order. Over any interval T the session gets at most
 * `factor × (window + T)` of audio in.
 *
 * Every message also costs a little of the same budget ({@link MESSAGE_COST_MS}), whatever it
 * carries: a flood of empty or one-sample audio frames, or of control messages each answered
 * with an error, is slowed the same way instead of taking a core (and, through the overload
 * guard, everyone else's new sessions). A steady client (50 chunks a second) spends 0.25 s of
 * its 4 s per second on it.
 */

/** What one message costs, in ms of the audio budget, besides the audio it carries. */
export const MESSAGE_COST_MS = 5;

/** The part of a socket the limiter drives. */
export interface PausableSocket {
  pause(): unknown;
  resume(): unknown;
  isPaused(): boolean;
}

export interface IntakeLimits {
  /** Audio per wall-clock time allowed, e.g. 4 = four seconds of audio per second. 0 = no limit. */
  maxIntakeRealtimeFactor: number;
  /** The burst allowance, in wall-clock ms at that rate. */
  intakeWindowMs: number;
}

export class IntakeLimiter {
  readonly #socket: PausableSocket;
  readonly #factor: number;
  readonly #capacityMs: number;
  readonly #now: () => number;
  /** Audio (ms) the session may still send before it is slowed; negative = owed. */
  #budgetMs: number;
  #refilledAt: number;
  #resumeTimer: NodeJS.Timeout | undefined;
  /** Times the socket was paused (diagnostics and tests). */
  pauses = 0;

  readonly #heldElsewhere: () => boolean;

  /**
   * @param heldElsewhere true while something else (the slow-reader backpressure) keeps the socket
   * paused: the limiter then leaves resuming to it.
   */
  constructor(
    socket: PausableSocket,
    limits: IntakeLimits,
    heldElsewhere: () => boolean = () => false,
    now: () => number = () => performance.now(),
  ) {
    this.#socket = socket;
    this.#heldElsewhere = heldElsewhere;
    this.#factor = limits.maxIntakeRealtimeFactor;
    this.#capacityMs = limits.maxIntakeRealtimeFactor * limits.intakeWindowMs;
    this.#now = now;
    this.#budgetMs = this.#capacityMs;
    this.#refilledAt = now();
  }

  /** Counts `samples` of audio at `sampleRate` taken in; pauses the socket when over the cap. */
  admit(samples: number, sampleRate: number): void {
    if (samples === 0 || sampleRate <= 0) return;
    this.charge((samples * 1000) / sampleRate);
  }

  /** Counts one message taken in (any kind; see {@link MESSAGE_COST_MS}). */
  admitMessage(): void {
    this.charge(MESSAGE_COST_MS);
  }

  /** Spends `ms` of the budget; pauses the socket when over the cap. No allocation. */
  charge(ms: number): void {
    if (this.#factor <= 0) return;
    this.#refill();
    this.#budgetMs -= ms;
    if (this.#budgetMs >= 0) return;
    // (Another holder of the socket may have resumed it meanwhile: pause again.)
    if (!this.#socket.isPaused()) {
      this.pauses++;
      this.#socket.pause();
    }
    if (!this.#resumeTimer) this.#scheduleResume();
  }

  /** Stops the limiter (session closed): nothing is resumed or scheduled after this. */
  dispose(): void {
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = undefined;
  }

  #refill(): void {
    const now = this.#now();
    this.#budgetMs = Math.min(this.#capacityMs, this.#budgetMs + (now - this.#refilledAt) * this.#factor);
    this.#refilledAt = now;
  }

  #scheduleResume(): void {
    const waitMs = Math.max(1, Math.ceil(-this.#budgetMs / this.#factor));
    this.#resumeTimer = setTimeout(() => {
      this.#resumeTimer = undefined;
      this.#refill();
      if (this.#budgetMs < 0) {
        this.#scheduleResume();
        return;
      }
      if (this.#socket.isPaused() && !this.#heldElsewhere()) this.#socket.resume();
    }, waitMs);
  }
}
