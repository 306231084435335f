/**
 * Closes a session that floods (issue 32, N3): the intake limiter slows any client to its budget,
 * but a session that keeps sending messages that carry no audio worth the name (control
 * messages, empty or one-sample audio frames) is not slow, it is attacking: it is closed, and
 * only it, instead of its cost spilling onto everyone's new sessions through the overload guard.
 *
 * A leaky bucket of "light" messages: every message counts one when it arrives, and an audio
 * message that carries at least {@link MIN_AUDIO_BYTES} takes its count back. The bucket drains
 * at {@link LIGHT_MESSAGES_PER_SECOND}; a session whose bucket passes {@link LIGHT_MESSAGE_BURST}
 * is a flood. What honest clients send is far below: audio in 10–100 ms chunks (never light),
 * one end marker per utterance, a pause/resume or interrupt when the user acts, a configure per
 * session, i.e. a few light messages a second at most; a flood of hundreds of thousands a second
 * (even slowed to the intake budget's ~800 a second) passes the burst in about a second and a half.
 */

/** Light messages per second a session may keep up indefinitely. */
export const LIGHT_MESSAGES_PER_SECOND = 50;

/** Light messages beyond the sustained rate that make a flood. */
export const LIGHT_MESSAGE_BURST = 1000;

/**
 * Audio payload (bytes) from which a message is not light: 32 bytes is 1 ms of 16 kHz PCM, and
 * smaller than any Ogg page an encoder writes.
 */
export const MIN_AUDIO_BYTES = 32;

export class MessageFloodGuard {
  readonly #now: () => number;
  #level = 0;
  #drainedAt: number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#drainedAt = now();
  }

  /** Light messages in the bucket now (tests, diagnostics). */
  get level(): number {
    this.#drain();
    return this.#level;
  }

  /** Counts one arriving message; true when the session is flooding (close it). No allocation. */
  arrived(): boolean {
    this.#drain();
    this.#level += 1;
    return this.#level > LIGHT_MESSAGE_BURST;
  }

  /** The message just counted carried `bytes` of audio: it is not light when that is enough. */
  carried(bytes: number): void {
    if (bytes >= MIN_AUDIO_BYTES && this.#level >= 1) this.#level -= 1;
  }

  /** What to tell the flooder, as the close's message. */
  static explain(): string {
    return `Message flood: more than ${LIGHT_MESSAGE_BURST} messages carrying under ${MIN_AUDIO_BYTES} bytes of audio beyond ${LIGHT_MESSAGES_PER_SECOND} a second. Send audio in chunks of 10–100 ms and control messages only when the state changes, then open a new session.`;
  }

  #drain(): void {
    const now = this.#now();
    this.#level = Math.max(0, this.#level - ((now - this.#drainedAt) * LIGHT_MESSAGES_PER_SECOND) / 1000);
    this.#drainedAt = now;
  }
}
