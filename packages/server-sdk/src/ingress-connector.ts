/**
 * How an AvatarSession gets a confirmed connection: under the shared retry policy (every region
 * once per round, backoff between rounds, 40xx final), each attempt with a fresh token, over
 * Node's `ws` with header auth, through core's one ingress handshake. Every attempt is recorded.
 */
import {
  AvatarError,
  CloseCode,
  connectWithFallback,
  type ErrorPhase,
  type IngressChannel,
  type IngressChannelHandlers,
  isAvatarError,
  type Message,
  openIngress,
  type ResolvedEndpoint,
} from '@avatar-drive/core';
import type { ReconnectOptions } from './backoff.js';
import { type NodeWebSocket, nodeWebSocket } from './node-web-socket.js';
import type { ConnectionAttempt } from './session-types.js';
import type { TokenSource } from './token-source.js';

/** A confirmed ingress connection over Node's `ws`. */
export type Ingress = IngressChannel<NodeWebSocket>;

/** What {@link IngressConnector} connects with. */
export interface ConnectorOptions {
  endpoints: readonly ResolvedEndpoint[];
  reconnect: Required<ReconnectOptions>;
  appId: string;
  avatarId: string;
  configure: Message;
  /** Upgrade + confirm deadline per attempt, ms. */
  timeoutMs: number;
  tokens: TokenSource;
}

/**
 * What the session does around each attempt. The handlers hear a connection's frames and close
 * only while it is the session's `current()` one (a replaced or abandoned one is ignored).
 */
export interface ConnectHooks extends IngressChannelHandlers {
  /** Throws (connectionClosed) once the session was closed: connecting stops. */
  checkStopped(): void;
  /** The session's connection now. */
  current(): Ingress | undefined;
  /** An attempt succeeded (called before `connect` resolves, so no frame is missed). */
  onConnected(channel: Ingress, endpoint: ResolvedEndpoint): void;
}

/** Connects, reconnects, and remembers every attempt. */
export class IngressConnector {
  readonly #options: ConnectorOptions;
  readonly #attempts: ConnectionAttempt[] = [];
  #wakeSleep: (() => void) | undefined;

  constructor(options: ConnectorOptions) {
    this.#options = options;
  }

  /** Every attempt so far, in order. */
  get attempts(): readonly ConnectionAttempt[] {
    return this.#attempts;
  }

  /** Ends a backoff wait at once (the session is closing). */
  wake(): void {
    this.#wakeSleep?.();
  }

  /**
   * Tries until one attempt is confirmed, a failure is final, or attempts run out.
   * @returns the connection id.
   * @throws AvatarError the failure (the last one, when attempts ran out).
   */
  connect(phase: ErrorPhase, hooks: ConnectHooks): Promise<string> {
    return connectWithFallback({
      endpoints: this.#options.endpoints,
      policy: this.#options.reconnect,
      toError: (error) => toAvatarError(error, phase),
      checkStopped: () => hooks.checkStopped(),
      sleep: (ms) => this.#sleep(ms),
      attempt: async (endpoint) => {
        const record: ConnectionAttempt = {
          region: endpoint.region,
          ingressUrl: endpoint.ingressUrl,
          startedAt: Date.now(),
        };
        this.#attempts.push(record);
        try {
          const token = await this.#options.tokens.next(endpoint);
          hooks.checkStopped();
          const channel = await this.#open(endpoint, token, hooks);
          try {
            hooks.checkStopped();
          } catch (error) {
            channel.close(CloseCode.Normal, 'client closed');
            throw error;
          }
          hooks.onConnected(channel, endpoint);
          return channel.connectionId;
        } catch (error) {
          record.error = toAvatarError(error, phase);
          throw record.error;
        }
      },
    });
  }

  #open(endpoint: ResolvedEndpoint, token: string, hooks: ConnectHooks): Promise<Ingress> {
    let channel: Ingress | undefined;
    const current = () => channel !== undefined && channel === hooks.current();
    const url = new URL(endpoint.ingressUrl);
    url.searchParams.set('id', this.#options.avatarId);
    const { timeoutMs } = this.#options;
    return openIngress(
      {
        // A server sends the credentials as upgrade headers, never in the URL.
        webSocket: nodeWebSocket({
          headers: { 'X-App-ID': this.#options.appId, 'X-Session-Key': token },
          handshakeTimeoutMs: timeoutMs,
        }),
        url: url.toString(),
        endpoint,
        sessionToken: token,
        configure: this.#options.configure,
        timeoutMs,
        binaryType: 'nodebuffer',
      },
      {
        onMessage: (message, raw) => {
          if (current()) hooks.onMessage(message, raw);
        },
        onBadFrame: (error) => {
          if (current()) hooks.onBadFrame(error);
        },
        onClose: (code, reason) => {
          if (current()) hooks.onClose(code, reason);
        },
      },
    ).then((confirmed) => {
      channel = confirmed;
      return confirmed;
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeSleep = done;
    });
  }
}

/** Anything thrown as an AvatarError of `phase`. */
export function toAvatarError(error: unknown, phase: ErrorPhase): AvatarError {
  if (isAvatarError(error)) return error;
  return new AvatarError('unknown', error instanceof Error ? error.message : String(error), {
    phase,
    cause: error,
  });
}
