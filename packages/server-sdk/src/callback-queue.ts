/**
 * Delivers user callbacks in order, one at a time. A callback may return a promise: the next one
 * waits for it. A callback that throws (or rejects) does not stop the queue: the failure is
 * handed to `onCallbackError`, then delivery goes on with the next callback.
 */

/** One queued delivery: the callback's name (for reports) and the call itself. */
interface Delivery {
  name: string;
  run: () => unknown;
}

export class CallbackQueue {
  readonly #items: Delivery[] = [];
  readonly #onCallbackError: (name: string, error: unknown) => void;
  #draining = false;
  #idleWaiters: (() => void)[] = [];

  /** @param onCallbackError told about a callback that threw; must not throw itself. */
  constructor(onCallbackError: (name: string, error: unknown) => void) {
    this.#onCallbackError = onCallbackError;
  }

  /** Deliveries waiting (not counting the one running). */
  get pending(): number {
    return this.#items.length;
  }

  /** Queues `run`; it runs after every earlier delivery finished. */
  push(name: string, run: () => unknown): void {
    this.#items.push({ name, run });
    if (!this.#draining) void this.#drain();
  }

  /** Resolves once everything queued so far (and anything queued meanwhile) was delivered. */
  idle(): Promise<void> {
    if (!this.#draining && this.#items.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    // Always start on a fresh microtask: a callback never runs inside the SDK call that queued it.
    await Promise.resolve();
    for (let item = this.#items.shift(); item; item = this.#items.shift()) {
      try {
        const result = item.run();
        if (isThenable(result)) await result;
      } catch (error) {
        this.#report(item.name, error);
      }
    }
    this.#draining = false;
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  #report(name: string, error: unknown): void {
    try {
      this.#onCallbackError(name, error);
    } catch {
      // The reporter is the last line; nothing sensible is left to do with its failure.
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
