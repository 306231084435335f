/**
 * The sending side of the Host-mode relay (used by server-sdk): numbers each conversation's
 * audio and animation messages.
 *
 * Audio and animation have one sequence each. They come from different producers (the
 * developer's audio stream, the service's animation stream), their relative order depends on
 * engine latency, and the developer may carry them on separate channels; a shared sequence
 * would make a legitimate interleaving look like loss or reordering.
 */
import { fromBinary, isMessage, toBinary } from '@bufbuild/protobuf';
import { AvatarError } from '../errors.js';
import {
  type ServerResponseAnimation,
  ServerResponseAnimationSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';
import { toBytes } from '../wire/codec.js';
import { encodeRelayMessage, type RelayKind } from './format.js';

/** Options of {@link RelayEncoder}. */
export interface RelayEncoderOptions {
  /**
   * How many conversations' counters to keep (oldest forgotten first); default 1024. A
   * forgotten conversation id must not be reused.
   */
  maxConversations?: number;
}

interface StreamCounter {
  next: number;
  ended: boolean;
}

/** Stateful relay encoder: one instance per session (per client the messages go to). */
export class RelayEncoder {
  readonly #maxConversations: number;
  readonly #streams = new Map<string, Record<RelayKind, StreamCounter>>();

  constructor(options: RelayEncoderOptions = {}) {
    const max = options.maxConversations ?? 1024;
    if (!Number.isInteger(max) || max < 1) {
      throw new AvatarError('invalidRequest', `maxConversations must be a positive integer, got ${max}.`);
    }
    this.#maxConversations = max;
  }

  /**
   * Encodes a chunk of the PCM sent for `conversationId`.
   * @throws AvatarError `invalidState` after that conversation's last audio message.
   */
  audio(
    conversationId: string,
    pcm: Uint8Array | ArrayBufferView,
    options: { sampleRate: number; last?: boolean },
  ): Uint8Array {
    const last = options.last ?? false;
    const counter = this.#counter(conversationId, 'audio');
    const bytes = encodeRelayMessage({
      kind: 'audio',
      conversationId,
      sequence: counter.next,
      last,
      sampleRate: options.sampleRate,
      pcm: toBytes(pcm),
    });
    this.#advance(counter, last);
    return bytes;
  }

  /**
   * Encodes one ServerResponseAnimation for `conversationId`: pass the bytes received from the
   * service (relayed unchanged) or a parsed message (serialized here). `last` defaults to the
   * animation's `end`, which means parsing the bytes; a caller that decoded them already passes
   * `last` itself (also to close the stream on another message, e.g. after an interrupt).
   * @throws AvatarError `invalidState` after that conversation's last animation message.
   */
  animation(
    conversationId: string,
    animation: Uint8Array | ServerResponseAnimation,
    options: { last?: boolean } = {},
  ): Uint8Array {
    let payload: Uint8Array;
    let last: boolean;
    if (animation instanceof Uint8Array) {
      payload = animation;
      last = options.last ?? parseAnimation(animation).end;
    } else if (isMessage(animation, ServerResponseAnimationSchema)) {
      payload = toBinary(ServerResponseAnimationSchema, animation);
      last = options.last ?? animation.end;
    } else {
      throw new AvatarError(
        'invalidRequest',
        'Relay animation must be the ServerResponseAnimation bytes (a Uint8Array) or a ServerResponseAnimation message.',
      );
    }
    const counter = this.#counter(conversationId, 'animation');
    const bytes = encodeRelayMessage({
      kind: 'animation',
      conversationId,
      sequence: counter.next,
      last,
      payload: toBytes(payload),
    });
    this.#advance(counter, last);
    return bytes;
  }

  /** The sequence number the next message of this stream will carry. */
  nextSequence(conversationId: string, kind: RelayKind): number {
    return this.#streams.get(conversationId)?.[kind].next ?? 0;
  }

  #counter(conversationId: string, kind: RelayKind): StreamCounter {
    let streams = this.#streams.get(conversationId);
    if (streams === undefined) {
      streams = { audio: { next: 0, ended: false }, animation: { next: 0, ended: false } };
      this.#streams.set(conversationId, streams);
      if (this.#streams.size > this.#maxConversations) {
        const oldest = this.#streams.keys().next().value;
        if (oldest !== undefined) this.#streams.delete(oldest);
      }
    }
    const counter = streams[kind];
    if (counter.ended) {
      throw new AvatarError(
        'invalidState',
        `Conversation ${JSON.stringify(conversationId)} already sent its last ${kind} message; start a new conversation id.`,
      );
    }
    if (counter.next > 0xffffffff) {
      throw new AvatarError(
        'invalidState',
        `Conversation ${JSON.stringify(conversationId)} ran out of ${kind} sequence numbers.`,
      );
    }
    return counter;
  }

  #advance(counter: StreamCounter, last: boolean): void {
    counter.next += 1;
    if (last) counter.ended = true;
  }
}

function parseAnimation(payload: Uint8Array): ServerResponseAnimation {
  try {
    return fromBinary(ServerResponseAnimationSchema, payload);
  } catch (cause) {
    throw new AvatarError(
      'invalidRequest',
      'Animation bytes are not a serialized ServerResponseAnimation; pass the payload of the service message (see extractResponseAnimation).',
      { cause },
    );
  }
}
