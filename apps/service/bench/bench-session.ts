/**
 * One simulated SDK session of the service bench, whatever carries its WebSocket: it streams the
 * utterance in real time (paced by the bench's shared timer), utterance after utterance, and times
 * every animation frame that comes back against its own utterance.
 */
import {
  type AudioTemplates,
  createScannedMessage,
  MESSAGE_ANIMATION,
  MESSAGE_CONFIRM,
  MESSAGE_ERROR,
  REQ_ID_BYTES,
  type ScannedMessage,
  scanServerMessage,
} from './drive-messages.js';
import { Samples } from './samples.js';

export const CHUNK_MS = 20;
export const FRAME_MS = 40;

/** What the sessions of one step record; shared by all of them. */
export interface SessionStats {
  /** Arrival − (utterance start + (k+1)·40 ms) − the calibrated lookahead, per frame. */
  lateness: Samples;
  /** First audio chunk sent → first animation frame received, per utterance. */
  firstFrame: Samples;
  /** ServerErrors, malformed messages, sessions closed that the bench did not close. */
  errors: number;
  /** Frames received per utterance, counted when its end=true message arrives. */
  utteranceFrames: Samples;
  /** Utterances whose end arrived with another frame count than `expectedFrames`. */
  incomplete: number;
}

/** Empty per-step statistics. */
export function newStats(): SessionStats {
  return {
    lateness: new Samples(),
    firstFrame: new Samples(),
    errors: 0,
    utteranceFrames: new Samples(),
    incomplete: 0,
  };
}

export interface SessionOptions {
  /** The utterance's audio messages, as this kind of client sends them. */
  audio: AudioTemplates;
  /** ClientConfigureSession, as this kind of client sends it. */
  configure: Buffer;
  stats: SessionStats;
  /** The calibrated lookahead, subtracted from lateness (0 while calibrating). */
  offset: number;
  /** Frames an utterance gets (from the calibration session; 0 while calibrating). */
  expectedFrames: number;
  /** A session not confirmed by then fails instead of stalling the ramp. */
  confirmTimeoutMs: number;
}

/** Utterances remembered per session: frames of older ones no longer arrive. */
const RING = 4;
/** Every session scans into this one object (messages are handled one at a time). */
const scanned: ScannedMessage = createScannedMessage();
const HEX = Buffer.from('0123456789abcdef');
const TAG_BYTES = 8;

export abstract class BenchSession {
  /** Set when the bench closes the session (or gives up on it): a close is then no error. */
  stopped = false;
  /** Set when the service refused the session for overload (close 4503 before confirmation). */
  refused = false;
  /** Resolves on ServerConfirmSession. */
  readonly ready: Promise<void>;
  #confirm!: () => void;
  #reject!: (error: Error) => void;
  #confirmed = false;
  readonly #confirmTimer: NodeJS.Timeout;
  /** A per-session tag (8 bytes), then the utterance number (8 hex digits). */
  readonly #reqId = Buffer.alloc(REQ_ID_BYTES);
  #utterance = -1;
  #chunk = 0;
  #streaming = false;
  readonly #starts = new Float64Array(RING);
  readonly #framesSeen = new Int32Array(RING);
  readonly #numbers = new Int32Array(RING).fill(-1);

