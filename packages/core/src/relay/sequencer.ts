/**
 * The receiving side of the Host-mode relay (used by client-web): checks each conversation's
 * audio and animation sequence numbers so a transport that duplicates, loses or reorders
 * messages is reported as a protocolError instead of playing garbage.
 *
 * Sequence numbers start at 0 per conversation and kind and rise by one. On a gap the stream
 * resynchronizes past it (later messages are accepted again) and remembers the missing numbers,
 * so one that turns up later is told apart as out-of-order rather than duplicate.
 */
import { AvatarError } from '../errors.js';
import {
  type DecodedRelayMessage,
  type DecodeRelayOptions,
  decodeRelayMessage,
  type RelayKind,
} from './format.js';

/** What went wrong with a relay message's sequence number. */
export type RelaySequenceProblem = 'duplicate' | 'missing' | 'out-of-order' | 'after-last';

/** Options of {@link RelaySequencer}. */
export interface RelaySequencerOptions {
  /** Conversations tracked at once (least recently seen forgotten first); default 256. */
  maxConversations?: number;
  /** Missing ranges remembered per stream for out-of-order detection; default 64. */
  maxGaps?: number;
}

interface StreamState {
  next: number;
  ended: boolean;
  /** Half-open ranges [start, end) of sequence numbers skipped over and not yet seen. */
  gaps: Array<[number, number]>;
}

/** The sequence fields the sequencer looks at. */
export interface SequencedRelayMessage {
  kind: RelayKind;
  conversationId: string;
  sequence: number;
  last: boolean;
}

/** Checks relay sequence numbers per conversation and kind (audio and animation independently). */
export class RelaySequencer {
  readonly #maxConversations: number;
  readonly #maxGaps: number;
  readonly #conversations = new Map<string, Record<RelayKind, StreamState>>();

  constructor(options: RelaySequencerOptions = {}) {
    this.#maxConversations = positiveInteger('maxConversations', options.maxConversations ?? 256);
    this.#maxGaps = positiveInteger('maxGaps', options.maxGaps ?? 64);
  }

  /**
   * Accepts `message` if it is the next of its stream.
   * @throws AvatarError `protocolError` (details.problem: duplicate, missing, out-of-order, after-last).
   */
  check(message: SequencedRelayMessage): void {
    const state = this.#state(message.conversationId, message.kind);
    const seq = message.sequence;
    if (seq === state.next && !state.ended) {
      state.next += 1;
      if (message.last) state.ended = true;
      return;
    }
    if (seq < state.next) {
      if (takeFromGaps(state.gaps, seq)) {
        throw sequenceError(message, 'out-of-order', state.next, `arrived after message ${state.next - 1}`);
      }
      throw sequenceError(message, 'duplicate', state.next, 'was already received');
    }
    if (state.ended) {
      throw sequenceError(message, 'after-last', state.next, "came after the stream's last message");
    }
    const expected = state.next;
    state.gaps.push([expected, seq]);
    if (state.gaps.length > this.#maxGaps) state.gaps.shift();
    state.next = seq + 1;
    if (message.last) state.ended = true;
    throw sequenceError(
      message,
      'missing',
      expected,
      seq - expected === 1 ? `skips message ${expected}` : `skips messages ${expected}..${seq - 1}`,
    );
  }

  /** Drops what is known about a conversation (e.g. when the app discards it). */
  forget(conversationId: string): void {
    this.#conversations.delete(conversationId);
  }

  /** Drops every conversation. */
  reset(): void {
    this.#conversations.clear();
  }

  #state(conversationId: string, kind: RelayKind): StreamState {
    let streams = this.#conversations.get(conversationId);
    if (streams === undefined) {
      streams = {
        audio: { next: 0, ended: false, gaps: [] },
        animation: { next: 0, ended: false, gaps: [] },
      };
      if (this.#conversations.size >= this.#maxConversations) {
        const oldest = this.#conversations.keys().next().value;
        if (oldest !== undefined) this.#conversations.delete(oldest);
      }
    } else {
      // Re-insert to keep the map in least-recently-seen order.
      this.#conversations.delete(conversationId);
    }
    this.#conversations.set(conversationId, streams);
    return streams[kind];
  }
}

/** Options of {@link RelayDecoder}: sequencing and size limit. */
export interface RelayDecoderOptions extends RelaySequencerOptions, DecodeRelayOptions {}

/** Decodes relay messages and checks their sequence: the one call client-web needs per message. */
export class RelayDecoder {
  readonly #sequencer: RelaySequencer;
  readonly #decodeOptions: DecodeRelayOptions;

  constructor(options: RelayDecoderOptions = {}) {
    this.#sequencer = new RelaySequencer(options);
    this.#decodeOptions = options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes };
  }

  /**
   * Decodes `data` and checks it is the next message of its conversation's stream.
   * @throws AvatarError `protocolError` for malformed bytes or a sequence problem.
   */
  decode(data: unknown): DecodedRelayMessage {
    const message = decodeRelayMessage(data, this.#decodeOptions);
    this.#sequencer.check(message);
    return message;
  }

  /** See {@link RelaySequencer.forget}. */
  forget(conversationId: string): void {
    this.#sequencer.forget(conversationId);
  }

  /** See {@link RelaySequencer.reset}. */
  reset(): void {
    this.#sequencer.reset();
  }
}

function takeFromGaps(gaps: Array<[number, number]>, seq: number): boolean {
  const i = gaps.findIndex(([start, end]) => seq >= start && seq < end);
  if (i < 0) return false;
  const [start, end] = gaps[i]!;
  const rest: Array<[number, number]> = [];
  if (start < seq) rest.push([start, seq]);
  if (seq + 1 < end) rest.push([seq + 1, end]);
  gaps.splice(i, 1, ...rest);
  return true;
}

function sequenceError(
  message: SequencedRelayMessage,
  problem: RelaySequenceProblem,
  expected: number,
  what: string,
): AvatarError {
  return new AvatarError(
    'protocolError',
    `Relay ${message.kind} message ${message.sequence} of conversation ${JSON.stringify(message.conversationId)} ${what} (${problem}; expected ${expected}). The transport between server and client must deliver relay messages exactly once and in order.`,
    {
      details: {
        problem,
        kind: message.kind,
        conversationId: message.conversationId,
        expected,
        received: message.sequence,
      },
    },
  );
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new AvatarError('invalidRequest', `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}
