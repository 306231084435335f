/**
 * A small typed event emitter (the shape of LiveKit's `TypedEventEmitter`, without Node's
 * `events`, so it runs in browsers, React Native and Node): `on` / `once` / `off`, and a
 * protected `emit`, checked against a map of listener signatures. Listeners run synchronously in
 * the order they were added. What a listener throws reaches the emitter's caller (the seam
 * between SDK parts, where a failure belongs to the call that caused it); an emitter whose
 * listeners are app code overrides {@link TypedEmitter.callListener} to contain their errors.
 */

/** A map from event name to its listener's signature. */
// biome-ignore lint/suspicious/noExplicitAny: listener parameter lists are checked per event.
export type ListenerMap<Events> = { [E in keyof Events]: (...args: any[]) => void };

/** Emits the events of `Events` to typed listeners. */
export class TypedEmitter<Events extends ListenerMap<Events>> {
  readonly #listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  /** Adds `listener` for `event`; returns this. */
  on<E extends keyof Events>(event: E, listener: Events[E]): this {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return this;
  }

  /** Adds `listener` for the next `event` only; returns this. */
  once<E extends keyof Events>(event: E, listener: Events[E]): this {
    const wrapper = ((...args: Parameters<Events[E]>) => {
      this.off(event, wrapper);
      listener(...args);
    }) as Events[E];
    return this.on(event, wrapper);
  }

  /** Removes `listener` from `event`; returns this. */
  off<E extends keyof Events>(event: E, listener: Events[E]): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  /** Calls the listeners of `event` with `args`; returns whether there were any. */
  protected emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean {
    const set = this.#listeners.get(event);
    if (!set || set.size === 0) return false;
    for (const listener of [...set]) this.callListener(event, listener as Events[E], args);
    return true;
  }

  /** Calls one listener; by default what it throws propagates to the `emit` caller. */
  protected callListener<E extends keyof Events>(
    _event: E,
    listener: Events[E],
    args: Parameters<Events[E]>,
  ): void {
    listener(...args);
  }
}
