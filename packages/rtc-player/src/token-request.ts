/**
 * Asks your business server's `POST /token` (the token server's reference behaviour) for an RTC
 * join token, and checks the answer: a response without `url`, `token` or `room` is a failure,
 * never a half-filled connect config.
 */
import { AvatarError } from '@avatar-drive/core';
import type { RtcConnectConfig } from './provider.js';

/** What `POST /token` answers. */
export interface RtcTokenResponse {
  /** RTC access token for this user. */
  token: string;
  /** RTC server URL (`ws://` or `wss://`). */
  url: string;
  /** The room the token joins. */
  room: string;
  /** The identity the token carries (empty when the server did not say). */
  identity: string;
  /** The same as a {@link RtcConnectConfig}, for `player.connect()`. */
  connectConfig: RtcConnectConfig;
}

/** Options of {@link fetchRtcToken}. */
export interface FetchRtcTokenOptions {
  /** Room to join; the server's default room when absent. */
  room?: string;
  /** Your user's identity; the server generates one when absent. */
  identity?: string;
  /** Extra request headers (e.g. your app's own auth). */
  headers?: Record<string, string>;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * `POST {endpoint}` with `{ room?, identity? }`; resolves with the checked answer.
 *
 * @example
 * ```ts
 * const { connectConfig } = await fetchRtcToken('/token', { room: 'support-42' });
 * await player.connect(connectConfig);
 * ```
 * @throws AvatarError `connectionFailed` when the server cannot be reached (retryable),
 *   `serverError` for an HTTP error (with the server's `error` text), `protocolError` when the
 *   answer is not JSON or lacks `url`, `token` or `room`.
 */
export async function fetchRtcToken(
  endpoint: string,
  options: FetchRtcTokenOptions = {},
): Promise<RtcTokenResponse> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const body: Record<string, string> = {};
  if (options.room !== undefined) body.room = options.room;
  if (options.identity !== undefined) body.identity = options.identity;
  let response: Response;
  try {
    response = await doFetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      ...(options.signal && { signal: options.signal }),
    });
  } catch (cause) {
    throw new AvatarError(
      'connectionFailed',
      `Could not reach the token endpoint ${endpoint}; check that your server is running and retry.`,
      { cause, phase: 'connect', retryable: true },
    );
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const said = (json as { error?: unknown } | undefined)?.error;
    throw new AvatarError(
      'serverError',
      `The token endpoint answered HTTP ${response.status}${typeof said === 'string' ? `: ${said}` : ''}.`,
      { phase: 'connect', httpStatus: response.status, retryable: response.status >= 500 },
    );
  }
  const answer = (json ?? {}) as Record<string, unknown>;
  const missing = (['url', 'token', 'room'] as const).filter(
    (field) => typeof answer[field] !== 'string' || answer[field] === '',
  );
  if (json === undefined || typeof json !== 'object' || missing.length > 0) {
    throw new AvatarError(
      'protocolError',
      json === undefined || typeof json !== 'object'
        ? `The token endpoint ${endpoint} did not answer a JSON object; it must return { url, token, room, identity }.`
        : `The token endpoint's answer lacks ${missing.join(', ')}; it must return { url, token, room, identity } (strings).`,
      { phase: 'connect', retryable: false },
    );
  }
  const url = answer.url as string;
  const token = answer.token as string;
  const room = answer.room as string;
  const identity = typeof answer.identity === 'string' ? answer.identity : '';
  return { url, token, room, identity, connectConfig: { url, token, roomName: room } };
}
