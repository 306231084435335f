/**
 * The one driveningress.v2 handshake every SDK runs: open the WebSocket (auth is in the URL or
 * in headers the factory adds), send ClientConfigureSession when it opens, wait for
 * ServerConfirmSession. Every way this can fail becomes one AvatarError whose `retryable` says
 * whether another attempt may help (docs/protocol.md, Session flow and Errors):
 *
 * - a refused upgrade: with the service's error body, its code and detail; without one (browsers),
 *   named from the status the platform reports or the token's expiry, else "could not connect";
 * - a ServerError before the confirm: the server's words, with the close code that follows it;
 * - any other close before the confirm: the close-code table;
 * - no confirm within `timeoutMs`, a bad frame or an unexpected message while configuring.
 *
 * After the confirm, frames and the close go to the handlers given up front, so nothing that
 * arrives in the same read as the confirm is lost. Retrying across regions is the caller's
 * (reconnect.ts `connectWithFallback`), since a session token is single-use.
 */
import { CloseCode, isRetryableCloseCode } from '../close-codes.js';
import { AvatarError, isAvatarError } from '../errors.js';
import type { Message } from '../gen/driveningress/v2/driveningress_pb.js';
import { decodeMessage, encodeMessage } from '../wire/codec.js';
import { serverErrorToAvatarError } from '../wire/server-error.js';
import {
  DEFAULT_EXPIRED_TOKEN_HINT,
  type IngressWhere,
  refusalWithBodyError,
  refusedUpgradeError,
  type UpgradeRefusal,
  upgradeRefusalOf,
} from './upgrade-refusal.js';
import { type WebSocketFactory, type WebSocketLike, WebSocketReadyState } from './web-socket.js';

/** The sentences of the handshake's errors that name an SDK's own API; the rest are shared. */
export interface HandshakeTexts {
  /** The connection could not be made and nothing names why (`detail`: the platform's words, if any). */
  unreachable(endpoint: IngressWhere, detail: string | undefined): string;
  /** No ServerConfirmSession within `timeoutMs`. */
  timeout(endpoint: IngressWhere, timeoutMs: number): string;
  /** The advice after "The session token expired at …, so … refused it." */
  expiredToken: string;
}

/** The shared wording (the server SDK's). */
export const DEFAULT_HANDSHAKE_TEXTS: Readonly<HandshakeTexts> = Object.freeze({
  unreachable: (endpoint: IngressWhere, detail: string | undefined) =>
    `Could not connect to ${plainUrl(endpoint.ingressUrl)}${detail ? ` (${detail})` : ''}. Check the region or ingress URL; retrying may help.`,
  timeout: (endpoint: IngressWhere, timeoutMs: number) =>
    `No session confirmation from ${plainUrl(endpoint.ingressUrl)} within ${timeoutMs} ms. Check the ingress URL; retrying may help.`,
  expiredToken: DEFAULT_EXPIRED_TOKEN_HINT,
});

/** Options of {@link openIngress}. */
export interface IngressHandshakeOptions<S extends WebSocketLike = WebSocketLike> {
  /** Opens the socket; may throw (an AvatarError is passed on as is). */
  webSocket: WebSocketFactory<S>;
  /** The URL to open: the ingress URL with `?id=` and, where headers cannot be set, the auth query. */
  url: string;
  /** The endpoint, as errors name it. */
  endpoint: IngressWhere;
  /** The session token (never in a message: it names an expired token, and is redacted). */
  sessionToken: string;
  /** The ClientConfigureSession message. */
  configure: Message;
  /** Upgrade + confirm deadline, ms. */
  timeoutMs: number;
  /** Set on the socket before it opens; default `arraybuffer`. */
  binaryType?: string;
  /** The SDK's own wording where it names its API. */
  texts?: Partial<HandshakeTexts>;
  /** Seconds since the epoch (tests); default the clock. */
  nowSeconds?: () => number;
}

/** What a confirmed connection does with its traffic. */
export interface IngressChannelHandlers {
  /** A decoded frame; `raw` is its bytes (for the relay's unchanged animation bytes). */
  onMessage(message: Message, raw: Uint8Array): void;
  /** A frame that did not decode (`protocolError`); the connection stays up. */
  onBadFrame(error: AvatarError): void;
  /** The connection closed (by either side); called once. */
  onClose(code: number, reason: string): void;
}

