/** Reconnection timing: exponential backoff with jitter, capped. */

/** How an {@link AvatarSession} retries retryable failures (45xx, network). */
export interface ReconnectOptions {
  /** Connection attempts per (re)connect, across regions; default 4. 1 = no retry. */
  maxAttempts?: number;
  /** First backoff delay in ms; default 250. */
  initialDelayMs?: number;
  /** Largest delay in ms; default 5000. */
  maxDelayMs?: number;
  /** Reconnect after an established connection drops with a retryable code; default true. */
  afterDrop?: boolean;
}

export const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  maxAttempts: 4,
  initialDelayMs: 250,
  maxDelayMs: 5000,
  afterDrop: true,
};

/**
 * The delay before backoff step `step` (0-based): `initial · 2^step`, capped at `max`, with
 * jitter in [50 %, 100 %] so many clients do not retry in lockstep.
 */
export function backoffDelay(
  step: number,
  options: Required<ReconnectOptions>,
  random = Math.random,
): number {
  const raw = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** step);
  return Math.round(raw * (0.5 + random() / 2));
}
