/** An in-process fake of the ingress for unit tests, speaking real driveningress.v2 bytes. */
import {
  confirmSessionMessage,
  type DriveFrame,
  decodeMessage,
  encodeMessage,
  type Message,
  responseAnimationMessage,
  serverErrorMessage,
} from '@avatar-drive/core';
import type { WebSocketLike } from '../../src/ingress-connection.js';

/** What the fake server does with a connection to a URL. */
export type Behaviour =
  | { kind: 'accept'; capabilities?: string[] }
  | { kind: 'refuse' } // upgrade refused: the browser sees 1006
  | { kind: 'close'; code: number; message: string }; // upgraded, then ServerError + close

export class FakeSocket implements WebSocketLike {
  binaryType = 'blob';
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly received: Message[] = [];
  readonly url: string;
  readonly #behaviour: Behaviour;

  constructor(url: string, behaviour: Behaviour) {
    this.url = url;
    this.#behaviour = behaviour;
    setTimeout(() => this.#begin(), 1);
  }

  #begin(): void {
    if (this.#behaviour.kind === 'refuse') {
      this.readyState = 3;
      this.onerror?.({});
      this.onclose?.({ code: 1006, reason: '' });
      return;
    }
    this.readyState = 1;
    this.onopen?.({});
  }

  send(data: Uint8Array): void {
    const message = decodeMessage(data);
    this.received.push(message);
    if (message.data.case === 'clientConfigureSession') {
      const b = this.#behaviour;
      if (b.kind === 'accept') {
        this.push(confirmSessionMessage({ connectionId: 'conn-1', capabilities: b.capabilities ?? [] }));
      } else if (b.kind === 'close') {
        this.push(serverErrorMessage({ code: b.code, message: b.message }));
        this.serverClose(b.code, 'closing');
      }
    }
  }

  /** Sends a message to the client. */
  push(message: Message): void {
    const bytes = encodeMessage(message);
    setTimeout(() => this.onmessage?.({ data: bytes.slice().buffer }), 0);
  }

  /** Sends animation frames for a request. */
  animate(reqId: string, frames: DriveFrame[], end: boolean): void {
    this.push(responseAnimationMessage({ reqId, frames, end }));
  }

  serverClose(code: number, reason: string): void {
    setTimeout(() => {
      this.readyState = 3;
      this.onclose?.({ code, reason });
    }, 0);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    setTimeout(() => this.onclose?.({ code, reason }), 0);
  }
}

/** Records every socket and picks a behaviour by URL host. */
export class FakeIngress {
  readonly sockets: FakeSocket[] = [];
  readonly #byHost: Map<string, Behaviour>;

  constructor(byHost: Record<string, Behaviour>) {
    this.#byHost = new Map(Object.entries(byHost));
  }

  readonly factory = (url: string): WebSocketLike => {
    const host = new URL(url).host;
    const socket = new FakeSocket(url, this.#byHost.get(host) ?? { kind: 'refuse' });
    this.sockets.push(socket);
    return socket;
  };

  get last(): FakeSocket {
    return this.sockets.at(-1)!;
  }
}
