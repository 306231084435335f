/** A small typed event emitter; listeners run in order and one that throws does not stop the rest. */

// biome-ignore lint/suspicious/noExplicitAny: listener signatures vary per event
type Listener = (...args: any[]) => void;

/** Typed `on` / `off` / `once` over an events map of listener signatures. */
export class TypedEmitter<Events extends { [K in keyof Events]: Listener }> {
  readonly #listeners = new Map<keyof Events, Set<Listener>>();

  /** Adds `listener` for `event`. */
  on<E extends keyof Events>(event: E, listener: Events[E]): this {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return this;
  }

  /** Adds `listener` for the next `event` only. */
  once<E extends keyof Events>(event: E, listener: Events[E]): this {
    const wrapper = ((...args: unknown[]) => {
      this.off(event, wrapper as Events[E]);
      listener(...args);
    }) as Events[E];
    return this.on(event, wrapper);
  }

  /** Removes `listener` for `event`. */
  off<E extends keyof Events>(event: E, listener: Events[E]): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  /** Calls the listeners of `event`; returns false when there were none. */
  protected emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean {
    const set = this.#listeners.get(event);
    if (!set || set.size === 0) return false;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        console.error(`[avatar-drive] a '${String(event)}' listener threw:`, error);
      }
    }
    return true;
  }
}
