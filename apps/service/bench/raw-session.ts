/**
 * A bench session over a plain TCP socket: the bench does the WebSocket handshake itself, sends
 * each audio chunk as one pre-built frame with one socket write, and reads the server's frames
 * straight out of a read buffer shared by every session. What a load generator needs and no more:
 * no per-message allocation, no event per message, no masking pass.
 */
import { connect, type Socket } from 'node:net';
import { BenchSession, type SessionOptions } from './bench-session.js';
import {
  clientCloseFrame,
  clientFrame,
  OPCODE_BINARY,
  OPCODE_PONG,
  type ServerFrameHandler,
  ServerFrameReader,
} from './websocket-frames.js';
import {
  handshakeKey,
  handshakeProblem,
  parseUpgradeResponse,
  upgradeRequest,
} from './websocket-handshake.js';

/** Where and how to open the WebSocket. */
export interface RawTarget {
  host: string;
  port: number;
  /** Path and query, e.g. /v2/driveningress?id=bench. */
  path: string;
  /** Extra request headers (auth). */
  headers: Record<string, string>;
}

/**
 * Every raw session reads into this one buffer: a read is handled synchronously to the end
 * (only an unfinished frame is copied out), so no read allocates.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** How long a closing handshake may take before the socket is dropped. */
const CLOSE_TIMEOUT_MS = 2000;
const NORMAL_CLOSURE = 1000;

type State = 'connecting' | 'upgrading' | 'open' | 'closing' | 'closed';

export class RawBenchSession extends BenchSession implements ServerFrameHandler {
  readonly #socket: Socket;
  #state: State = 'connecting';
  readonly #key = handshakeKey();
  /** The response to the upgrade request, while it is incomplete or not a 101. */
  #response = Buffer.alloc(0);
  readonly #reader = new ServerFrameReader(this);

  constructor(target: RawTarget, options: SessionOptions) {
    super(options);
    this.#socket = connect({
      host: target.host,
      port: target.port,
      noDelay: true,
      onread: { buffer: READ_BUFFER, callback: (length: number) => this.#read(length) },
    });
    this.#socket.once('connect', () => {
      this.#state = 'upgrading';
      this.#socket.write(
        upgradeRequest(`${target.host}:${target.port}`, target.path, this.#key, target.headers),
      );
    });
    this.#socket.on('error', (error) => this.failed(error));
    this.#socket.once('close', () => {
      // A refused upgrade whose body ended with the connection.
      if (this.#state === 'upgrading' && this.#response.length > 0) this.#refused(true);
      this.#state = 'closed';
      this.closed();
    });
  }

  protected isOpen(): boolean {
    return this.#state === 'open';
  }

  protected send(bytes: Buffer): boolean {
    this.#socket.write(bytes);
    return this.#socket.writableLength > 0;
  }

  close(): void {
    this.stopped = true;
    if (this.#state !== 'open') {
      if (this.#state !== 'closed') this.#socket.destroy();
      return;
    }
    this.#state = 'closing';
    this.#socket.end(clientCloseFrame(NORMAL_CLOSURE));
    setTimeout(() => this.#socket.destroy(), CLOSE_TIMEOUT_MS).unref();
  }

  terminate(): void {
    this.stopped = true;
    this.#socket.destroy();
  }

  #read(length: number): boolean {
    if (this.#state === 'upgrading') this.#handshake(length);
    else if (this.#state === 'open' || this.#state === 'closing') this.#reader.push(READ_BUFFER, 0, length);
    return true;
  }

  #handshake(length: number): void {
    this.#response = Buffer.concat([this.#response, READ_BUFFER.subarray(0, length)]);
    let response: ReturnType<typeof parseUpgradeResponse>;
    try {
      response = parseUpgradeResponse(this.#response);
    } catch (error) {
      this.failed(error as Error);
      this.#socket.destroy();
      return;
    }
    if (!response) return;
    if (response.status !== 101) {
      this.#refused(false);
      return;
    }
    const problem = handshakeProblem(response, this.#key);
    if (problem) {
      this.failed(new Error(`the upgrade response had ${problem}`));
      this.#socket.destroy();
      return;
    }
    const rest = this.#response.subarray(response.headerBytes);
    this.#response = Buffer.alloc(0);
    this.#state = 'open';
    this.#socket.write(this.options.configure);
    if (rest.length > 0) this.#reader.push(rest);
  }

  /** A refused upgrade: fails once its JSON body is in (by Content-Length, or at the end). */
  #refused(ended: boolean): void {
    const response = parseUpgradeResponse(this.#response);
    if (!response) return;
    const body = this.#response.subarray(response.headerBytes);
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (!ended && !(body.length >= declared)) return;
    this.#response = Buffer.alloc(0);
    this.failed(new Error(`upgrade refused: HTTP ${response.status} ${body.toString('utf8')}`));
    this.#socket.destroy();
  }

  // ServerFrameHandler: called by the reader for each of the server's frames.

  onMessage(opcode: number, bytes: Buffer, start: number, end: number): void {
    if (opcode === OPCODE_BINARY) this.received(bytes, start, end);
    else this.unexpected(); // a text frame: the service never sends one
  }

  onPing(payload: Buffer): void {
    if (this.#state === 'open') this.#socket.write(clientFrame(OPCODE_PONG, payload));
  }

  onClose(code: number): void {
    if (this.#state === 'open') {
      // Closed by the service: answer with its code, as RFC 6455 §5.5.1 asks.
      this.closedBy(code);
      this.#state = 'closing';
      this.#socket.end(clientCloseFrame(code === 1005 ? NORMAL_CLOSURE : code));
    } else this.#socket.end();
  }

  onProtocolError(code: number, reason: string): void {
    this.failed(new Error(`the service sent a bad frame: ${reason}`));
    this.#state = 'closing';
    this.#socket.end(clientCloseFrame(code));
    setTimeout(() => this.#socket.destroy(), CLOSE_TIMEOUT_MS).unref();
  }
}
