/**
 * Bounds what connections that never become a session can hold: Node's header and keep-alive
 * timeouts on the HTTP server, a request timeout per request (fixed, or progress-based for
 * uploads, which may be large and slow), an idle timeout for sockets that send nothing, and a cap
 * on the connections one address may keep open before they become sessions (slowloris, idle
 * connection floods). A socket upgraded into a session leaves the count: sessions are
 * authenticated and limited per app instead.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { peerAddress, type TrustedProxies } from '../client-address.js';
import { errorBody } from '../errors.js';
import type { ServiceLimits } from '../limits.js';

/** The limits the guard applies (a subset of {@link ServiceLimits}). */
export type ConnectionLimits = Pick<
  ServiceLimits,
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'uploadProgressWindowMs'
  | 'uploadMinBytesPerSecond'
  | 'keepAliveTimeoutMs'
  | 'connectionIdleTimeoutMs'
  | 'maxConnectionsPerAddress'
>;

/**
 * The options of Node's HTTP server that carry the timeouts (passed when fastify creates it).
 * Node's own request timeout is off (0): it cannot tell an upload from any other request, so
 * {@link ConnectionGuard} times each request itself. The header timeout stays Node's (it runs
 * on its own when given explicitly).
 */
export function httpServerTimeouts(limits: ConnectionLimits) {
  // A request includes its headers: they cannot take longer than the whole.
  const headersTimeout =
    limits.requestTimeoutMs > 0
      ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)
      : limits.headersTimeoutMs;
  return {
    headersTimeout,
    requestTimeout: 0,
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

  readonly #trusted: TrustedProxies | undefined;

  /**
   * @param trusted proxies (`--trusted-proxies`) exempt from the per-address cap: every client
   *   behind one arrives from its address, so the cap would throttle all of them together (cap
   *   clients per address at the proxy instead).
   */
  readonly #isUpload: (req: IncomingMessage) => boolean;
  /** Requests ended for their request timeout (fixed or progress-based) since start. */
  timedOut = 0;

  /**
   * @param isUpload which requests get the progress-based timeout instead of the fixed one
   *   (default: POST /v1/console/avatars).
   */
  constructor(
    limits: ConnectionLimits,
    logger?: Logger,
    trusted?: TrustedProxies,
    isUpload: (req: IncomingMessage) => boolean = isAvatarUpload,
  ) {
    this.#limits = limits;
    this.#logger = logger;
    this.#trusted = trusted;
    this.#isUpload = isUpload;
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
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#timeRequest(req, res));
  }

  /**
   * Ends `req` with 408 unless its body has all arrived in time: within the request timeout, or
   * for an upload, with at least the minimum rate in every progress window. One timer per request
   * in flight, read from the socket's byte count (no listener on the body: it stays the route's).
   */
  #timeRequest(req: IncomingMessage, res: ServerResponse): void {
    const { requestTimeoutMs, uploadProgressWindowMs, uploadMinBytesPerSecond } = this.#limits;
    const upload = this.#isUpload(req) && uploadProgressWindowMs > 0;
    if (!upload && requestTimeoutMs <= 0) return;
    const socket = req.socket;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => clearTimeout(timer);
    res.once('close', stop);
    const expire = (why: string) => {
      if (req.complete || socket.destroyed) return;
      this.timedOut++;
      this.#logger?.info({ address: peerAddress(socket), why }, 'request timed out');
      if (!res.headersSent && socket.writable) socket.write(timeoutResponse(why));
      socket.destroy();
    };
    if (!upload) {
      timer = setTimeout(
        () => expire(`the request did not arrive within ${requestTimeoutMs / 1000} s`),
        requestTimeoutMs,
      );
      return;
    }
    const needed = Math.ceil((uploadMinBytesPerSecond * uploadProgressWindowMs) / 1000);
    let mark = socket.bytesRead;
    const check = () => {
      if (req.complete) return;
      const read = socket.bytesRead - mark;
      if (read < needed) {
        expire(
          `the upload sent ${read} bytes in ${uploadProgressWindowMs / 1000} s, under the ${uploadMinBytesPerSecond} bytes/s it must keep up`,
        );
        return;
      }
      mark = socket.bytesRead;
      timer = setTimeout(check, uploadProgressWindowMs);
    };
    timer = setTimeout(check, uploadProgressWindowMs);
  }

  /** Pre-session connections `address` holds now. */
  openFrom(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /** `socket` became a session: it no longer counts against its address. */
  promote(socket: Socket): void {
    // Over TLS the session's socket wraps the raw one that was counted (tls.Server keeps it as
    // `_parent`), so look there too.
    const raw = (socket as Socket & { _parent?: Socket })._parent;
    this.#forget(socket as CountedSocket);
    if (raw) this.#forget(raw as CountedSocket);
  }

  #admit(socket: CountedSocket): void {
    const address = peerAddress(socket);
    if (this.#trusted?.has(address)) return;
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

/** POST /v1/console/avatars: the one route whose body may be large and arrive slowly. */
export function isAvatarUpload(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  return path === '/v1/console/avatars' || path === '/v1/console/avatars/';
}

/** What Node itself answers at its request timeout, with the service's error body. */
function timeoutResponse(detail: string): string {
  const body = JSON.stringify(
    errorBody(408, 'invalidRequest', `${detail}. Send the request again over a faster connection.`),
  );
  return `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
