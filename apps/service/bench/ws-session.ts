/**
 * A bench session over the `ws` client: the reference the raw client is checked against
 * (`--client ws`). Frames are masked with an all-zero key (`generateMask`), which makes ws skip
 * the XOR pass and the copy that goes with it; websocket-frames.ts says why that is sound on
 * loopback.
 */
import { WebSocket } from 'ws';
import { BenchSession, type SessionOptions } from './bench-session.js';

/** Leaves the masking key zero: ws then sends the payload buffer as it is. */
function zeroMask(mask: Buffer): void {
  mask.fill(0);
}

export class WsBenchSession extends BenchSession {
  readonly #ws: WebSocket;

  constructor(url: string, headers: Record<string, string>, options: SessionOptions) {
    super(options);
    this.#ws = new WebSocket(url, { headers, perMessageDeflate: false, generateMask: zeroMask });
    this.#ws.once('open', () => this.#ws.send(options.configure));
    this.#ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.received(data, 0, data.length);
      else this.unexpected(); // a text frame: the service never sends one
    });
    this.#ws.on('error', (error) => this.failed(error));
    this.#ws.once('close', (code) => {
      if (code >= 4000) this.closedBy(code);
      this.closed();
    });
  }

  protected isOpen(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  protected send(bytes: Buffer): boolean {
    this.#ws.send(bytes);
    return this.#ws.bufferedAmount > 0;
  }

  close(): void {
    this.stopped = true;
    this.#ws.close();
  }

  terminate(): void {
    this.stopped = true;
    this.#ws.terminate();
  }
}
