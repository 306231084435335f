/**
 * Serial delivery of user callbacks: events are queued and delivered in order, and a callback
 * that triggers another event (e.g. calls `close()` from `onError`) never runs nested inside the
 * first — the new event waits until the current callback has returned.
 */
import { logger } from './logger.js';

/** Delivers queued thunks one at a time, in order, never re-entrantly. */
export class EventQueue {
  readonly #queue: Array<() => void> = [];
  #draining = false;

  /** Queues `deliver` and runs the queue unless a delivery is already running. */
  push(deliver: () => void): void {
    this.#queue.push(deliver);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
        try {
          next();
        } catch (error) {
          // A throwing app callback must not break the SDK's own state handling.
          logger.error('An app callback threw:', error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}
