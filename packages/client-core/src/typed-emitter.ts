/**
 * A small typed event emitter (the shape of LiveKit's `TypedEventEmitter`, without Node's
 * `events`): `on` / `off` / `emit` checked against an events map. Listeners run synchronously in
 * the order they were added; a listener that throws stops the emit and the error reaches the
 * emitter's caller, as with Node's EventEmitter.
 */

/** A map from event name to its listener's signature. */
// biome-ignore lint/suspicious/noExplicitAny: listener parameter lists are checked per event.
export type EventMap = { [event: string]: (...args: any[]) => void };

/** Emits the events of `Events` to typed listeners. */
export class TypedEmitter<Events extends EventMap> {
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

  /** Removes `listener` from `event`; returns this. */
  off<E extends keyof Events>(event: E, listener: Events[E]): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  /** Calls the listeners of `event` with `args`; returns whether there were any. */
  protected emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean {
    const set = this.#listeners.get(event);
    if (!set || set.size === 0) return false;
    for (const listener of [...set]) (listener as (...a: Parameters<Events[E]>) => void)(...args);
    return true;
  }
}
