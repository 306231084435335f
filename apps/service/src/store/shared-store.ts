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

/**
 * How an app's session tokens may be used (set with PUT /v1/console/token-policy):
 * - `single` (the default, the contract): a token opens one session, ever.
 * - `sequential`: a token opens a new session only while no session it opened is still open,
 *   until it expires (SDKs that prefetch one token per worker process reuse it).
 */
export type TokenUsePolicy = 'single' | 'sequential';

export const TOKEN_USE_POLICIES: readonly TokenUsePolicy[] = ['single', 'sequential'];

export interface SharedStore {
  /** Which backend this is, for logs and /readyz. */
  readonly kind: 'memory' | 'redis';
  /** Marks a token id used. True the first time, false for every later use. */
  consumeToken(jti: string, expiresAtMs: number): Promise<boolean>;
  /**
   * Sequential use: takes token `jti` for session `sessionId` of `appId` when no session still
   * open (on any node) holds it. True when taken. A token once consumed single-use stays spent.
   */
  claimToken(jti: string, expiresAtMs: number, appId: string, sessionId: string): Promise<boolean>;
  /** Gives a sequential token back when its session closes (idempotent; only `sessionId`'s hold). */
  releaseToken(jti: string, sessionId: string): Promise<void>;
  /** The app's token-use policy; `single` when none was set. */
  tokenPolicy(appId: string): Promise<TokenUsePolicy>;
  /** Sets the app's token-use policy for every node. */
  setTokenPolicy(appId: string, policy: TokenUsePolicy): Promise<void>;
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
