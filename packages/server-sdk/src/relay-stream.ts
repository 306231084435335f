/**
 * One ordered stream of a session's relay events, to put on any transport: iterate it
 * (`for await`), or listen to `event`. Events are buffered from the moment the stream is
 * created until they are consumed.
 */
import { EventEmitter } from 'node:events';
import { AvatarError } from '@avatar-drive/core';
import type { RelayEvent } from './relay-events.js';

/** Events of {@link RelayStream}. */
export interface RelayStreamEvents {
  /** Every relay event, in order. */
  event: [RelayEvent];
  /** The session closed; no event follows. */
  end: [];
}

/**
 * A session's relay events in order. Single consumer when iterated; any number of `event`
 * listeners. Ends (iterator done, `end` emitted) when the session closes.
 *
 * @example
 * ```ts
 * const relay = session.relay();
 * for await (const event of relay) ws.send(event.data); // binary: relay message, text: control
 * ```
 */
export class RelayStream extends EventEmitter<RelayStreamEvents> implements AsyncIterable<RelayEvent> {
  readonly #buffer: RelayEvent[] = [];
  #ended = false;
  #waiter: (() => void) | undefined;
  #iterating = false;
  readonly #onListenerError: (error: unknown) => void;

  /** @internal Created by `AvatarSession.relay()`. */
  constructor(onListenerError: (error: unknown) => void = () => undefined) {
    super();
    this.#onListenerError = onListenerError;
  }

  /** True once the session closed. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Events waiting for the iterator. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** @internal Called by the session, in order. */
  push(event: RelayEvent): void {
    if (this.#ended) return;
    if (this.#iterating || this.listenerCount('event') === 0) this.#buffer.push(event);
    try {
      this.emit('event', event);
    } catch (error) {
      // A throwing listener must not break the session or the order of what follows.
      this.#onListenerError(error);
    }
    this.#wake();
  }

  /** @internal Called by the session once, when it closed. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.emit('end');
    } catch (error) {
      this.#onListenerError(error);
    }
    this.#wake();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RelayEvent> {
    if (this.#iterating) {
      throw new AvatarError(
        'invalidState',
        'A RelayStream has one iterator; call session.relay() again for another consumer.',
      );
    }
    this.#iterating = true;
    try {
      for (;;) {
        const next = this.#buffer.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (this.#ended) return;
        await new Promise<void>((resolve) => {
          this.#waiter = resolve;
        });
      }
    } finally {
      this.#iterating = false;
    }
  }
}
