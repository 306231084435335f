/**
 * One driveningress.v2 session over a browser WebSocket: connect (configure → confirm) across
 * the primary and backup regions with backoff, then pass messages through.
 *
 * Retry rules (docs/protocol.md, Errors): a retryable failure while connecting (45xx close,
 * an abnormal close such as 1006, a confirm timeout) moves to the next endpoint, and after every
 * endpoint has been tried, starts over after an exponential backoff, up to `maxAttempts`. A 40xx
 * code is the request's fault and is never retried automatically. Once a session is confirmed
 * its token has been consumed, so a later drop is reported, not retried.
 */
import {
  AvatarError,
  CloseCode,
  configureSessionMessage,
  decodeMessage,
  encodeMessage,
  ingressUrlWithAuth,
  isRetryableCloseCode,
  type Message,
  type ResolvedEndpoint,
  serverErrorToAvatarError,
} from '@avatar-drive/core';
import { logger } from './logger.js';

/** The subset of the browser WebSocket the connection uses (injectable for tests). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

/** Creates a WebSocket for a URL. */
export type WebSocketFactory = (url: string) => WebSocketLike;

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
  /** Called once when a confirmed session ends (`error` undefined for a normal close). */
  onClosed: (error: AvatarError | undefined) => void;
  /** Called before each retry (for logging and tests). */
  onRetry?: (attempt: number, endpoint: ResolvedEndpoint, error: AvatarError) => void;
  webSocket?: WebSocketFactory;
  /** Total connection attempts across all endpoints; default 4. */
  maxAttempts?: number;
  /** First backoff delay after a full round of endpoints failed; doubles each round; default 250 ms. */
  backoffMs?: number;
  /** Time allowed from opening the socket to ServerConfirmSession; default 10 s. */
  confirmTimeoutMs?: number;
}

/** What the server confirmed. */
export interface ConfirmedSession {
  connectionId: string;
  capabilities: readonly string[];
  endpoint: ResolvedEndpoint;
}

const OPEN = 1;

