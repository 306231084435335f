/**
 * A fatal ServerError is followed by a close with its code: the session holds a ServerError
 * briefly so that the two are reported once, as one error with the close code. Anything else
 * arriving first releases it as it is.
 */
import type { AvatarError } from '@avatar-drive/core';

/** How long a ServerError waits for the close that may follow it. */
const HOLD_SERVER_ERROR_MS = 200;

/** At most one ServerError waiting for its close. */
export class ServerErrorHold {
  #held: { error: AvatarError; timer: NodeJS.Timeout } | undefined;
  readonly #release: (error: AvatarError) => void;

  /** @param release reports an error that no close claimed. */
  constructor(release: (error: AvatarError) => void) {
    this.#release = release;
  }

  /** Holds `error` (releasing one held before). */
  hold(error: AvatarError): void {
    this.flush();
    this.#held = { error, timer: setTimeout(() => this.flush(), HOLD_SERVER_ERROR_MS) };
  }

  /** Releases the held error now, if any. */
  flush(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    clearTimeout(held.timer);
    this.#release(held.error);
  }

  /**
   * The connection closed with `code`: the held error when the close is its own (taken, not
   * released); otherwise the held error is released and `undefined` returned.
   */
  claim(code: number): AvatarError | undefined {
    const held = this.#held;
    const error = held?.error;
    if (error === undefined || (error.closeCode !== code && error.details?.serverCode !== code)) {
      this.flush();
      return undefined;
    }
    clearTimeout(held!.timer);
    this.#held = undefined;
    return error;
  }
}
