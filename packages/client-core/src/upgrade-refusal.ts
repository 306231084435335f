/**
 * Names a connection the ingress refused before the WebSocket upgrade. The service answers a
 * bad token, app or avatar with an HTTP status (401, 400, 404), which a browser only sees as an
 * abnormal close (1006) — indistinguishable from a network failure, hence retryable. Two things
 * tell them apart where available: the platform's error event text carrying the status (Node's
 * `ws`, React Native on iOS and Android), and the token's own expiry.
 */
import { AvatarError, CloseCode, type ResolvedEndpoint } from '@avatar-drive/core';
import { tokenExpiry } from './token-expiry.js';

const STATUS_PATTERNS = [
  /Unexpected server response: (\d{3})/, // ws (Node)
  /Expected HTTP 101 response but was '(\d{3})/, // OkHttp (React Native, Android)
  /bad response code from server:? ?\(?(\d{3})/i, // SocketRocket (React Native, iOS)
];

/** The HTTP status an upgrade was refused with, when the platform's error event says it. */
export function upgradeStatus(event: unknown): number | undefined {
  const e = event as { message?: unknown; error?: { message?: unknown } } | null | undefined;
  const text = [e?.message, e?.error?.message].filter((m): m is string => typeof m === 'string').join(' ');
  for (const pattern of STATUS_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * The error for an abnormal close while connecting when it can be named: the token has expired
 * (by its `exp`), or the upgrade was refused with a 4xx (not retried) or 5xx status. `undefined`
 * when nothing more than "could not connect" is known.
 */
export function refusedUpgradeError(
  status: number | undefined,
  token: string,
  endpoint: ResolvedEndpoint,
  nowSeconds: number = Date.now() / 1000,
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
      `The session token expired at ${new Date(exp * 1000).toISOString()}, so ${where} refused it. Mint a fresh one on your server and set AvatarSDK.sessionToken before start().`,
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
