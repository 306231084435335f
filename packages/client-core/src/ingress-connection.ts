/**
 * One driveningress.v2 session over a WebSocket (the browser's, React Native's, or any
 * {@link WebSocketFactory}): connect (configure → confirm) across the primary and backup regions
 * under the shared reconnect policy (`@avatar-drive/core` reconnect.ts), then pass messages through.
 *
 * Retry rules (docs/protocol.md, Errors): a retryable failure while connecting (45xx close,
 * an abnormal close such as 1006, a confirm timeout) moves to the next endpoint, and after every
 * endpoint has been tried, starts over after a jittered exponential backoff, up to `maxAttempts`.
 * A 40xx code is the request's fault and is never retried automatically. Once a session is
 * confirmed its token has been consumed, so a later drop is reported, not retried.
 */
import {
  AvatarError,
  CloseCode,
  configureSessionMessage,
  connectWithFallback,
  type HandshakeTexts,
  type IngressChannel,
  ingressUrlWithAuth,
  type Message,
  openIngress,
  type ReconnectPolicy,
  type ResolvedEndpoint,
  resolveReconnectPolicy,
  serverErrorToAvatarError,
  type WebSocketFactory,
  type WebSocketLike,
} from '@avatar-drive/core';
import { logger } from './logger.js';

// The socket types live in core (one handshake for every SDK); exported here as before.
export type { WebSocketFactory, WebSocketLike };

/** This SDK's words in the handshake's errors: how a browser app gets a fresh token. */
const TEXTS: HandshakeTexts = {
  unreachable: (endpoint) =>
    `Could not connect to the ingress at ${endpoint.ingressUrl} (${endpoint.region}). If the service is up, the session token may be expired, invalid or already used: mint a fresh one and call AvatarSDK.setSessionToken() before start().`,
  timeout: (endpoint) =>
    `The ingress at ${endpoint.region} did not confirm the session in time; retrying elsewhere.`,
  expiredToken: 'Mint a fresh one on your server and set AvatarSDK.sessionToken before start().',
};

/** Options of {@link IngressConnection}. */
export interface IngressConnectionOptions {
  endpoints: readonly ResolvedEndpoint[];
  appId: string;
  avatarId: string;
  sampleRate: number;
  /** Read before every attempt, so the app may set a fresh token between retries. */
  token: () => string | undefined;
  /** Called for every message after the session is confirmed. */
  onMessage: (message: Message) => void;
  /**
   * Called once for a ServerError mid-session that does not end it. A ServerError followed by a
   * close with its code is reported once, through `onClosed`, not here.
   */
  onServerError?: (error: AvatarError) => void;
  /** Called once when a confirmed session ends (`error` undefined for a normal close). */
  onClosed: (error: AvatarError | undefined) => void;
  /** Called before each retry (for logging and tests). */
  onRetry?: (attempt: number, endpoint: ResolvedEndpoint, error: AvatarError) => void;
  /** Creates the WebSocket; default the global `WebSocket` (browsers, React Native, Node ≥ 22). */
  webSocket?: WebSocketFactory;
  /** Total connection attempts across all endpoints; default 4 (`reconnect.maxAttempts`). */
  maxAttempts?: number;
  /** First backoff delay after a full round of endpoints failed; doubles each round; default 250 ms. */
  backoffMs?: number;
  /** The shared reconnect policy's settings; `maxAttempts` / `backoffMs` above win over them. */
  reconnect?: Partial<ReconnectPolicy>;
  /** Time allowed from opening the socket to ServerConfirmSession; default 10 s. */
  confirmTimeoutMs?: number;
}

/** What the server confirmed. */
export interface ConfirmedSession {
  connectionId: string;
  capabilities: readonly string[];
  endpoint: ResolvedEndpoint;
}

/** How long a mid-session ServerError waits for the close that may follow it. */
const HOLD_SERVER_ERROR_MS = 200;

/** A driveningress.v2 client session with region fallback. */
export class IngressConnection {
  readonly #options: IngressConnectionOptions;
  /** The socket of the attempt in progress (closed by close() while connecting). */
  #connecting: WebSocketLike | undefined;
  #channel: IngressChannel | undefined;
  #closedByUser = false;
  #confirmed: ConfirmedSession | undefined;

  constructor(options: IngressConnectionOptions) {
    this.#options = options;
  }

  /** The confirmed session, once connected. */
  get session(): ConfirmedSession | undefined {
    return this.#confirmed;
  }

  /**
   * Connects, trying the endpoints in order with backoff between rounds.
   * @throws AvatarError the last failure when every attempt failed or a 40xx code ended them.
   */
  async connect(): Promise<ConfirmedSession> {
    const policy = resolveReconnectPolicy({
      ...this.#options.reconnect,
      ...(this.#options.maxAttempts !== undefined && { maxAttempts: this.#options.maxAttempts }),
      ...(this.#options.backoffMs !== undefined && { initialDelayMs: this.#options.backoffMs }),
    });
    this.#confirmed = await connectWithFallback({
      endpoints: this.#options.endpoints,
      policy,
      toError: toAvatarError,
      checkStopped: () => {
        if (this.#closedByUser) {
          throw new AvatarError('connectionClosed', 'close() was called while connecting.', {
            phase: 'connect',
          });
        }
      },
      attempt: (endpoint) => this.#attempt(endpoint),
      onRetry: (next, attempt, error) => {
        logger.info(`connection failed (${error.message}); trying ${next.region}`);
        this.#options.onRetry?.(attempt, next, error);
      },
    });
    return this.#confirmed;
  }