/** A driveningress.v2 client session with region fallback. */
export class IngressConnection {
  readonly #options: IngressConnectionOptions;
  #ws: WebSocketLike | undefined;
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
    const { endpoints } = this.#options;
    const maxAttempts = this.#options.maxAttempts ?? 4;
    let lastError: AvatarError | undefined;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (this.#closedByUser) break;
      const endpoint = endpoints[attempt % endpoints.length]!;
      if (attempt > 0 && attempt % endpoints.length === 0) {
        const round = attempt / endpoints.length;
        await delay((this.#options.backoffMs ?? 250) * 2 ** (round - 1));
        if (this.#closedByUser) break;
      }
      try {
        this.#confirmed = await this.#attempt(endpoint);
        return this.#confirmed;
      } catch (error) {
        lastError = toAvatarError(error);
        if (!lastError.retryable || attempt === maxAttempts - 1) break;
        const next = endpoints[(attempt + 1) % endpoints.length]!;
        logger.info(`connection to ${endpoint.region} failed (${lastError.message}); trying ${next.region}`);
        this.#options.onRetry?.(attempt + 1, next, lastError);
      }
    }
    if (this.#closedByUser) {
      throw new AvatarError('connectionClosed', 'close() was called while connecting.', { phase: 'connect' });
    }
    throw lastError!;
  }

  /** Sends one message on the confirmed session. */
  send(message: Message): void {
    const ws = this.#ws;
    if (!this.#confirmed || !ws || ws.readyState !== OPEN) {
      throw new AvatarError(
        'invalidState',
        'Not connected: call controller.start() and wait for "connected".',
        {
          phase: 'stream',
        },
      );
    }
    ws.send(encodeMessage(message));
  }

  /** Closes the session normally (no retry, no onClosed error). */
  close(): void {
    this.#closedByUser = true;
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws) {
      ws.onmessage = null;
      ws.onclose = null;
      ws.onerror = null;
      ws.onopen = null;
      try {
        ws.close(CloseCode.Normal, 'client closed');
      } catch {
        // Already closing.
      }
    }
  }

  #attempt(endpoint: ResolvedEndpoint): Promise<ConfirmedSession> {
    const { appId, avatarId, sampleRate } = this.#options;
    const sessionKey = this.#options.token();
    if (!sessionKey) {
      return Promise.reject(
        new AvatarError(
          'sessionTokenInvalid',
          'No session token: mint one on your server (POST /v1/console/session-tokens) and call AvatarSDK.setSessionToken(token) before start().',
          { retryable: false, phase: 'connect' },
        ),
      );
    }
    const url = ingressUrlWithAuth(endpoint.ingressUrl, { avatarId, appId, sessionKey });
    const factory = this.#options.webSocket ?? ((u: string) => new WebSocket(u) as unknown as WebSocketLike);
    return new Promise<ConfirmedSession>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws = factory(url);
      } catch (cause) {
        reject(
          new AvatarError('connectionFailed', `Cannot open a WebSocket to ${endpoint.ingressUrl}.`, {
            cause,
          }),
        );
        return;
      }
      this.#ws = ws;
      ws.binaryType = 'arraybuffer';
      let settled = false;
      let serverError: AvatarError | undefined;
      const timer = setTimeout(() => {
        fail(
          new AvatarError(
            'connectionFailed',
            `The ingress at ${endpoint.region} did not confirm the session in time; retrying elsewhere.`,
            { retryable: true, phase: 'connect' },
          ),
        );
        ws.close(CloseCode.InvalidRequest, 'confirm timeout');
      }, this.#options.confirmTimeoutMs ?? 10_000);
      const fail = (error: AvatarError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.onmessage = null;
        ws.onclose = null;
        ws.onerror = null;
        if (this.#ws === ws) this.#ws = undefined;
        reject(error);
      };
      ws.onopen = () => {
        try {
          ws.send(encodeMessage(configureSessionMessage({ sampleRate })));
        } catch (cause) {
          fail(toAvatarError(cause));
        }
      };
      ws.onerror = () => {
        // The close event that follows carries the code.
      };
      ws.onmessage = (event) => {
        let message: Message;
        try {
          message = decodeMessage(event.data);
        } catch (error) {
          fail(toAvatarError(error));
          ws.close(CloseCode.ProtocolError, 'protocol error');
          return;
        }
        if (!settled && message.data.case === 'serverConfirmSession') {
          settled = true;
          clearTimeout(timer);
          const confirmed: ConfirmedSession = {
            connectionId: message.data.value.connectionId,
            capabilities: [...message.data.value.capabilities],
            endpoint,
          };
          this.#wire(ws);
          resolve(confirmed);
        } else if (!settled && message.data.case === 'serverError') {
          // A close with the same code follows; keep the server's (more specific) message.
          serverError = serverErrorToAvatarError(message.data.value, 'connect');
        }
      };
      ws.onclose = (event) => {
        const error =
          serverError ??
          (event.code === CloseCode.Abnormal
            ? new AvatarError(
                'connectionFailed',
                `Could not connect to the ingress at ${endpoint.ingressUrl} (${endpoint.region}). If the service is up, the session token may be expired, invalid or already used: mint a fresh one and call AvatarSDK.setSessionToken() before start().`,
                { closeCode: CloseCode.Abnormal, retryable: true, phase: 'connect' },
              )
            : AvatarError.fromClose(event.code, event.reason, 'connect'));
        const retryable = isRetryableCloseCode(event.code);
        fail(
          error.retryable === retryable
            ? error
            : new AvatarError(error.code, error.message, {
                retryable,
                closeCode: event.code,
                phase: 'connect',
                ...(error.details !== undefined && { details: error.details }),
              }),
        );
      };
    });
  }

  #wire(ws: WebSocketLike): void {
    let reported = false;
    let serverError: AvatarError | undefined;
    ws.onmessage = (event) => {
      let message: Message;
      try {
        message = decodeMessage(event.data);
      } catch (error) {
        logger.error('dropping a malformed frame from the ingress:', error);
        return;
      }
      if (message.data.case === 'serverError')
        serverError = serverErrorToAvatarError(message.data.value, 'stream');
      this.#options.onMessage(message);
    };
    ws.onclose = (event) => {
      if (reported || this.#closedByUser) return;
      reported = true;
      this.#ws = undefined;
      if (event.code === CloseCode.Normal) {
        this.#options.onClosed(undefined);
        return;
      }
      const error =
        serverError?.closeCode === event.code
          ? serverError
          : AvatarError.fromClose(event.code, event.reason, 'stream');
      this.#options.onClosed(error);
    };
  }
}

function toAvatarError(error: unknown): AvatarError {
  if (error instanceof AvatarError) return error;
  return new AvatarError('unknown', error instanceof Error ? error.message : String(error), { cause: error });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