/** A confirmed driveningress.v2 connection. */
export interface IngressChannel<S extends WebSocketLike = WebSocketLike> {
  readonly connectionId: string;
  readonly capabilities: readonly string[];
  /** The socket the factory made (for what an adapter adds, e.g. `bufferedAmount`). */
  readonly socket: S;
  /** True while the socket is open. */
  readonly open: boolean;
  /** Encodes and sends one message. */
  send(message: Message): void;
  /** Starts the close handshake; the close still reaches `onClose` unless {@link detach}ed. */
  close(code?: number, reason?: string): void;
  /** Stops every handler (the owner is done with it); call before `close` to hear nothing more. */
  detach(): void;
}

// core compiles without DOM or Node types; every runtime it targets has these timers.
const timers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/**
 * Opens, configures and resolves on ServerConfirmSession.
 *
 * @throws AvatarError phase `connect` (the socket, the upgrade, the deadline) or `configure`
 *   (the server's answer to the configure message); `retryable` says whether to try again.
 *
 * @example
 * ```ts
 * const channel = await openIngress(
 *   {
 *     webSocket: (url) => new WebSocket(url),
 *     url: ingressUrlWithAuth(endpoint.ingressUrl, { avatarId, appId, sessionKey: token }),
 *     endpoint,
 *     sessionToken: token,
 *     configure: configureSessionMessage({ sampleRate: 16000 }),
 *     timeoutMs: 10_000,
 *   },
 *   { onMessage: (message) => console.log(message.data.case), onBadFrame: () => {}, onClose: () => {} },
 * );
 * channel.send(audioInputMessage({ reqId: 'req_1', audio: new Uint8Array(640), end: true }));
 * ```
 */
export function openIngress<S extends WebSocketLike>(
  options: IngressHandshakeOptions<S>,
  handlers: IngressChannelHandlers,
): Promise<IngressChannel<S>> {
  const texts: HandshakeTexts = { ...DEFAULT_HANDSHAKE_TEXTS, ...options.texts };
  const { endpoint, sessionToken } = options;
  return new Promise<IngressChannel<S>>((resolve, reject) => {
    let ws: S;
    try {
      ws = options.webSocket(options.url);
    } catch (cause) {
      reject(
        isAvatarError(cause)
          ? cause
          : new AvatarError(
              'connectionFailed',
              `Cannot open a WebSocket to ${plainUrl(endpoint.ingressUrl)}.`,
              {
                cause,
                phase: 'connect',
              },
            ),
      );
      return;
    }
    ws.binaryType = options.binaryType ?? 'arraybuffer';
    let channel: Channel<S> | undefined;
    let settled = false;
    let refusal: UpgradeRefusal | undefined;
    let errorEvent: unknown;
    let configureError: AvatarError | undefined;

    const fail = (error: AvatarError, close?: [code: number, reason: string]) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(timer);
      ws.onopen = null;
      ws.onmessage = null;
      ws.onclose = null;
      ws.onerror = null;
      if (close) closeQuietly(ws, close[0], close[1]);
      reject(error);
    };
    const timer = timers.setTimeout(
      () =>
        fail(
          new AvatarError('connectionFailed', texts.timeout(endpoint, options.timeoutMs), {
            phase: 'connect',
            retryable: true,
          }),
          [CloseCode.InvalidRequest, 'confirm timeout'],
        ),
      options.timeoutMs,
    );

    ws.onopen = () => {
      try {
        ws.send(encodeMessage(options.configure));
      } catch (error) {
        fail(
          isAvatarError(error)
            ? error
            : new AvatarError('invalidRequest', String(error), { phase: 'configure' }),
          [CloseCode.Normal, 'configure failed'],
        );
      }
    };
    ws.onerror = (event) => {
      // The close that follows carries the code; the error may say why (status, refusal, errno).
      errorEvent ??= event;
      refusal ??= upgradeRefusalOf(event);
    };
    ws.onmessage = (event) => {
      const raw = bytesOf(event.data);
      let message: Message;
      try {
        message = decodeMessage(raw ?? event.data);
      } catch (error) {
        const e = isAvatarError(error) ? error : new AvatarError('protocolError', String(error));
        if (channel) handlers.onBadFrame(e);
        else
          fail(
            new AvatarError('protocolError', `The server sent a bad frame while configuring: ${e.message}`, {
              phase: 'configure',
            }),
            [CloseCode.ProtocolError, 'protocol error'],
          );
        return;
      }
      if (channel) {
        handlers.onMessage(message, raw!);
        return;
      }
      if (message.data.case === 'serverConfirmSession') {
        settled = true;
        timers.clearTimeout(timer);
        const confirm = message.data.value;
        channel = new Channel(ws, confirm.connectionId, [...confirm.capabilities]);
        resolve(channel);
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
          [CloseCode.ProtocolError, 'protocol error'],
        );
      }
    };
    ws.onclose = (event) => {
      if (channel) {
        ws.onmessage = null;
        ws.onclose = null;
        ws.onerror = null;
        handlers.onClose(event.code, event.reason);
        return;
      }
      fail(
        closedBeforeConfirm(event.code, event.reason, {
          configureError,
          refusal,
          errorEvent,
          endpoint,
          sessionToken,
          texts,
          now: options.nowSeconds?.() ?? Date.now() / 1000,
        }),
      );
    };
  });
}