  constructor(protected readonly options: SessionOptions) {
    Buffer.from(Math.random().toString(36).slice(2).padEnd(TAG_BYTES, '0'), 'latin1').copy(
      this.#reqId,
      0,
      0,
      TAG_BYTES,
    );
    this.ready = new Promise((resolve, reject) => {
      this.#confirm = resolve;
      this.#reject = reject;
    });
    this.#confirmTimer = setTimeout(() => {
      this.failed(new Error(`session not confirmed within ${options.confirmTimeoutMs / 1000} s`));
      this.terminate();
    }, options.confirmTimeoutMs);
  }

  /** True while audio can be sent. */
  protected abstract isOpen(): boolean;
  /** Writes one message; returns true when the write is still pending (it holds `bytes`). */
  protected abstract send(bytes: Buffer): boolean;
  /** Closes with the WebSocket closing handshake. */
  abstract close(): void;
  /** Drops the connection at once. */
  abstract terminate(): void;

  /** Sends whatever chunks are due by now (catching up if the timer was late). */
  tick(now: number): void {
    if (this.stopped || !this.isOpen()) return;
    if (!this.#streaming) this.#begin(now);
    const audio = this.options.audio;
    const { messages, reqIdAt } = audio;
    const start = this.#starts[this.#utterance % RING]!;
    while (this.#chunk < messages.length && start + this.#chunk * CHUNK_MS <= now) {
      const c = this.#chunk++;
      const message = messages[c]!;
      const at = reqIdAt[c]!;
      for (let i = 0; i < REQ_ID_BYTES; i++) message[at + i] = this.#reqId[i]!;
      // Templates are shared by all sessions: one that a pending write still holds is replaced,
      // so that the next session's req_id does not overwrite bytes not yet sent.
      if (this.send(message)) messages[c] = Buffer.from(message);
    }
    if (this.#chunk === messages.length) this.#streaming = false;
  }

  #begin(now: number): void {
    const u = ++this.#utterance;
    for (let i = 0; i < REQ_ID_BYTES - TAG_BYTES; i++)
      this.#reqId[REQ_ID_BYTES - 1 - i] = HEX[(u >>> (4 * i)) & 0xf]!;
    const slot = u % RING;
    this.#starts[slot] = now;
    this.#framesSeen[slot] = 0;
    this.#numbers[slot] = u;
    this.#chunk = 0;
    this.#streaming = true;
  }

  /** A binary message from the server, in `bytes[from, to)` (valid during the call only). */
  protected received(bytes: Uint8Array, from: number, to: number): void {
    scanServerMessage(bytes, from, to, scanned);
    switch (scanned.type) {
      case MESSAGE_ANIMATION:
        this.#animation(bytes);
        break;
      case MESSAGE_CONFIRM:
        if (!this.#confirmed) {
          this.#confirmed = true;
          clearTimeout(this.#confirmTimer);
          this.#confirm();
        }
        break;
      case MESSAGE_ERROR:
        // Before confirmation a ServerError is the session failing to open (counted once, by
        // the ramp, as an error or a refusal); afterwards it is an error of the step.
        if (this.#confirmed) this.options.stats.errors++;
        break;
      case 0: // malformed
        this.options.stats.errors++;
        break;
    }
  }

  #animation(bytes: Uint8Array): void {
    const { reqIdStart, reqIdEnd, keyframes, end } = scanned;
    if (reqIdEnd - reqIdStart !== REQ_ID_BYTES) return;
    for (let i = 0; i < TAG_BYTES; i++) if (bytes[reqIdStart + i] !== this.#reqId[i]) return;
    let u = 0;
    for (let i = reqIdStart + TAG_BYTES; i < reqIdEnd; i++) {
      const c = bytes[i]!;
      u = u * 16 + (c <= 0x39 ? c - 0x30 : c - 0x57);
    }
    const slot = u % RING;
    if (this.#numbers[slot] !== u) return;
    const stats = this.options.stats;
    const now = performance.now();
    const start = this.#starts[slot]!;
    let seen = this.#framesSeen[slot]!;
    if (keyframes > 0 && seen === 0) stats.firstFrame.push(now - start);
    const base = now - start - this.options.offset;
    for (let i = 0; i < keyframes; i++) stats.lateness.push(base - ++seen * FRAME_MS);
    this.#framesSeen[slot] = seen;
    if (end) {
      stats.utteranceFrames.push(seen);
      if (this.options.expectedFrames > 0 && seen !== this.options.expectedFrames) stats.incomplete++;
    }
  }

  /** A message the service never sends (e.g. a text frame): an error. */
  protected unexpected(): void {
    this.options.stats.errors++;
  }

  /** The connection failed: before confirmation that fails `ready`, afterwards it is an error. */
  protected failed(error: Error): void {
    if (!this.#confirmed) {
      this.stopped = true;
      clearTimeout(this.#confirmTimer);
      this.#reject(error);
    } else if (!this.stopped) {
      this.stopped = true;
      this.options.stats.errors++;
    }
  }

  /** The service sent a close frame with `code`: 4503 before confirmation is a refusal (overload, drain). */
  protected closedBy(code: number): void {
    if (!this.#confirmed && code === 4503) this.refused = true;
    this.failed(new Error(`closed by the service with ${code}`));
  }

  /** The connection closed. */
  protected closed(): void {
    if (!this.#confirmed) this.failed(new Error('the connection closed before the session was confirmed'));
    else if (!this.stopped) this.failed(new Error('closed by the service'));
  }
}
