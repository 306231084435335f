/**
 * Client state machines (docs/architecture.md, States): connection and conversation
 * states as explicit transition tables keyed by trigger, and a small typed machine that SDKs
 * drive. An illegal transition throws instead of silently corrupting state.
 */
import { describeValue } from './describe.js';
import { AvatarError } from './errors.js';

/** Connection to the ingress (SDK mode). */
export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'failed';
/** What moves a connection: `start()`, the socket opening, an error, `close()`, a retry. */
export type ConnectionTrigger = 'start' | 'open' | 'error' | 'close' | 'retry';

/** Playback of the avatar's speech. */
export type ConversationState = 'idle' | 'playing' | 'paused';
/**
 * What moves a conversation: an audio `chunk` sent or yielded, playback of the final chunk
 * `finished`, `pause`, `resume`, `interrupt`, and `reset` (the connection went away).
 */
export type ConversationTrigger = 'chunk' | 'finished' | 'pause' | 'resume' | 'interrupt' | 'reset';

/** A transition table: for each state, the state each allowed trigger leads to. */
export type TransitionTable<S extends string, T extends string> = {
  readonly [From in S]: Readonly<Partial<Record<T, S>>>;
};

/** Every connection state. */
export const CONNECTION_STATES: readonly ConnectionState[] = [
  'disconnected',
  'connecting',
  'connected',
  'failed',
];
/** Every conversation state. */
export const CONVERSATION_STATES: readonly ConversationState[] = ['idle', 'playing', 'paused'];

/**
 * Connection transitions. `close` is allowed from every state (idempotent when already
 * disconnected); a failed connection is left by `retry` (or a fresh `start`) or `close`.
 */
export const CONNECTION_TRANSITIONS: TransitionTable<ConnectionState, ConnectionTrigger> = Object.freeze({
  disconnected: { start: 'connecting', close: 'disconnected' },
  connecting: { open: 'connected', error: 'failed', close: 'disconnected' },
  connected: { error: 'failed', close: 'disconnected' },
  failed: { retry: 'connecting', start: 'connecting', close: 'disconnected' },
});

/**
 * Conversation transitions. Every chunk reports `playing` (playing → playing); a chunk that
 * arrives while paused stays paused; `interrupt` stops at once from playing or paused;
 * `reset` returns to idle from anywhere when the connection closes.
 */
export const CONVERSATION_TRANSITIONS: TransitionTable<ConversationState, ConversationTrigger> =
  Object.freeze({
    idle: { chunk: 'playing', reset: 'idle' },
    playing: { chunk: 'playing', finished: 'idle', pause: 'paused', interrupt: 'idle', reset: 'idle' },
    paused: { chunk: 'paused', resume: 'playing', interrupt: 'idle', reset: 'idle' },
  });

/** Called after each transition, in order, never re-entrantly. */
export type StateListener<S extends string, T extends string> = (to: S, from: S, trigger: T) => void;

/**
 * A typed state machine over a {@link TransitionTable}.
 *
 * Listeners run after the state changed, in transition order. A transition applied from inside
 * a listener takes effect at once, but its notification is queued until the current listener
 * returns, so callbacks never nest.
 *
 * @example
 * ```ts
 * const conn = createConnectionMachine();
 * conn.onChange((to, from, trigger) => console.log(`${from} -${trigger}-> ${to}`));
 * conn.apply('start'); // 'connecting'
 * conn.can('pause');   // TypeScript error: not a ConnectionTrigger
 * ```
 */
export class StateMachine<S extends string, T extends string> {
  readonly #table: TransitionTable<S, T>;
  readonly #name: string;
  #state: S;
  readonly #listeners = new Set<StateListener<S, T>>();
  readonly #queue: [S, S, T][] = [];
  #notifying = false;

  /**
   * @param table the transitions; every state must have an entry.
   * @param initial the starting state.
   * @param name what the machine is, for error messages (e.g. "connection").
   */
  constructor(table: TransitionTable<S, T>, initial: S, name = 'state machine') {
    if (!Object.hasOwn(table, initial)) {
      throw new AvatarError(
        'invalidState',
        `${name}: initial state ${describeValue(initial)} is not in the transition table.`,
      );
    }
    this.#table = table;
    this.#state = initial;
    this.#name = name;
  }

  /** The current state. */
  get state(): S {
    return this.#state;
  }

  /** The state `trigger` leads to from the current state, or `undefined` when it is not allowed. */
  next(trigger: T): S | undefined {
    if (typeof trigger !== 'string') return undefined; // never coerce arbitrary values to keys
    const row = this.#table[this.#state] as Partial<Record<string, S>>;
    return Object.hasOwn(row, trigger) ? row[trigger] : undefined;
  }

  /** True when `trigger` is allowed in the current state. */
  can(trigger: T): boolean {
    return this.next(trigger) !== undefined;
  }

  /** Triggers allowed in the current state. */
  allowedTriggers(): T[] {
    return Object.keys(this.#table[this.#state]) as T[];
  }

  /**
   * Applies `trigger` and returns the new state.
   *
   * @throws AvatarError `invalidState` naming the state, the trigger and the allowed triggers.
   */
  apply(trigger: T): S {
    const from = this.#state;
    const to = this.next(trigger);
    if (to === undefined) {
      throw new AvatarError(
        'invalidState',
        `Cannot ${describeValue(trigger)} the ${this.#name} in state "${from}": no transition (from "${from}", trigger ${describeValue(trigger)}). Allowed here: ${this.#allowedText()}.`,
        { details: { from, trigger } },
      );
    }
    this.#commit(from, to, trigger);
    return to;
  }

  /**
   * Moves to `to` by `trigger`, checking the table agrees.
   *
   * @throws AvatarError `invalidState` naming from, to and trigger when the table disagrees.
   */
  transition(to: S, trigger: T): S {
    const from = this.#state;
    const expected = this.next(trigger);
    if (expected !== to) {
      throw new AvatarError(
        'invalidState',
        `Illegal ${this.#name} transition from "${from}" to ${describeValue(to)} on ${describeValue(trigger)}${expected === undefined ? ': no transition for this trigger' : `: ${describeValue(trigger)} leads to "${expected}"`}. Allowed here: ${this.#allowedText()}.`,
        { details: { from, to, trigger } },
      );
    }
    this.#commit(from, to, trigger);
    return to;
  }

  /** Subscribes to transitions; returns the unsubscribe function. */
  onChange(listener: StateListener<S, T>): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #allowedText(): string {
    const allowed = this.allowedTriggers();
    return allowed.length ? allowed.map((t) => `${t} → ${this.next(t)}`).join(', ') : 'nothing';
  }

  #commit(from: S, to: S, trigger: T): void {
    this.#state = to;
    this.#queue.push([to, from, trigger]);
    if (this.#notifying) return;
    this.#notifying = true;
    try {
      for (let item = this.#queue.shift(); item; item = this.#queue.shift()) {
        for (const listener of [...this.#listeners]) listener(...item);
      }
    } finally {
      this.#notifying = false;
      this.#queue.length = 0;
    }
  }
}

/** A connection machine starting `disconnected`. */
export function createConnectionMachine(): StateMachine<ConnectionState, ConnectionTrigger> {
  return new StateMachine(CONNECTION_TRANSITIONS, 'disconnected', 'connection');
}

/** A conversation machine starting `idle`. */
export function createConversationMachine(): StateMachine<ConversationState, ConversationTrigger> {
  return new StateMachine(CONVERSATION_TRANSITIONS, 'idle', 'conversation');
}
