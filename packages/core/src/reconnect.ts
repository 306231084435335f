/**
 * The one reconnect policy of every Avatar Drive SDK (browser, React Native, server): which
 * failures are retried, in which order the regions are tried, and how long to wait in between.
 *
 * Rules (the close-code table in errors.ts decides `retryable`):
 * - a 40xx failure is the request's fault (auth, quota, bad request) and is never retried;
 * - a 45xx failure, an abnormal close (1006, …) or a timeout is retried;
 * - each round tries every endpoint once, primary first, without waiting (region fallback);
 *   round r ≥ 1 starts after `backoffDelay(r − 1)`: `initialDelayMs · 2^(r−1)`, capped at
 *   `maxDelayMs`, less a random share up to `jitter` so clients do not retry in lockstep;
 * - at most `maxAttempts` attempts in all.
 */
import { AvatarError } from './errors.js';

/** How retryable connection failures are retried. */
export interface ReconnectPolicy {
  /** Connection attempts per (re)connect, across regions; 1 = no retry. */
  maxAttempts: number;
  /** Wait before the second round of endpoints, in ms; doubles every round. */
  initialDelayMs: number;
  /** Largest wait between rounds, in ms. */
  maxDelayMs: number;
  /** Share of each wait taken off at random, 0 … 1 (0.5: the wait is 50 %–100 % of the step). */
  jitter: number;
}

/** The defaults every SDK uses: 4 attempts, 250 ms doubling to at most 5 s, 50 % jitter. */
export const DEFAULT_RECONNECT_POLICY: Readonly<ReconnectPolicy> = Object.freeze({
  maxAttempts: 4,
  initialDelayMs: 250,
  maxDelayMs: 5000,
  jitter: 0.5,
});

/**
 * The defaults overlaid with `options`, checked.
 * @throws AvatarError `invalidRequest` for a non-positive attempt count, a negative delay or a
 *   jitter outside 0 … 1.
 */
export function resolveReconnectPolicy(options: Partial<ReconnectPolicy> = {}): ReconnectPolicy {
  const policy: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY };
  for (const key of Object.keys(DEFAULT_RECONNECT_POLICY) as (keyof ReconnectPolicy)[]) {
    const value = options[key];
    if (value !== undefined) policy[key] = value;
  }
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new AvatarError(
      'invalidRequest',
      `reconnect.maxAttempts must be a positive integer, got ${String(policy.maxAttempts)}.`,
    );
  }
  for (const key of ['initialDelayMs', 'maxDelayMs'] as const) {
    if (typeof policy[key] !== 'number' || !(policy[key] >= 0)) {
      throw new AvatarError(
        'invalidRequest',
        `reconnect.${key} must be a number ≥ 0, got ${String(policy[key])}.`,
      );
    }
  }
  if (typeof policy.jitter !== 'number' || !(policy.jitter >= 0 && policy.jitter <= 1)) {
    throw new AvatarError(
      'invalidRequest',
      `reconnect.jitter must be from 0 to 1, got ${String(policy.jitter)}.`,
    );
  }
  return policy;
}

/**
 * The wait before backoff step `step` (0-based): `initialDelayMs · 2^step` capped at
 * `maxDelayMs`, times a random factor in [1 − jitter, 1].
 */
export function backoffDelay(
  step: number,
  policy: Pick<ReconnectPolicy, 'initialDelayMs' | 'maxDelayMs' | 'jitter'>,
  random: () => number = Math.random,
): number {
  const raw = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** step);
  return Math.round(raw * (1 - policy.jitter + policy.jitter * random()));
}

/**
 * The wait before attempt `attempt` (0-based) when `endpointCount` endpoints are tried in
 * rounds: 0 inside a round, a backoff step at the start of every round after the first.
 */
export function attemptDelay(
  attempt: number,
  endpointCount: number,
  policy: Pick<ReconnectPolicy, 'initialDelayMs' | 'maxDelayMs' | 'jitter'>,
  random: () => number = Math.random,
): number {
  const count = Math.max(1, endpointCount);
  if (attempt < count || attempt % count !== 0) return 0;
  return backoffDelay(attempt / count - 1, policy, random);
}

