/**
 * The shared store on Redis. Commands fail fast while Redis is unreachable (no offline queue, short
 * timeouts) so new connections are refused with 4503 at once; ioredis reconnects on its own and the
 * store works again as soon as Redis answers.
 *
 * Session slots are members of a per-app sorted set scored by lease expiry: a node refreshes the
 * leases of the sessions it holds, so slots of a node that died free themselves.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  type RateLimitResult,
  type SharedStore,
  type StorePersistence,
  StoreUnavailableError,
} from './shared-store.js';

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease)
return 1`;

const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + lease, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], lease)
return 1`;

const COUNT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

const HIT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key (default `avd:`), so deployments can share a Redis. */
  keyPrefix?: string;
  /** Session slot lease; renewed every third of it (default 30 s). */
  leaseMs?: number;
  /** Per-command timeout (default 1000 ms). */
  commandTimeoutMs?: number;
  logger?: Logger;
}

export class RedisStore implements SharedStore {
  readonly kind = 'redis';
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #held = new Map<string, Set<string>>();
  readonly #renewTimer: NodeJS.Timeout;
  readonly #logger: Logger | undefined;
  #reportedDown = false;

  constructor(options: RedisStoreOptions) {
    this.#prefix = options.keyPrefix ?? 'avd:';
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#logger = options.logger;
    this.#redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: options.commandTimeoutMs ?? 1000,
      // Reconnect forever, at most every second: recovery is automatic.
      retryStrategy: (times) => Math.min(50 * times, 1000),
      reconnectOnError: () => true,
    });
    this.#redis.on('error', (error: Error) => {
      if (!this.#reportedDown) this.#logger?.warn({ err: error.message }, 'shared store (Redis) unreachable');
      this.#reportedDown = true;
    });
    this.#redis.on('ready', () => {
      if (this.#reportedDown) this.#logger?.info('shared store (Redis) reachable again');
      this.#reportedDown = false;
      void this.#renewAll();
    });
    this.#renewTimer = setInterval(() => void this.#renewAll(), Math.max(100, this.#leaseMs / 3));
    this.#renewTimer.unref();
  }

  async consumeToken(jti: string, expiresAtMs: number): Promise<boolean> {
    const result = await this.#run(() =>
      this.#redis.set(
        `${this.#prefix}jti:${jti}`,
        '1',
        'PXAT',
        Math.max(expiresAtMs, Date.now()) + 60_000,
        'NX',
      ),
    );
    return result === 'OK';
  }

  async acquireSession(appId: string, sessionId: string, limit: number): Promise<boolean> {
    const ok = await this.#run(() =>
      this.#redis.eval(ACQUIRE, 1, this.#sessionsKey(appId), this.#leaseMs, limit, sessionId),
    );
    if (ok === 1) {
      let set = this.#held.get(appId);
      if (!set) {
        set = new Set();
        this.#held.set(appId, set);
      }
      set.add(sessionId);
      return true;
    }
    return false;
  }

  async releaseSession(appId: string, sessionId: string): Promise<void> {
    const set = this.#held.get(appId);
    set?.delete(sessionId);
    if (set?.size === 0) this.#held.delete(appId);
    // A release that cannot reach Redis is left to the lease to expire.
    await this.#run(() => this.#redis.zrem(this.#sessionsKey(appId), sessionId)).catch(() => undefined);
  }

  async sessionCount(appId: string): Promise<number> {
    return Number(await this.#run(() => this.#redis.eval(COUNT, 1, this.#sessionsKey(appId))));
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const [count, ttl] = (await this.#run(() =>
      this.#redis.eval(HIT, 1, `${this.#prefix}rl:${key}`, windowMs),
    )) as [number, number];
    return { allowed: count <= limit, count, retryAfterMs: ttl };
  }

  /** RDB snapshots (`save`) or AOF (`appendonly`), from CONFIG GET, else INFO persistence. */
  async persistence(): Promise<StorePersistence> {
    try {
      const save = (await this.#run(() => this.#redis.config('GET', 'save'))) as string[];
      const aof = (await this.#run(() => this.#redis.config('GET', 'appendonly'))) as string[];
      const saveRule = save[1] ?? '';
      const appendonly = aof[1] ?? 'no';
      const on = saveRule.trim() !== '' || appendonly === 'yes';
      return { state: on ? 'on' : 'off', detail: `save "${saveRule}" appendonly ${appendonly}` };
    } catch (error) {
      if (error instanceof StoreUnavailableError && this.#redis.status !== 'ready') throw error;
    }
    // Managed Redis often disables CONFIG; INFO still says whether AOF is on.
    const info = await this.#run(() => this.#redis.info('persistence'));
    if (/^aof_enabled:1\b/m.test(info)) return { state: 'on', detail: 'aof_enabled:1 (INFO)' };
    return { state: 'unknown', detail: 'CONFIG GET is not allowed and AOF is off; RDB snapshots unknown' };
  }

  async ping(): Promise<void> {
    await this.#run(() => this.#redis.ping());
  }

  async close(): Promise<void> {
    clearInterval(this.#renewTimer);
    this.#redis.disconnect();
  }

  #sessionsKey(appId: string): string {
    return `${this.#prefix}sessions:${appId}`;
  }

  async #renewAll(): Promise<void> {
    if (this.#redis.status !== 'ready') return;
    for (const [appId, set] of this.#held) {
      if (set.size === 0) continue;
      await this.#run(() =>
        this.#redis.eval(RENEW, 1, this.#sessionsKey(appId), this.#leaseMs, ...set),
      ).catch(() => undefined);
    }
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    if (this.#redis.status !== 'ready') {
      throw new StoreUnavailableError(`Redis is not reachable (connection ${this.#redis.status}).`);
    }
    try {
      return await command();
    } catch (error) {
      throw new StoreUnavailableError(`Redis command failed: ${(error as Error).message}`);
    }
  }
}
