/**
 * The ingress WebSocket endpoint on the service's HTTP server (`noServer` upgrade): authenticates
 * the upgrade, takes a concurrency slot, consumes the single-use token, then hands the socket to a
 * {@link DriveSession}. A session refused for capacity or an unreachable store keeps its token.
 *
 * Before the upgrade: 404 unknown path or avatar, 405/400 a request that is no WebSocket handshake
 * (checked before anything is taken, {@link handshakeProblem}), 400 bad request or app mismatch,
 * 401 missing, invalid, expired or already-used token — each with a JSON error body.
 * A slot is released on every path that does not end in a session: ws refusing the upgrade, or
 * the client leaving while the upgrade was under way.
 * After the upgrade (so browser clients, which cannot read an upgrade's HTTP status, see a code):
 * ServerError + close 4003 when the app is at its concurrency limit, 4503 when the shared store
 * cannot be reached, the node drains, or it is overloaded ({@link OverloadGuard}: refused before a
 * slot or the token is taken, so the refusal costs the node next to nothing).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  type AvatarError,
  type AvatarErrorCode,
  CloseCode,
  encodeMessage,
  serverErrorMessage,
} from '@avatar-drive/core';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AvatarDirectory } from '../avatars/avatar-directory.js';
import type { Refusal } from '../capacity/admission-policy.js';
import type { ConnectionGuard } from '../capacity/connection-guard.js';
import type { OverloadGuard } from '../capacity/overload-guard.js';
import { SessionLease } from '../capacity/session-lease.js';
import { clientAddress, type TrustedProxies } from '../client-address.js';
import type { AppRegistry } from '../credentials/app-registry.js';
import type { SessionTokens } from '../credentials/session-tokens.js';
import type { EgressRegistry } from '../egress/registry.js';
import type { EnginePool } from '../engine-pool/engine-pool.js';
import { errorBody } from '../errors.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { type SharedStore, StoreUnavailableError } from '../store/shared-store.js';
import { DriveSession } from './drive-session.js';
import { handshakeProblem, ingressTarget, shownPath, socketGone } from './socket/handshake.js';

export const INGRESS_PATHS = ['/v2/driveningress', '/v2/driveningress/websocket'];

export interface IngressDeps {
  apps: AppRegistry;
  /** Built-ins and each app's own uploads (an app may only open sessions with those it sees). */
  avatars: Pick<AvatarDirectory, 'has'>;
  tokens: SessionTokens;
  store: SharedStore;
  engine: EnginePool;
  egress: EgressRegistry;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
  logger: Logger;
  /** Peers whose X-Forwarded-For is believed for the client address in logs. */
  trustedProxies: TrustedProxies;
  /** Told when a connection becomes a session (it then leaves the per-address connection count). */
  connections?: ConnectionGuard;
  /** Refuses new sessions (4503) while the node is overloaded or at its estimated capacity. */
  overload?: OverloadGuard;
}

export class IngressServer {
  readonly #deps: IngressDeps;
  readonly #wss: WebSocketServer;
  readonly sessions = new Set<DriveSession>();
  readonly #pingTimer: NodeJS.Timeout;
  #draining = false;

