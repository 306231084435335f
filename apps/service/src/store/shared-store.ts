/**
 * State every node and region must agree on: the single-use token ledger, rate limits and per-app
 * concurrent session counts. In memory by default; Redis when REDIS_URL (or Redis Sentinel) is set.
 *
 * Any method may reject with a {@link StoreUnavailableError} when the backing store cannot be
 * reached; callers refuse new work with 4503 and keep established sessions running.
 */

/** The outcome of one rate-limited hit. */
export interface RateLimitResult {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  retryAfterMs: number;
}

export interface SharedStore {
  /** Which backend this is, for logs and /readyz. */
  readonly kind: 'memory' | 'redis';
  /** Marks a token id used. True the first time, false for every later use. */
  consumeToken(jti: string, expiresAtMs: number): Promise<boolean>;
  /** Takes one of `limit` session slots of `appId` for `sessionId`; false when all are taken. */
  acquireSession(appId: string, sessionId: string, limit: number): Promise<boolean>;
  /** Gives a slot back (idempotent). */
  releaseSession(appId: string, sessionId: string): Promise<void>;
  /** Sessions `appId` holds across all nodes. */
  sessionCount(appId: string): Promise<number>;
  /** Counts one hit on `key` in a fixed window; `allowed` is false past `limit`. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /**
   * Whether the store keeps its state across its own restart (Redis: RDB snapshots or AOF). A
   * store that does not forgets used tokens on restart, so each works once more until it expires.
   */
  persistence?(): Promise<StorePersistence>;
  /**
   * Uploaded avatars' metadata (see avatar-records.ts). Optional for stores made by embedders;
   * the service keeps them in its own memory without one.
   */
  readonly avatars?: import('./avatar-records.js').AvatarRecords;
  /** Resolves when the store answers; rejects with StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What {@link SharedStore.persistence} found. */
export interface StorePersistence {
  /** `on`, `off`, or `unknown` (the store does not say, e.g. CONFIG is disabled). */
  state: 'on' | 'off' | 'unknown';
  /** How it was found (e.g. `save "" appendonly no`). */
  detail: string;
}

/** The shared store cannot be reached (Redis down, timeout). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /**
   * True when the failure came after the token was marked used (its replication could not be
   * confirmed): the token must be treated as spent.
   */
  readonly tokenSpent: boolean;

  constructor(message: string, options: { tokenSpent?: boolean } = {}) {
    super(message);
    this.tokenSpent = options.tokenSpent ?? false;
  }
}