  /** Sends one message on the confirmed session. */
  send(message: Message): void {
    const channel = this.#channel;
    if (!this.#confirmed || !channel?.open) {
      throw new AvatarError(
        'invalidState',
        'Not connected: call controller.start() and wait for "connected".',
        {
          phase: 'stream',
        },
      );
    }
    channel.send(message);
  }

  /** Closes the session normally (no retry, no onClosed error). */
  close(): void {
    this.#closedByUser = true;
    const channel = this.#channel;
    this.#channel = undefined;
    if (channel) {
      channel.detach();
      channel.close(CloseCode.Normal, 'client closed');
    }
    // An attempt in progress fails at once; the connect loop sees close() and stops.
    const connecting = this.#connecting;
    this.#connecting = undefined;
    try {
      connecting?.close(CloseCode.Normal, 'client closed');
    } catch {
      // Already closing.
    }
  }

  async #attempt(endpoint: ResolvedEndpoint): Promise<ConfirmedSession> {
    const { appId, avatarId, sampleRate } = this.#options;
    const sessionKey = this.#options.token();
    if (!sessionKey) {
      throw new AvatarError(
        'sessionTokenInvalid',
        'No session token: mint one on your server (POST /v1/console/session-tokens) and call AvatarSDK.setSessionToken(token) before start().',
        { retryable: false, phase: 'connect' },
      );
    }
    const factory = this.#options.webSocket ?? globalWebSocket;
    // The handlers run from the confirm on, frames in the same read as it included (close()
    // detaches them; a failed attempt's never run).
    const events = this.#sessionEvents();
    let channel: IngressChannel;
    try {
      channel = await openIngress(
        {
          webSocket: (url) => {
            const ws = factory(url);
            this.#connecting = ws;
            return ws;
          },
          url: ingressUrlWithAuth(endpoint.ingressUrl, { avatarId, appId, sessionKey }),
          endpoint,
          sessionToken: sessionKey,
          configure: configureSessionMessage({ sampleRate }),
          timeoutMs: this.#options.confirmTimeoutMs ?? 10_000,
          texts: TEXTS,
        },
        events,
      );
    } finally {
      this.#connecting = undefined;
    }
    if (this.#closedByUser) {
      channel.detach();
      channel.close(CloseCode.Normal, 'client closed');
    } else {
      this.#channel = channel;
    }
    return { connectionId: channel.connectionId, capabilities: channel.capabilities, endpoint };
  }

  /** What the confirmed session does with frames and its close. */
  #sessionEvents() {
    let reported = false;
    // A fatal ServerError is followed by a close with its code: hold it briefly so that it is
    // reported once, with the close. Any other message arriving first releases it as it is.
    let held: { error: AvatarError; timer: ReturnType<typeof setTimeout> } | undefined;
    const release = () => {
      if (!held) return;
      const { error, timer } = held;
      held = undefined;
      clearTimeout(timer);
      if (!this.#closedByUser) this.#options.onServerError?.(error);
    };
    return {
      onMessage: (message: Message) => {
        release();
        if (message.data.case === 'serverError') {
          const error = serverErrorToAvatarError(message.data.value, 'stream');
          held = { error, timer: setTimeout(release, HOLD_SERVER_ERROR_MS) };
        }
        this.#options.onMessage(message);
      },
      onBadFrame: (error: AvatarError) => {
        logger.error('dropping a malformed frame from the ingress:', error);
      },
      onClose: (code: number, reason: string) => {
        if (reported || this.#closedByUser) return;
        reported = true;
        this.#channel = undefined;
        const fatal = held?.error.closeCode === code ? held!.error : undefined;
        if (fatal) {
          clearTimeout(held!.timer);
          held = undefined;
        } else {
          release();
        }
        if (code === CloseCode.Normal) {
          this.#options.onClosed(undefined);
          return;
        }
        this.#options.onClosed(fatal ?? AvatarError.fromClose(code, reason, 'stream'));
      },
    };
  }
}

function toAvatarError(error: unknown): AvatarError {
  if (error instanceof AvatarError) return error;
  return new AvatarError('unknown', error instanceof Error ? error.message : String(error), { cause: error });
}

/** The platform's own WebSocket (browsers, React Native, Node ≥ 22). */
function globalWebSocket(url: string): WebSocketLike {
  const Ctor = (globalThis as { WebSocket?: new (url: string) => unknown }).WebSocket;
  if (typeof Ctor !== 'function') {
    throw new AvatarError(
      'invalidState',
      'This runtime has no global WebSocket: pass a webSocket factory in the controller options (e.g. (url) => new WebSocket(url) from the ws package).',
      { phase: 'connect' },
    );
  }
  return new Ctor(url) as WebSocketLike;
}
