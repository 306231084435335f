/**
 * A session's two time limits: the idle timeout (no message for too long) and the session
 * duration. One idle timer per session, re-armed only when it fires early: a message only records
 * its time ({@link SessionTimers.touch}) — a clearTimeout + setTimeout per 20 ms chunk was
 * measurable timer churn at hundreds of sessions.
 */
import { performance } from 'node:perf_hooks';

export class SessionTimers {
  readonly #idleMs: number;
  readonly #onIdle: () => void;
  readonly #durationTimer: NodeJS.Timeout;
  #idleTimer: NodeJS.Timeout | undefined;
  /** When the last message arrived (performance.now()); the idle timer re-arms from it. */
  #lastMessageAt = performance.now();
  #stopped = false;

  constructor(
    limits: { idleTimeoutMs: number; maxSessionMs: number },
    onIdle: () => void,
    onDuration: () => void,
  ) {
    this.#idleMs = limits.idleTimeoutMs;
    this.#onIdle = onIdle;
    this.#durationTimer = setTimeout(onDuration, limits.maxSessionMs);
    this.#arm(this.#idleMs);
  }

  /** A message arrived. */
  touch(): void {
    this.#lastMessageAt = performance.now();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#durationTimer);
  }

  #arm(delayMs: number): void {
    this.#idleTimer = setTimeout(
      () => {
        if (this.#stopped) return;
        const idleFor = performance.now() - this.#lastMessageAt;
        if (idleFor < this.#idleMs) this.#arm(this.#idleMs - idleFor);
        else this.#onIdle();
      },
      Math.max(1, Math.ceil(delayMs)),
    );
  }
}
