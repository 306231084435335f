/**
 * The writes of one session to its WebSocket: every message as one pre-built frame straight to the
 * socket (through ws when an extension was negotiated), and backpressure — a reader slower than the output stops being read
 * (so the engine produces nothing more for it) until its buffer drains, and is dropped if that
 * takes too long.
 */
import type { Socket } from 'node:net';
import { encodeMessage, type Message } from '@avatar-drive/core';
import type { WebSocket } from 'ws';
import type { ServiceLimits } from '../../limits.js';
import { binaryFrame } from './animation-frames.js';

export class WsSender {
  readonly #ws: WebSocket;
  readonly #socket: Socket;
  readonly #limits: ServiceLimits;
  readonly #onSlowReader: () => void;
  #backpressureTimer: NodeJS.Timeout | undefined;
  #backpressureSince = 0;
  /**
   * Animation goes to the socket as pre-built frames ({@link sendFrame}) only when no extension
   * (per-message deflate) was negotiated: with one, ws's sender may queue, and ws must frame.
   */
  readonly rawFrames: boolean;
  /** Largest output this session ever had buffered (for tests and diagnostics). */
  maxBufferedBytes = 0;

  constructor(ws: WebSocket, socket: Socket, limits: ServiceLimits, onSlowReader: () => void) {
    this.#ws = ws;
    this.#socket = socket;
    this.#limits = limits;
    this.#onSlowReader = onSlowReader;
    this.rawFrames = ws.extensions === '';
  }

  /** Encodes and sends a message built with core's builders. */
  send(message: Message): void {
    this.sendBytes(encodeMessage(message));
  }

  /** Sends encoded message bytes: as one pre-built frame when {@link rawFrames}, else through ws. */
  sendBytes(bytes: Uint8Array): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    if (this.rawFrames) this.#socket.write(binaryFrame(bytes));
    else this.#ws.send(bytes);
    this.#afterSend();
  }

  /**
   * Sends a complete WebSocket frame (header included) with one socket write. Safe beside ws's
   * own writes: without per-message deflate (see {@link rawFrames}) ws's sender never queues, it
   * writes each frame to the socket synchronously, so frames cannot interleave; and nothing is
   * written once ws has started closing (readyState is then CLOSING).
   */
  sendFrame(frame: Buffer): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#socket.write(frame);
    this.#afterSend();
  }

  /** True while reading is paused for a slow reader (another holder of the socket then waits). */
  get backpressured(): boolean {
    return this.#backpressureTimer !== undefined;
  }

  /** Stops the backpressure timer and lets the socket be read again (the session ended). */
  dispose(): void {
    clearInterval(this.#backpressureTimer);
    this.#backpressureTimer = undefined;
    if (this.#socket.isPaused()) this.#socket.resume();
  }

  #afterSend(): void {
    const buffered = this.#ws.bufferedAmount;
    if (buffered > this.maxBufferedBytes) this.maxBufferedBytes = buffered;
    if (buffered > this.#limits.maxOutputBufferBytes && !this.#backpressureTimer) this.#startBackpressure();
  }

  #startBackpressure(): void {
    this.#socket.pause();
    this.#backpressureSince = Date.now();
    this.#backpressureTimer = setInterval(() => {
      if (this.#ws.bufferedAmount <= this.#limits.maxOutputBufferBytes / 2) {
        clearInterval(this.#backpressureTimer);
        this.#backpressureTimer = undefined;
        this.#socket.resume();
        return;
      }
      if (Date.now() - this.#backpressureSince > this.#limits.slowReaderTimeoutMs) {
        clearInterval(this.#backpressureTimer);
        this.#backpressureTimer = undefined;
        this.#onSlowReader();
      }
    }, 20);
  }
}
