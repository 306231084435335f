/**
 * Input that arrives while an RTC session's egress is still opening (it is confirmed only once the
 * avatar is in the room): kept in order for when the session opens, with the socket paused so the
 * client is held back by TCP, and a cap on what may wait (what was already read when the pause
 * took effect, and a client that ignores backpressure cannot push more than that).
 */
import type { PausableSocket } from '../../capacity/intake-limiter.js';

export class OpeningBuffer {
  readonly #socket: PausableSocket;
  readonly #maxBytes: number;
  #pending: Buffer[] = [];
  #bytes = 0;

  constructor(socket: PausableSocket, maxBytes: number) {
    this.#socket = socket;
    this.#maxBytes = maxBytes;
  }

  /** Bytes waiting now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The egress starts opening: stop reading the client. */
  start(): void {
    this.#socket.pause();
  }

  /** Keeps `data` for later; false (nothing kept) once more than the cap would be waiting. */
  push(data: Buffer): boolean {
    if (this.#bytes + data.byteLength > this.#maxBytes) return false;
    this.#pending.push(data);
    this.#bytes += data.byteLength;
    return true;
  }

  /** The session is open: reading resumes; returns what waited, in arrival order. */
  drain(): Buffer[] {
    const pending = this.#pending;
    this.#pending = [];
    this.#bytes = 0;
    if (this.#socket.isPaused()) this.#socket.resume();
    return pending;
  }
}