/** What {@link connectWithFallback} needs from its caller. */
export interface FallbackOptions<E extends { region: string }, T> {
  /** Endpoints in order, primary first. */
  endpoints: readonly E[];
  policy: ReconnectPolicy;
  /** One attempt against `endpoint`; rejects with the failure (retried when `retryable`). */
  attempt: (endpoint: E, index: number) => Promise<T>;
  /** Turns anything an attempt threw into an AvatarError (default: `unknown`). */
  toError?: (error: unknown) => AvatarError;
  /**
   * Called before each attempt and after each wait; throw to stop (e.g. the caller closed).
   * What it throws is rethrown as is.
   */
  checkStopped?: () => void;
  /** Waits `ms` (default setTimeout); a caller that can be closed makes it wake early. */
  sleep?: (ms: number) => Promise<void>;
  /** Told before every retry, with the failure and the wait before it. */
  onRetry?: (next: E, attempt: number, error: AvatarError, delayMs: number) => void;
  random?: () => number;
}

/**
 * Names what was tried, for the give-up message: "region east", "regions east, west", or "the
 * endpoint you configured" for explicit `endpoints` (their region is the placeholder `custom`).
 */
function whereTried(endpoints: readonly { region: string }[]): string {
  const regions = [...new Set(endpoints.map((x) => x.region))];
  const named = regions.filter((r) => r !== 'custom');
  const parts: string[] = [];
  if (named.length < regions.length) parts.push('the endpoint you configured');
  if (named.length > 0) parts.push(`region${named.length === 1 ? '' : 's'} ${named.join(', ')}`);
  return parts.join(' and ');
}

/**
 * Runs attempts under the policy until one succeeds, one fails with a non-retryable error
 * (rethrown as is), or `maxAttempts` retryable failures happened (the last one is rethrown,
 * its message saying how many attempts were made across which regions).
 */
export async function connectWithFallback<E extends { region: string }, T>(
  options: FallbackOptions<E, T>,
): Promise<T> {
  const { endpoints, policy } = options;
  if (endpoints.length === 0) throw new AvatarError('invalidRequest', 'No endpoint to connect to.');
  const toError = options.toError ?? defaultToError;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const max = policy.maxAttempts;
  let lastError: AvatarError | undefined;
  let nextDelay = 0;
  for (let attempt = 0; attempt < max; attempt++) {
    const endpoint = endpoints[attempt % endpoints.length]!;
    if (nextDelay > 0) await sleep(nextDelay);
    options.checkStopped?.();
    let result: T;
    try {
      result = await options.attempt(endpoint, attempt);
    } catch (error) {
      options.checkStopped?.();
      const e = toError(error);
      if (!e.retryable) throw e;
      lastError = e;
      if (attempt + 1 < max) {
        nextDelay = attemptDelay(attempt + 1, endpoints.length, policy, random);
        options.onRetry?.(endpoints[(attempt + 1) % endpoints.length]!, attempt + 1, e, nextDelay);
      }
      continue;
    }
    return result;
  }
  const e = lastError!;
  throw new AvatarError(
    e.code,
    `${e.message} (gave up after ${max} attempt${max === 1 ? '' : 's'} at ${whereTried(endpoints.slice(0, max))})`,
    {
      retryable: e.retryable,
      ...(e.phase !== undefined && { phase: e.phase }),
      ...(e.closeCode !== undefined && { closeCode: e.closeCode }),
      ...(e.details !== undefined && { details: e.details }),
      ...(e.httpStatus !== undefined && { httpStatus: e.httpStatus }),
      cause: e,
    },
  );
}

/**
 * Whether an established session that dropped with `error` should reconnect on its own: only a
 * retryable drop (45xx, abnormal close), and only when the caller can connect again
 * (`mayReconnect`) — a session token is single-use, so a client holding one consumed token
 * reports the drop instead, and a server may turn reconnecting off.
 */
export function shouldReconnectAfterDrop(error: AvatarError, mayReconnect: boolean): boolean {
  return error.retryable && mayReconnect;
}

function defaultToError(error: unknown): AvatarError {
  if (error instanceof AvatarError) return error;
  return new AvatarError('unknown', error instanceof Error ? error.message : String(error), { cause: error });
}

// core compiles without DOM or Node types; every runtime it targets has a global setTimeout.
const timers = globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown };

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => timers.setTimeout(resolve, ms));
}
