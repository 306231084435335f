/**
 * Session tokens: the single-use credential a client (your server, or a browser you hand it to)
 * opens one ingress WebSocket with. Minted with the app's API key, which stays on your server.
 */
import {
  AvatarError,
  httpErrorToAvatarError,
  MAX_TOKEN_TTL_SECONDS,
  parseJsonBody,
  type RegionEndpoints,
  redact,
} from '@avatar-drive/core';
import { endpointsFor } from './endpoints.js';

// The lifetime bound is core's (the service enforces the same one); exported here as before.
export { MAX_TOKEN_TTL_SECONDS };
/** Lifetime used when neither `expireAt` nor `ttlSeconds` is given. */
export const DEFAULT_TOKEN_TTL_SECONDS = 600;

/** Options of {@link createSessionToken}. */
export interface CreateSessionTokenOptions {
  /** The app's API key. Server-side only: never send it to a browser. */
  apiKey: string;
  /** Region whose console mints the token (default `ap-northeast`). Tokens work in every region. */
  region?: string;
  /** Region to try when the primary's console is unreachable or answers 5xx; `null` for none. */
  backupRegion?: string | null;
  /** Your own region map (replaces/extends the built-in defaults). */
  regions?: Readonly<Record<string, RegionEndpoints>>;
  /** Explicit console base URL, e.g. `https://avatar.example.com` (wins over `region`). */
  consoleUrl?: string;
  /** Expiry as epoch seconds (or a Date); after now and less than 24 h ahead (both strict). */
  expireAt?: number | Date;
  /** Lifetime in seconds (1 … 86399: under 24 h); default 600. Give this or `expireAt`, not both. */
  ttlSeconds?: number;
  /** Per-request timeout in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** A minted token with where and until when it is valid. */
export interface SessionTokenInfo {
  sessionToken: string;
  /** Epoch seconds. The expiry is checked when a connection opens; open connections continue. */
  expireAt: number;
  /** The region (or `custom`) whose console minted it. */
  region: string;
}

/**
 * Mints a single-use session token with your API key.
 *
 * Tries the primary region's console, then the backup on a retryable failure (network error,
 * timeout, 5xx). Every failure is an {@link AvatarError} carrying the server's detail; the API
 * key never appears in an error message.
 *
 * @throws AvatarError `invalidRequest` for bad options; `appIDUnrecognized` (401) for a wrong API
 *   key; `concurrencyLimit` (429, `details.retryAfterSeconds`); `upstreamError` (503);
 *   `connectionFailed` when no console answered.
 * @example
 * ```ts
 * const token = await createSessionToken({ apiKey: process.env.AVATAR_DRIVE_API_KEY!, region: 'us-west', ttlSeconds: 300 });
 * ```
 */
export async function createSessionToken(options: CreateSessionTokenOptions): Promise<string> {
  return (await mintSessionToken(options)).sessionToken;
}

/** Like {@link createSessionToken}, also returning the expiry and the region that minted it. */
export async function mintSessionToken(options: CreateSessionTokenOptions): Promise<SessionTokenInfo> {
  if (typeof options !== 'object' || options === null) {
    throw new AvatarError(
      'invalidRequest',
      'createSessionToken() takes an options object: { apiKey, region, ttlSeconds }.',
    );
  }
  checkApiKey(options.apiKey);
  const expireAt = resolveExpiry(options);
  const endpoints = endpointsFor(options);
  let lastError: AvatarError | undefined;
  for (const endpoint of endpoints) {
    try {
      const sessionToken = await requestSessionToken(endpoint.consoleUrl, options.apiKey, expireAt, options);
      return { sessionToken, expireAt, region: endpoint.region };
    } catch (error) {
      const e = error as AvatarError;
      if (!e.retryable) throw e;
      lastError = e;
    }
  }
  throw lastError!;
}

/** One POST /v1/console/session-tokens against one console. */
export async function requestSessionToken(
  consoleUrl: string,
  apiKey: string,
  expireAt: number,
  options: Pick<CreateSessionTokenOptions, 'timeoutMs' | 'signal' | 'fetch'> = {},
): Promise<string> {
  const url = `${consoleUrl.replace(/\/+$/, '')}/v1/console/session-tokens`;
  const action = `Minting a session token at ${url}`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, accept: 'application/json' },
      body: JSON.stringify({ expireAt }),
      signal,
    });
  } catch (cause) {
    const aborted = options.signal?.aborted === true;
    const timedOut = !aborted && timeout.aborted;
    throw new AvatarError(
      aborted ? 'connectionClosed' : 'connectionFailed',
      aborted
        ? `${action} was aborted.`
        : timedOut
          ? `${action} timed out after ${options.timeoutMs ?? 10_000} ms. Check the console URL or region, then retry.`
          : `${action} failed: the console could not be reached (${redact(describeCause(cause), [apiKey])}). Check the console URL or region, then retry.`,
      { retryable: !aborted, phase: 'initialize' },
    );
  }
  const text = await response.text().catch(() => '');
  const body = parseJsonBody(text);
  if (!response.ok) {
    throw httpErrorToAvatarError(response.status, body, {
      action,
      phase: 'initialize',
      secrets: [apiKey],
      retryAfter: response.headers.get('retry-after'),
    });
  }
  const token =
    typeof body === 'object' && body !== null ? (body as { sessionToken?: unknown }).sessionToken : undefined;
  if (typeof token !== 'string' || token === '') {
    throw new AvatarError(
      'protocolError',
      `${action} returned HTTP ${response.status} without a sessionToken. Check that the URL points at an Avatar Drive console.`,
      { phase: 'initialize', httpStatus: response.status },
    );
  }
  return token;
}

