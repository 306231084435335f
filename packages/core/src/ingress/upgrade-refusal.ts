/**
 * Names a connection the ingress refused before the WebSocket upgrade. The service answers a
 * bad token, app or avatar with an HTTP status (401, 400, 404) and a JSON error body. Node's `ws`
 * hands both over; a browser only sees an abnormal close (1006), indistinguishable from a network
 * failure, hence retryable. Two things tell them apart where the body is missing: the platform's
 * error event text carrying the status (Node's `ws`, React Native on iOS and Android), and the
 * token's own expiry.
 */
import { CloseCode } from '../close-codes.js';
import { AvatarError } from '../errors.js';
import { tokenExpiry } from '../session-token.js';
import { httpErrorToAvatarError } from './http-errors.js';

/**
 * An HTTP answer that refused the upgrade, as a WebSocket adapter that can see it reports it:
 * on the error event, as its `refusal` property (see `WebSocketLike.onerror`).
 */
export interface UpgradeRefusal {
  /** The HTTP status (4xx, 5xx). */
  status: number;
  /** The parsed JSON body (`{errors: [{status, code, title, detail}]}`), when there was one. */
  body?: unknown;
  /** The `Retry-After` header, when the server sent one. */
  retryAfter?: string | null;
}

/** The endpoint an attempt went to, as messages name it. */
export interface IngressWhere {
  ingressUrl: string;
  region: string;
}

const STATUS_PATTERNS = [
  /Unexpected server response: (\d{3})/, // ws (Node)
  /Expected HTTP 101 response but was '(\d{3})/, // OkHttp (React Native, Android)
  /bad response code from server:? ?\(?(\d{3})/i, // SocketRocket (React Native, iOS)
];

/**
 * What an error event says about a refused upgrade: the adapter's structured `refusal`, else the
 * HTTP status read from the platform's error text; `undefined` when it says nothing (browsers).
 */
export function upgradeRefusalOf(event: unknown): UpgradeRefusal | undefined {
  const e = event as
    | { refusal?: unknown; message?: unknown; error?: { message?: unknown } | null }
    | null
    | undefined;
  const refusal = e?.refusal as UpgradeRefusal | undefined;
  if (typeof refusal === 'object' && refusal !== null && Number.isInteger(refusal.status)) return refusal;
  const status = upgradeStatus(event);
  return status === undefined ? undefined : { status };
}

/** The HTTP status an upgrade was refused with, when the platform's error event says it. */
export function upgradeStatus(event: unknown): number | undefined {
  const e = event as { message?: unknown; error?: { message?: unknown } | null } | null | undefined;
  const text = [e?.message, e?.error?.message].filter((m): m is string => typeof m === 'string').join(' ');
  for (const pattern of STATUS_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The default advice for an expired token; an SDK replaces it with its own API's words. */
export const DEFAULT_EXPIRED_TOKEN_HINT = 'Mint a fresh one on your server and connect with it.';

/**
 * The error for a refused upgrade that carried the service's error body: the body's code and
 * detail, the token redacted (see {@link httpErrorToAvatarError}).
 */
export function refusalWithBodyError(refusal: UpgradeRefusal, where: string, token: string): AvatarError {
  return httpErrorToAvatarError(refusal.status, refusal.body, {
    action: `Opening the ingress WebSocket at ${where}`,
    phase: 'connect',
    secrets: [token],
    retryAfter: refusal.retryAfter ?? null,
  });
}

/**
 * The error for an abnormal close while connecting when it can be named without a body: the
 * token has expired (by its `exp`), or the upgrade was refused with a 4xx (not retried) or 5xx
 * status. `undefined` when nothing more than "could not connect" is known.
 *
 * @param expiredHint the sentence after "…refused it." telling the user how to get a fresh token.
 */
export function refusedUpgradeError(
  status: number | undefined,
  token: string,
  endpoint: IngressWhere,
  nowSeconds: number = Date.now() / 1000,
  expiredHint: string = DEFAULT_EXPIRED_TOKEN_HINT,
): AvatarError | undefined {
  const where = `the ingress at ${endpoint.ingressUrl} (${endpoint.region})`;
  const options = {
    closeCode: CloseCode.Abnormal,
    phase: 'connect' as const,
    ...(status !== undefined && { httpStatus: status }),
  };
  const exp = tokenExpiry(token);
  if (exp !== undefined && exp <= nowSeconds && (status === undefined || status === 401)) {
    return new AvatarError(
      'sessionTokenExpired',
      `The session token expired at ${new Date(exp * 1000).toISOString()}, so ${where} refused it. ${expiredHint}`,
      { ...options, retryable: false },
    );
  }
  if (status === undefined) return undefined;
  if (status === 401) {
    return new AvatarError(
      'sessionTokenInvalid',
      `Invalid session token: ${where} refused it (HTTP 401); it is malformed or was already used. Session tokens are single-use: mint a new one for each connection.`,
      { ...options, retryable: false },
    );
  }
  if (status === 404) {
    return new AvatarError(
      'avatarNotFound',
      `${where} does not know this avatar (HTTP 404). GET /v1/console/avatars lists the avatar ids.`,
      { ...options, retryable: false },
    );
  }
  if (status >= 400 && status < 500) {
    return new AvatarError(
      'invalidRequest',
      `${where} refused the connection (HTTP ${status}): check that the app id is the one the session token was minted for.`,
      { ...options, retryable: false },
    );
  }
  if (status >= 500) {
    return new AvatarError('connectionFailed', `${where} failed to accept the connection (HTTP ${status}).`, {
      ...options,
      retryable: true,
    });
  }
  return undefined;
}
