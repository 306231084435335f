/**
 * Bounds what connections that never become a session can hold: Node's header, request and
 * keep-alive timeouts on the HTTP server, an idle timeout for sockets that send nothing, and a cap
 * on the connections one address may keep open before they become sessions (slowloris, idle
 * connection floods). A socket upgraded into a session leaves the count: sessions are
 * authenticated and limited per app instead.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ServiceLimits } from '../limits.js';
import { peerAddress } from './client-address.js';

/** The limits the guard applies (a subset of {@link ServiceLimits}). */
export type ConnectionLimits = Pick<
  ServiceLimits,
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'connectionIdleTimeoutMs'
  | 'maxConnectionsPerAddress'
>;

/** The options of Node's HTTP server that carry the timeouts (passed when fastify creates it). */
export function httpServerTimeouts(limits: ConnectionLimits) {
  // Node refuses a header timeout longer than the request timeout (the request includes them).
  const headersTimeout =
    limits.requestTimeoutMs > 0
      ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)
      : limits.headersTimeoutMs;
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node looks for connections past the header and request timeouts.
    connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(headersTimeout / 4))),
  };
}

const COUNTED = Symbol('avatar-drive.connection-counted');
type CountedSocket = Socket & { [COUNTED]?: string };

/** Counts pre-session connections per address on one HTTP server and refuses those past the cap. */
export class ConnectionGuard {
  readonly #open = new Map<string, number>();
  readonly #limits: ConnectionLimits;
  readonly #logger: Logger | undefined;
  /** Connections refused for the per-address cap since start. */
  refused = 0;

  constructor(limits: ConnectionLimits, logger?: Logger) {
    this.#limits = limits;
    this.#logger = logger;
  }

  /** Applies the timeouts Node did not get at construction, and starts counting connections. */
  attach(server: Server): void {
    const timeouts = httpServerTimeouts(this.#limits);
    server.headersTimeout = timeouts.headersTimeout;
    server.requestTimeout = timeouts.requestTimeout;
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
    // Inactivity on a socket that is not a session yet (the session has its own ping and idle limits;
    // ws clears this timeout on upgrade).
    server.setTimeout(this.#limits.connectionIdleTimeoutMs, (socket: Socket) => socket.destroy());
    server.on('connection', (socket: Socket) => this.#admit(socket as CountedSocket));
  }

  /** Pre-session connections `address` holds now. */
  openFrom(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /** `socket` became a session: it no longer counts against its address. */
  promote(socket: Socket): void {
    this.#forget(socket as CountedSocket);
  }

  #admit(socket: CountedSocket): void {
    const address = peerAddress(socket);
    const open = this.#open.get(address) ?? 0;
    if (open >= this.#limits.maxConnectionsPerAddress) {
      this.refused++;
      if (this.refused === 1 || this.refused % 1000 === 0) {
        this.#logger?.warn(
          { address, open, refused: this.refused },
          'connection refused: too many open connections from one address',
        );
      }
      socket.destroy();
      return;
    }
    this.#open.set(address, open + 1);
    socket[COUNTED] = address;
    socket.once('close', () => this.#forget(socket));
  }

  #forget(socket: CountedSocket): void {
    const address = socket[COUNTED];
    if (address === undefined) return;
    socket[COUNTED] = undefined;
    const left = (this.#open.get(address) ?? 1) - 1;
    if (left <= 0) this.#open.delete(address);
    else this.#open.set(address, left);
  }
}