  constructor(deps: IngressDeps) {
    this.#deps = deps;
    // ws enforces a hard cap well above the limit; the session itself reports messages over the
    // limit with a ServerError before closing 1009.
    this.#wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: deps.limits.maxMessageBytes * 2 + 1024,
    });
    this.#pingTimer = setInterval(() => {
      for (const session of this.sessions) session.heartbeat();
    }, deps.limits.pingIntervalMs);
    this.#pingTimer.unref();
  }

  /** Routes `upgrade` events of `server` to the ingress. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      // Opening work is timed (up to the first await here, the upgrade itself below, configure in
      // the session) for the overload guard, which counts it apart from what open sessions cost.
      const start = performance.now();
      socket.on('error', () => undefined);
      this.#handleUpgrade(req, socket, head).catch((error: unknown) => {
        this.#deps.logger.error({ err: error }, 'upgrade failed');
        reject(socket, 500, 'serverError', 'The server failed to accept the connection. Retry.');
      });
      this.#deps.metrics.recordOpeningWork(performance.now() - start);
    });
  }

  /** True once {@link drain} was called: new sessions are refused with 4503. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * Drains the node: refuses new sessions (4503, retryable, token not spent); after `delayMs`
   * (time for the load balancer's health checks to take the node out, so that the sessions it
   * closes reconnect elsewhere) closes each open session with 4503 as soon as the utterances it
   * had open when draining began have finished playing; and after `timeoutMs` (counted from the
   * start) closes the rest the same way. Resolves, when no session is left, with how many were
   * closed at the timeout (utterance unfinished).
   */
  async drain(timeoutMs: number, delayMs = 0): Promise<number> {
    this.#draining = true;
    const start = Date.now();
    const deadline = start + timeoutMs;
    const closeFrom = Math.min(deadline, start + delayMs);
    // The utterances open now are the ones that may finish; later ones do not hold the node.
    const openUpTo = new Map([...this.sessions].map((s) => [s, s.utteranceSeq]));
    let closedAtTimeout = 0;
    // Polled rather than hooked into every playback event: draining happens once per process life,
    // and a session's utterances end on their own clock.
    for (;;) {
      const late = Date.now() >= deadline;
      if (Date.now() < closeFrom) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      for (const session of this.sessions) {
        if (session.phase === 'closed') continue;
        const busy = session.busy(openUpTo.get(session) ?? 0);
        if (late && busy) closedAtTimeout++;
        if (late || !busy) session.shutdown();
      }
      if (this.sessions.size === 0) return closedAtTimeout;
      // Peers that never answer the close handshake are dropped 2 s after it (DriveSession).
      if (Date.now() >= deadline + 2500) return closedAtTimeout;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Closes every session (4503, reconnect) and the WebSocket server. */
  async close(): Promise<void> {
    clearInterval(this.#pingTimer);
    for (const session of this.sessions) session.shutdown();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  async #handleUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    const { metrics, tokens, apps, avatars, logger } = this.#deps;
    const refuse = (status: number, code: AvatarErrorCode, detail: string) => {
      metrics.recordError(code);
      reject(socket, status, code, detail);
    };
    const target = ingressTarget(req.url ?? '/');
    if (target === undefined) {
      refuse(400, 'invalidRequest', 'The request target is not a URL path. Connect to /v2/driveningress.');
      return;
    }
    const { path, query } = target;
    if (!INGRESS_PATHS.includes(path)) {
      refuse(
        404,
        'invalidRequest',
        `No WebSocket endpoint at ${shownPath(path)}. Connect to /v2/driveningress.`,
      );
      return;
    }
    const problem = handshakeProblem(req);
    if (problem) {
      logger.debug(
        { address: clientAddress(req, this.#deps.trustedProxies), status: problem.status },
        'not a WebSocket handshake',
      );
      metrics.recordError('invalidRequest');
      reject(socket, problem.status, 'invalidRequest', problem.detail, problem.headers);
      return;
    }
    const appId = header(req, 'x-app-id') ?? query.get('appId') ?? '';
    const token = header(req, 'x-session-key') ?? query.get('sessionKey') ?? '';
    const avatarId = query.get('id') ?? '';
    if (!token) {
      refuse(
        401,
        'sessionTokenInvalid',
        'No session token. Pass it as X-Session-Key (or ?sessionKey= in browsers).',
      );
      return;
    }
    if (!appId) {
      refuse(400, 'invalidRequest', 'No app id. Pass it as X-App-ID (or ?appId= in browsers).');
      return;
    }
    if (!avatarId) {
      refuse(
        400,
        'invalidRequest',
        'No avatar id. Add ?id=<avatarId> to the URL (GET /v1/console/avatars lists them).',
      );
      return;
    }
    let claims: Awaited<ReturnType<SessionTokens['verify']>>;
    try {
      claims = await tokens.verify(token);
    } catch (error) {
      const e = error as AvatarError;
      refuse(401, e.code, e.message);
      return;
    }
    if (claims.appId !== appId) {
      refuse(
        400,
        'appIDMismatch',
        'app id mismatch: the app id does not match the session token. Use the app id the token was minted for.',
      );
      return;
    }
    if (!apps.byId(appId)) {
      refuse(
        401,
        'appIDUnrecognized',
        'The session token belongs to an app this service no longer knows. Check your app id.',
      );
      return;
    }
    const known = await avatars.has(appId, avatarId);
    if (known === 'unavailable') {
      refuse(
        503,
        'upstreamError',
        'The service cannot look avatars up right now (shared store unavailable). Retry with backoff.',
      );
      return;
    }
    if (!known) {
      refuse(
        404,
        'avatarNotFound',
        `Avatar "${avatarId}" does not exist here. GET /v1/console/avatars lists the avatars.`,
      );
      return;
    }
    // A client that left while the token was checked gets nothing taken on its behalf.
    if (socketGone(socket)) {
      socket.destroy();
      return;
    }
    // Load is judged last, so that the refusal for it goes to requests that would open a session;
    // a session it admits is counted until its upgrade is over (settle), so that a burst of
    // upgrades in flight cannot all pass the estimated capacity at once.
    const overload = this.#deps.overload;
    const refusedForLoad = this.#draining ? undefined : overload?.admit();
    const admitted = overload !== undefined && !this.#draining && refusedForLoad === undefined;
    try {
      await this.#open(req, socket, head, appId, avatarId, claims, refusedForLoad);
    } finally {
      if (admitted) overload.settle();
    }
  }

  /** Takes the slot and the token (unless refused for load) and opens the session. */
  async #open(
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
    appId: string,
    avatarId: string,
    claims: Awaited<ReturnType<SessionTokens['verify']>>,
    refusedForLoad: Refusal,
  ): Promise<void> {
    const overloaded = refusedForLoad !== undefined;
    const { metrics, apps, store, limits, logger } = this.#deps;
    const refuse = (status: number, code: AvatarErrorCode, detail: string) => {
      metrics.recordError(code);
      reject(socket, status, code, detail);
    };
    const connectionId = `conn_${randomBytes(12).toString('base64url')}`;
    let closeAfterUpgrade: { code: AvatarErrorCode; closeCode: number; message: string } | undefined;
    const lease = new SessionLease(store, appId, connectionId);
    try {
      // The slot comes first, so that a refusal for capacity (4003) or an unreachable store (4503)
      // does not spend the single-use token: the client may retry with the same one.
      const limit = apps.byId(appId)?.maxConcurrentSessions ?? limits.maxConcurrentSessionsPerApp;
      const slotTaken = !this.#draining && !overloaded && (await lease.takeSlot(limit));
      if (overloaded && !this.#draining) {
        metrics.overloadRefusals.inc();
        logger.debug(
          { connectionId, appId, reason: refusedForLoad, load: this.#deps.overload!.describe() },
          refusedForLoad === 'full'
            ? 'at estimated capacity: session refused'
            : 'overloaded: session refused',
        );
        closeAfterUpgrade = OVERLOADED;
      } else if (this.#draining) {
        // The load balancer stops sending here once /readyz turns 503; until it does, clients are
        // sent on (retryable, and the token is untouched).
        closeAfterUpgrade = DRAINING;
      } else if (!slotTaken) {
        closeAfterUpgrade = {
          code: 'concurrencyLimit',
          closeCode: CloseCode.ConcurrencyLimit,
          message: `This app already has ${limit} sessions open. Wait for one to end, then retry (the session token was not spent).`,
        };
      } else {
        const policy = await store.tokenPolicy(appId);
        const expiresAtMs = claims.expiresAt * 1000;
        const taken =
          policy === 'sequential'
            ? await store.claimToken(claims.jti, expiresAtMs, appId, connectionId)
            : await store.consumeToken(claims.jti, expiresAtMs);
        if (!taken) {
          lease.dropSlot();
          refuse(
            401,
            'sessionTokenInvalid',
            policy === 'sequential'
              ? "This session token is in use by a session that is still open (or was spent single-use). The app's token policy is sequential: close that session first, or mint a new token."
              : 'This session token was already used. Session tokens are single-use: mint a new one for each connection (or set the token policy to sequential: PUT /v1/console/token-policy).',
          );
          return;
        }
        if (policy === 'sequential') lease.holdToken(claims.jti);
      }
    } catch (error) {
      lease.dropSlot();
      if (!(error instanceof StoreUnavailableError)) throw error;
      logger.warn({ err: error.message }, 'shared store unavailable: refusing a new session');
      closeAfterUpgrade = {
        code: 'upstreamError',
        closeCode: CloseCode.UpstreamUnavailable,
        message: error.tokenSpent
          ? 'The service cannot take new sessions right now (shared store failing over). Retry with backoff and a new session token: this one may count as used.'
          : 'The service cannot take new sessions right now (shared store unavailable). Retry with backoff; the session token was not spent.',
      };
    }
    if (socketGone(socket)) {
      lease.release();
      socket.destroy();
      return;
    }
    // ws answers every handshake synchronously: the callback below runs before handleUpgrade
    // returns, or never (ws refused it, or the socket was half-closed). Unless a session took the
    // slot over, it goes back (also when something below throws).
    let sessionOwnsSlot = false;
    const start = performance.now();
    try {
      this.#upgrade(req, socket, head, connectionId, closeAfterUpgrade, (ws) => {
        const session: DriveSession = new DriveSession(
          ws,
          socket,
          { connectionId, appId, avatarId, client: clientAddress(req, this.#deps.trustedProxies) },
          this.#deps,
          () => {
            this.sessions.delete(session);
            lease.release();
          },
        );
        sessionOwnsSlot = true;
        this.sessions.add(session);
        this.#deps.connections?.promote(socket);
        logger.info(session.info, 'session opened');
      });
    } finally {
      metrics.recordOpeningWork(performance.now() - start);
      if (!sessionOwnsSlot && !lease.released) {
        lease.release();
        logger.debug({ connectionId, appId }, 'no session came of the upgrade: session slot released');
      }
    }
  }

  /** Completes the upgrade: a refusal after it (closeAfterUpgrade), or `open` with the socket. */
  #upgrade(
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
    connectionId: string,
    closeAfterUpgrade: { code: AvatarErrorCode; closeCode: number; message: string } | undefined,
    open: (ws: WebSocket) => void,
  ): void {
    const { metrics } = this.#deps;
    this.#wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      if (closeAfterUpgrade) {
        const { code, closeCode, message } = closeAfterUpgrade;
        metrics.recordError(code);
        ws.send(
          encodeMessage(
            serverErrorMessage({ connectionId, code: closeCode, message: `${code}: ${message}` }),
          ),
        );
        ws.close(closeCode, code);
        setTimeout(() => ws.terminate(), 2000).unref();
        return;
      }
      open(ws);
    });
  }
}

/** The refusal a draining node gives new sessions. */
const DRAINING = {
  code: 'upstreamError',
  closeCode: CloseCode.UpstreamUnavailable,
  message:
    'This node is shutting down and takes no new sessions. Retry: through the load balancer, another node answers (the session token was not spent).',
} as const;

/** The refusal an overloaded node gives new sessions (sessions already open keep streaming). */
const OVERLOADED = {
  code: 'upstreamError',
  closeCode: CloseCode.UpstreamUnavailable,
  message:
    'This node is at capacity and takes no new sessions right now. Retry with backoff (from 1 s): through the load balancer, another node answers (the session token was not spent).',
} as const;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value || undefined;
}

/** Answers an upgrade request with an HTTP error and a JSON body, then closes the socket. */
function reject(
  socket: Socket,
  status: number,
  code: AvatarErrorCode,
  detail: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorBody(status, code, detail));
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      extra +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
