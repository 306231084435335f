/**
 * Sequence numbers of a session's relay messages: one sequence per conversation and kind, from
 * 0, closed by `last` (core's relay format). The session already decoded each animation frame,
 * so it encodes relay messages with `encodeRelayMessage` and numbers them here instead of letting
 * core's RelayEncoder parse every animation payload a second time.
 */
import { AvatarError, type RelayKind } from '@avatar-drive/core';

interface Counter {
  next: number;
  ended: boolean;
}

export class RelayNumbering {
  readonly #streams = new Map<string, Record<RelayKind, Counter>>();
  readonly #max: number;

  /** @param maxConversations counters kept (oldest forgotten first); ids are never reused. */
  constructor(maxConversations = 1024) {
    this.#max = maxConversations;
  }

  /**
   * The number for the next message of `conversationId`'s `kind` stream.
   * @throws AvatarError `invalidState` after that stream's last message.
   */
  take(conversationId: string, kind: RelayKind, last: boolean): number {
    let streams = this.#streams.get(conversationId);
    if (!streams) {
      streams = { audio: { next: 0, ended: false }, animation: { next: 0, ended: false } };
      this.#streams.set(conversationId, streams);
      if (this.#streams.size > this.#max) {
        const oldest = this.#streams.keys().next().value;
        if (oldest !== undefined) this.#streams.delete(oldest);
      }
    }
    const counter = streams[kind];
    if (counter.ended) {
      throw new AvatarError(
        'invalidState',
        `Conversation ${conversationId} already sent its last ${kind} message.`,
      );
    }
    const sequence = counter.next;
    counter.next += 1;
    counter.ended = last;
    return sequence;
  }
}