function checkApiKey(apiKey: unknown): asserts apiKey is string {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new AvatarError(
      'invalidRequest',
      'apiKey is required to mint a session token: pass your app API key (kept on your server, e.g. from an environment variable).',
    );
  }
}

/** Checks `expireAt` / `ttlSeconds` and returns the expiry in epoch seconds. */
export function resolveExpiry(
  options: { expireAt?: number | Date; ttlSeconds?: number },
  nowMs = Date.now(),
): number {
  const now = Math.floor(nowMs / 1000);
  if (options.expireAt !== undefined && options.ttlSeconds !== undefined) {
    throw new AvatarError('invalidRequest', 'Give either expireAt or ttlSeconds, not both.');
  }
  if (options.expireAt !== undefined) {
    const at =
      options.expireAt instanceof Date ? Math.floor(options.expireAt.getTime() / 1000) : options.expireAt;
    if (typeof at !== 'number' || !Number.isInteger(at)) {
      throw new AvatarError(
        'invalidRequest',
        `expireAt must be whole epoch seconds (or a Date), got ${String(options.expireAt)}. Example: Math.floor(Date.now() / 1000) + 600.`,
      );
    }
    // The contract's bounds, both strict: now < expireAt < now + 24 h.
    if (at <= now || at >= now + MAX_TOKEN_TTL_SECONDS) {
      throw new AvatarError(
        'invalidRequest',
        `expireAt must be after now (${now}) and less than 24 h ahead (< ${now + MAX_TOKEN_TTL_SECONDS}), got ${at}. Did you pass milliseconds?`,
      );
    }
    return at;
  }
  const ttl = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl >= MAX_TOKEN_TTL_SECONDS) {
    throw new AvatarError(
      'invalidRequest',
      `ttlSeconds must be a whole number of seconds from 1 to ${MAX_TOKEN_TTL_SECONDS - 1} (under 24 h), got ${String(ttl)}.`,
    );
  }
  return now + ttl;
}

function describeCause(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (inner && typeof inner.code === 'string') return inner.code;
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
