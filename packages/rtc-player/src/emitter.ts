/**
 * core's typed emitter for the player's app-facing events: a listener that throws is logged and
 * does not stop the rest (the app's listeners are not the player's to fail on).
 */
import { TypedEmitter as CoreEmitter, type ListenerMap } from '@avatar-drive/core';

/** Typed `on` / `off` / `once` over an events map of listener signatures; listeners' errors are logged. */
export class TypedEmitter<Events extends ListenerMap<Events>> extends CoreEmitter<Events> {
  protected override callListener<E extends keyof Events>(
    event: E,
    listener: Events[E],
    args: Parameters<Events[E]>,
  ): void {
    try {
      listener(...args);
    } catch (error) {
      console.error(`[avatar-drive] a '${String(event)}' listener threw:`, error);
    }
  }
}
