/**
 * One driveningress.v2 WebSocket: the upgrade with header auth, ClientConfigureSession, and the
 * wait for ServerConfirmSession. Every way this can fail becomes one AvatarError (phase
 * `connect` or `configure`) whose `retryable` says whether another attempt may help. After the
 * confirm, frames and the close go to the handlers given up front, so nothing that arrives in
 * the same TCP read as the confirm is lost.
 */
import {
  AvatarError,
  CloseCode,
  decodeMessage,
  encodeMessage,
  isAvatarError,
  isRetryableCloseCode,
  type Message,
  serverErrorToAvatarError,
} from '@avatar-drive/core';
import WebSocket from 'ws';
import { httpErrorToAvatarError, parseJsonBody } from './http-errors.js';

/** What the session does with an open connection's traffic. */
export interface IngressHandlers {
  /** A decoded frame; `raw` is the frame's bytes (for the relay's unchanged animation bytes). */
  onMessage(message: Message, raw: Uint8Array): void;
  /** A frame that did not decode. */
  onBadFrame(error: AvatarError): void;
  /** The connection closed (by either side); called once. */
  onClose(code: number, reason: string): void;
}

export interface IngressOpenOptions {
  ingressUrl: string;
  appId: string;
  avatarId: string;
  sessionToken: string;
  configure: Message;
  /** Upgrade + confirm deadline in ms. */
  timeoutMs: number;
}

export class IngressSocket {
  readonly connectionId: string;
  readonly capabilities: readonly string[];
  readonly #ws: WebSocket;

  private constructor(ws: WebSocket, connectionId: string, capabilities: readonly string[]) {
    this.#ws = ws;
    this.connectionId = connectionId;
    this.capabilities = capabilities;
  }

  /** Bytes queued in the socket and not yet sent. */
  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  get open(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  /** Opens, configures and resolves on ServerConfirmSession. */
  static open(options: IngressOpenOptions, handlers: IngressHandlers): Promise<IngressSocket> {
    return new Promise<IngressSocket>((resolve, reject) => {
      const url = new URL(options.ingressUrl);
      url.searchParams.set('id', options.avatarId);
      const where = `${url.origin}${url.pathname}`;
      const ws = new WebSocket(url, {
        headers: { 'X-App-ID': options.appId, 'X-Session-Key': options.sessionToken },
        perMessageDeflate: false,
        handshakeTimeout: options.timeoutMs,
      });
      ws.binaryType = 'nodebuffer';
      let socket: IngressSocket | undefined;
      let settled = false;
      let configureError: AvatarError | undefined;
      const fail = (error: AvatarError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.removeAllListeners('message');
        if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new AvatarError(
              'connectionFailed',
              `No session confirmation from ${where} within ${options.timeoutMs} ms. Check the ingress URL; retrying may help.`,
              { phase: 'connect', retryable: true },
            ),
          ),
        options.timeoutMs,
      );

      ws.on('unexpected-response', (_request, response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < 16_384) text += chunk;
        });
        response.on('end', () => {
          fail(
            httpErrorToAvatarError(response.statusCode ?? 0, parseJsonBody(text), {
              action: `Opening the ingress WebSocket at ${where}`,
              phase: 'connect',
              secrets: [options.sessionToken],
              retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
            }),
          );
        });
        response.on('error', () => undefined);
      });
      ws.on('error', (error: Error & { code?: string }) => {
        if (settled) return;
        fail(
          new AvatarError(
            'connectionFailed',
            `Could not connect to ${where} (${error.code ?? error.message}). Check the region or ingress URL; retrying may help.`,
            { phase: 'connect', retryable: true, cause: error },
          ),
        );
      });
      ws.on('open', () => {
        try {
          ws.send(encodeMessage(options.configure));
        } catch (error) {
          fail(
            isAvatarError(error)
              ? error
              : new AvatarError('invalidRequest', String(error), { phase: 'configure' }),
          );
        }
      });
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        let message: Message;
        try {
          message = decodeMessage(raw, { isBinary });
        } catch (error) {
          const e = isAvatarError(error) ? error : new AvatarError('protocolError', String(error));
          if (socket) handlers.onBadFrame(e);
          else
            fail(
              new AvatarError(
                'protocolError',
                `The server sent a bad frame while configuring: ${e.message}`,
                { phase: 'configure' },
              ),
            );
          return;
        }
        if (socket) {
          handlers.onMessage(message, raw);
          return;
        }
        if (message.data.case === 'serverConfirmSession') {
          settled = true;
          clearTimeout(timer);
          const confirm = message.data.value;
          socket = new IngressSocket(ws, confirm.connectionId, [...confirm.capabilities]);
          resolve(socket);
        } else if (message.data.case === 'serverError') {
          // The close that follows carries the code; keep the server's words meanwhile.
          configureError = serverErrorToAvatarError(message.data.value, 'configure');
        } else {
          fail(
            new AvatarError(
              'protocolError',
              `The server sent ${message.data.case ?? 'an empty message'} before confirming the session.`,
              { phase: 'configure' },
            ),
          );
        }
      });
      ws.on('close', (code: number, reasonBuffer: Buffer) => {
        const reason = reasonBuffer.toString('utf8');
        if (socket) {
          handlers.onClose(code, reason);
          return;
        }
        if (configureError) {
          const closeCode = configureError.closeCode ?? (code >= CloseCode.InvalidRequest ? code : undefined);
          fail(
            new AvatarError(configureError.code, configureError.message, {
              phase: 'configure',
              retryable: closeCode !== undefined ? isRetryableCloseCode(closeCode) : configureError.retryable,
              ...(closeCode !== undefined && { closeCode }),
              ...(configureError.details && { details: configureError.details }),
            }),
          );
          return;
        }
        fail(
          AvatarError.fromClose(
            code,
            reason || `The server closed the connection (${code}) before confirming the session.`,
            'connect',
          ),
        );
      });
    });
  }

  /** Sends one message. */
  send(message: Message): void {
    this.#ws.send(encodeMessage(message));
  }

  /** Starts the close handshake (the peer's close arrives through `onClose`). */
  close(code: number = CloseCode.Normal, reason = ''): void {
    if (this.#ws.readyState === WebSocket.CLOSED || this.#ws.readyState === WebSocket.CLOSING) return;
    this.#ws.close(code, reason);
    // A peer that never answers the handshake is dropped.
    setTimeout(() => this.#ws.terminate(), 2000).unref();
  }

  /** Drops the connection at once. */
  terminate(): void {
    this.#ws.terminate();
  }
}
