/**
 * Node's `ws` as the {@link WebSocketLike} core's ingress handshake runs over: the upgrade with
 * header auth (a server can set headers; a browser puts the token in the query), and a refused
 * upgrade's status, JSON body and `Retry-After` handed over on the error event as `refusal`, so
 * the error names what the service said. Also what only a Node socket has: `bufferedAmount`,
 * `terminate()`.
 */
import {
  parseJsonBody,
  type UpgradeRefusal,
  type WebSocketFactory,
  type WebSocketLike,
  WebSocketReadyState,
} from '@avatar-drive/core';
import WebSocket from 'ws';

/** How long a peer that never answers the close handshake is waited for before being dropped. */
const CLOSE_GRACE_MS = 2000;
/** The most of a refusal's body that is read. */
const MAX_REFUSAL_BODY = 16_384;

/** Options of {@link nodeWebSocket}. */
export interface NodeWebSocketOptions {
  /** Upgrade request headers (`X-App-ID`, `X-Session-Key`). */
  headers: Record<string, string>;
  /** Upgrade deadline, ms. */
  handshakeTimeoutMs: number;
}

/** A `ws` socket with the WHATWG-style handlers core expects. */
export class NodeWebSocket implements WebSocketLike {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly #ws: WebSocket;
  /** A refused upgrade was reported: the abort's own error says nothing more. */
  #refused = false;

  constructor(url: string, options: NodeWebSocketOptions) {
    const ws = new WebSocket(url, {
      headers: options.headers,
      perMessageDeflate: false,
      handshakeTimeout: options.handshakeTimeoutMs,
    });
    ws.binaryType = 'nodebuffer';
    this.#ws = ws;
    ws.on('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < MAX_REFUSAL_BODY) text += chunk;
      });
      response.on('end', () => {
        const refusal: UpgradeRefusal = {
          status: response.statusCode ?? 0,
          body: parseJsonBody(text),
          retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
        };
        this.#refused = true;
        this.onerror?.({ message: `Unexpected server response: ${refusal.status}`, refusal });
        ws.terminate(); // → close 1006
      });
      response.on('error', () => undefined);
    });
    ws.on('error', (error: Error) => {
      if (!this.#refused) this.onerror?.({ error, message: error.message });
    });
    ws.on('open', () => this.onopen?.({}));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      this.onmessage?.({ data: isBinary ? bytes : data.toString('utf8') });
    });
    ws.on('close', (code: number, reason: Buffer) =>
      this.onclose?.({ code, reason: reason.toString('utf8') }),
    );
  }

  /** Always `nodebuffer` underneath; frames arrive as Uint8Array views. */
  get binaryType(): string {
    return 'nodebuffer';
  }
  set binaryType(_value: string) {
    // Fixed: the handshake reads Uint8Array and ArrayBuffer alike.
  }

  get readyState(): number {
    return this.#ws.readyState;
  }

  /** Bytes queued and not yet sent. */
  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  send(data: Uint8Array): void {
    this.#ws.send(data);
  }

  /** The close handshake when open (a peer that never answers is dropped), else drops at once. */
  close(code?: number, reason?: string): void {
    const ws = this.#ws;
    if (ws.readyState === WebSocketReadyState.CLOSED || ws.readyState === WebSocketReadyState.CLOSING) return;
    if (ws.readyState !== WebSocketReadyState.OPEN) {
      ws.terminate();
      return;
    }
    ws.close(code, reason);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Drops the connection at once. */
  terminate(): void {
    this.#ws.terminate();
  }
}

/** A factory for core's `openIngress` that opens `ws` sockets with these headers. */
export function nodeWebSocket(options: NodeWebSocketOptions): WebSocketFactory<NodeWebSocket> {
  return (url) => new NodeWebSocket(url, options);
}