interface CloseContext {
  configureError: AvatarError | undefined;
  refusal: UpgradeRefusal | undefined;
  errorEvent: unknown;
  endpoint: IngressWhere;
  sessionToken: string;
  texts: HandshakeTexts;
  now: number;
}

/** The error for a socket that closed before the session was confirmed. */
function closedBeforeConfirm(code: number, reason: string, context: CloseContext): AvatarError {
  const { configureError, refusal, endpoint } = context;
  if (configureError) {
    const closeCode = configureError.closeCode ?? (code >= CloseCode.InvalidRequest ? code : undefined);
    return new AvatarError(configureError.code, configureError.message, {
      phase: 'configure',
      retryable: closeCode !== undefined ? isRetryableCloseCode(closeCode) : configureError.retryable,
      ...(closeCode !== undefined && { closeCode }),
      ...(configureError.details && { details: configureError.details }),
    });
  }
  if (code !== CloseCode.Abnormal) {
    return AvatarError.fromClose(
      code,
      reason || `The server closed the connection (${code}) before confirming the session.`,
      'connect',
    );
  }
  if (refusal?.body !== undefined) {
    return refusalWithBodyError(refusal, plainUrl(endpoint.ingressUrl), context.sessionToken);
  }
  const named = refusedUpgradeError(
    refusal?.status,
    context.sessionToken,
    endpoint,
    context.now,
    context.texts.expiredToken,
  );
  if (named) return named;
  return new AvatarError(
    'connectionFailed',
    context.texts.unreachable(endpoint, errorDetail(context.errorEvent)),
    {
      closeCode: CloseCode.Abnormal,
      retryable: true,
      phase: 'connect',
      ...(errorCause(context.errorEvent) !== undefined && { cause: errorCause(context.errorEvent) }),
    },
  );
}

class Channel<S extends WebSocketLike> implements IngressChannel<S> {
  readonly connectionId: string;
  readonly capabilities: readonly string[];
  readonly socket: S;

  constructor(socket: S, connectionId: string, capabilities: readonly string[]) {
    this.socket = socket;
    this.connectionId = connectionId;
    this.capabilities = capabilities;
  }

  get open(): boolean {
    return this.socket.readyState === WebSocketReadyState.OPEN;
  }

  send(message: Message): void {
    this.socket.send(encodeMessage(message));
  }

  close(code: number = CloseCode.Normal, reason = ''): void {
    closeQuietly(this.socket, code, reason);
  }

  detach(): void {
    this.socket.onopen = null;
    this.socket.onmessage = null;
    this.socket.onclose = null;
    this.socket.onerror = null;
  }
}

/** Closes unless already closing; a platform that refuses the code still gets closed. */
function closeQuietly(ws: WebSocketLike, code: number, reason: string): void {
  if (ws.readyState === WebSocketReadyState.CLOSING || ws.readyState === WebSocketReadyState.CLOSED) return;
  try {
    ws.close(code, reason);
  } catch {
    try {
      ws.close();
    } catch {
      // Already closing.
    }
  }
}

/** A binary frame's bytes without a copy; `undefined` for anything else (text frames). */
function bytesOf(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return undefined;
}

/** The platform's words for a connection error: an errno-like code, else its message. */
function errorDetail(event: unknown): string | undefined {
  const e = event as { message?: unknown; error?: { code?: unknown; message?: unknown } | null } | null;
  const code = e?.error?.code;
  if (typeof code === 'string' && code !== '') return code;
  for (const text of [e?.message, e?.error?.message])
    if (typeof text === 'string' && text !== '') return text;
  return undefined;
}

function errorCause(event: unknown): unknown {
  const e = event as { error?: unknown } | null | undefined;
  return e?.error ?? undefined;
}

/** The URL without query and fragment (the query may hold the session token). */
function plainUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return cut >= 0 ? url.slice(0, cut) : url;
}
