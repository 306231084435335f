/**
 * The shared store on Redis: one server (`url`) or a primary found through Redis Sentinel
 * (`sentinel`). Commands fail fast while Redis is unreachable (no offline queue, short timeouts) so
 * new connections are refused with 4503 at once; ioredis reconnects on its own (under Sentinel, to
 * whichever server the sentinels name primary, as soon as they switch) and the store works again as
 * soon as Redis answers.
 *
 * Session slots are members of a per-app sorted set scored by lease expiry: a node refreshes the
 * leases of the sessions it holds, so slots of a node that died free themselves, and a primary
 * promoted without them gets them back at the next renewal.
 *
 * A dead node's slots are fenced long before their lease runs out (issue 32, N4: an app near its
 * limit otherwise refused its own dropped sessions with 4003 for up to 30 s). Each slot names the
 * node that holds it, and each node names its Redis connection and keeps a liveness key with a
 * short TTL (`nodeTtlMs`). A node that wants a slot while the app is at its limit drops the slots
 * of nodes that are dead: whose liveness key expired (a frozen or cut-off machine), or that have
 * no connection to Redis any more (`CLIENT LIST`; a process that exited or was killed, whose
 * socket the kernel closed at once), the way a ZooKeeper ephemeral node goes with its session.
 * A node that only lost Redis for a moment gets its slots back at its next renewal (the app may
 * exceed its limit by those sessions meanwhile). Where `CLIENT LIST` is not allowed (some managed
 * Redis), the liveness key alone fences, within `nodeTtlMs`.
 *
 * Single use across a failover: Redis replicates asynchronously, so a token marked used on a
 * primary that dies before its replica got the write could be accepted again by the promoted
 * replica. With `waitReplicas` N > 0 a token counts as consumed only once N replicas acknowledged
 * the write (WAIT); when fewer do in time, the session is refused with 4503 and the token stays
 * spent (the client mints a new one). See docs/deploy.md, "Redis high availability".
 */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { type AvatarRecords, RedisAvatarRecords } from './avatar-records.js';
import {
  type RateLimitResult,
  type SharedStore,
  type StorePersistence,
  StoreUnavailableError,
  TOKEN_USE_POLICIES,
  type TokenUsePolicy,
} from './shared-store.js';

/**
 * Drops the slots of dead nodes from an app's slot set (KEYS[1]) and its set of slot-holding node
 * ids (KEYS[2]). A node is dead when its liveness key (ARGV[n], `<prefix>node:<id>`) has expired,
 * or, when `connected` lists the node ids with a connection to this Redis, when it is not among
 * them (its process ended: the kernel closed its socket). Members are `<node id>/<session id>`.
 * Reads liveness keys not named in KEYS: fine on a single primary (with or without Sentinel), not
 * on Redis Cluster, which the store does not support.
 */
const FENCE_FN = `
local function fence(slots, nodes, nodePrefix, connected)
  local dropped = 0
  for _, id in ipairs(redis.call('SMEMBERS', nodes)) do
    local dead = redis.call('EXISTS', nodePrefix .. id) == 0 or (connected ~= nil and not connected[id])
    if dead then
      local mark = id .. '/'
      for _, m in ipairs(redis.call('ZRANGE', slots, 0, -1)) do
        if string.sub(m, 1, #mark) == mark then
          redis.call('ZREM', slots, m)
          dropped = dropped + 1
        end
      end
      redis.call('SREM', nodes, id)
    end
  end
  return dropped
end`;

/**
 * KEYS[1] slots, KEYS[2] slot-holding nodes; ARGV: lease, limit, member, node id, node key prefix,
 * node TTL, then (optional) the ids of the nodes connected to Redis. The dead are fenced only at
 * the limit: below it, taking a slot costs little more than before. A taker's own liveness key is
 * set if missing (a node's first slot may come before its first heartbeat).
 */
const ACQUIRE = `${FENCE_FN}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= limit then
  local connected = nil
  if #ARGV > 6 then
    connected = {}
    for i = 7, #ARGV do connected[ARGV[i]] = true end
  end
  if fence(KEYS[1], KEYS[2], ARGV[5], connected) == 0 or redis.call('ZCARD', KEYS[1]) >= limit then
    return 0
  end
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('SET', ARGV[5] .. ARGV[4], '1', 'PX', ARGV[6], 'NX')
return 1`;

/** KEYS[1] slots, KEYS[2] slot-holding nodes; ARGV: lease, node id, members. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 3, #ARGV do redis.call('ZADD', KEYS[1], now + lease, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], lease)
return 1`;

/** KEYS[1] slots, KEYS[2] slot-holding nodes; ARGV[1] node key prefix. Counts live nodes' slots only. */
const COUNT = `${FENCE_FN}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
fence(KEYS[1], KEYS[2], ARGV[1], nil)
return redis.call('ZCARD', KEYS[1])`;

const HIT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

/**
 * Sequential token use: KEYS[1] the token's key, KEYS[2] the app's session slots. The token is
 * free when unset, or when the session named in it no longer holds a live slot (it closed, or its
 * node died and the lease ran out); '1' is a single-use token already spent.
 */
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if v then
  if v == '1' then return 0 end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local lease = redis.call('ZSCORE', KEYS[2], v)
  if lease and tonumber(lease) > now then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1`;

const RELEASE_TOKEN = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** Where the Sentinel deployment is: the sentinels to ask and the name of the primary they watch. */
export interface RedisSentinelOptions {
  sentinels: { host: string; port: number }[];
  /** The name the sentinels monitor the primary under (`sentinel monitor <name> …`). */
  masterName: string;
  /** AUTH password of the sentinels, when they have one. */
  sentinelPassword?: string;
}

export interface RedisStoreOptions {
  /** One Redis server (`redis://…`); or give `sentinel`. */
  url?: string;
  /** Find the primary through Redis Sentinel (and follow its failovers). */
  sentinel?: RedisSentinelOptions;
  /** AUTH password of the Redis servers (also taken from `url`). */
  password?: string;
  /**
   * Replicas that must acknowledge a consumed token before the session is accepted (WAIT; default
   * 0). Under Sentinel set it to 1 or more so that no token is accepted twice across a failover.
   */
  waitReplicas?: number;
  /** Prefix of every key (default `avd:`), so deployments can share a Redis. */
  keyPrefix?: string;
  /** Session slot lease; renewed every third of it (default 30 s). */
  leaseMs?: number;
  /**
   * This node's id in slot records and its connection name (default: random per store). Unique
   * per process: two nodes with one id would fence each other's slots as their own.
   */
  nodeId?: string;
  /** TTL of this node's liveness key, refreshed every third of it (default 10 s). */
  nodeTtlMs?: number;
  /** Per-command timeout (default 1000 ms). */
  commandTimeoutMs?: number;
  logger?: Logger;
}

export class RedisStore implements SharedStore {
  readonly kind = 'redis';
  /** Uploaded avatars' metadata, in this Redis (every node of the region sees them). */
  readonly avatars: AvatarRecords;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #held = new Map<string, Set<string>>();
  readonly #renewTimer: NodeJS.Timeout;
  readonly #heartbeatTimer: NodeJS.Timeout;
  readonly #nodeId: string;
  readonly #nodeTtlMs: number;
  /** The `CLIENT LIST` in flight: refusals at once share it. */
  #listing: Promise<string[] | undefined> | undefined;
  /** False once `CLIENT LIST` was refused (ACL, managed Redis): the liveness key alone fences. */
  #canList = true;
  readonly #logger: Logger | undefined;
  readonly #waitReplicas: number;
  readonly #timeoutMs: number;
  #reportedDown = false;
  #closed = false;

  constructor(options: RedisStoreOptions) {
    this.#prefix = options.keyPrefix ?? 'avd:';
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#nodeId = options.nodeId ?? randomBytes(9).toString('base64url');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(this.#nodeId)) {
      throw new Error(
        `RedisStore nodeId must be 1-64 of A-Z a-z 0-9 _ -, got ${JSON.stringify(this.#nodeId)}.`,
      );
    }
    this.#nodeTtlMs = options.nodeTtlMs ?? 10_000;
    this.#logger = options.logger;
    this.#waitReplicas = options.waitReplicas ?? 0;
    this.#timeoutMs = options.commandTimeoutMs ?? 1000;
    const common: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: this.#timeoutMs,
      connectTimeout: this.#timeoutMs,
      // Reconnect forever, at most every second: recovery is automatic.
      retryStrategy: (times) => Math.min(50 * times, 1000),
      reconnectOnError: () => true,
      // Names this node on the primary, so that the others see when its connection is gone.
      connectionName: this.#connectionName,
      ...(options.password !== undefined && { password: options.password }),
    };
    if (options.sentinel) {
      const { sentinels, masterName, sentinelPassword } = options.sentinel;
      this.#redis = new Redis({
        ...common,
        sentinels,
        name: masterName,
        ...(sentinelPassword !== undefined && { sentinelPassword }),
        // A sentinel that hangs must not hold the reconnection up for longer than a command may.
        sentinelCommandTimeout: this.#timeoutMs,
        sentinelRetryStrategy: (times) => Math.min(50 * times, 1000),
        // Listen for +switch-master and move to the new primary at once (not at the next error).
        failoverDetector: true,
      });
    } else if (options.url) {
      this.#redis = new Redis(options.url, common);
    } else {
      throw new Error('RedisStore needs a url or a sentinel configuration.');
    }
    this.#redis.on('error', (error: Error) => {
      if (!this.#reportedDown) this.#logger?.warn({ err: error.message }, 'shared store (Redis) unreachable');
      this.#reportedDown = true;
    });
    // ioredis stops for good ("end") when its connector itself fails (under Sentinel: the sentinels
    // named a primary that refused us mid-failover) rather than the socket closing: start again.
    this.#redis.on('end', () => {
      if (this.#closed) return;
      const timer = setTimeout(() => {
        if (!this.#closed && this.#redis.status === 'end') this.#redis.connect().catch(() => undefined);
      }, 500);
      timer.unref();
    });
    this.#redis.on('ready', () => {
      if (this.#reportedDown) this.#logger?.info('shared store (Redis) reachable again');
      this.#reportedDown = false;
      void this.#heartbeat().then(() => this.#renewAll());
    });
    this.#renewTimer = setInterval(() => void this.#renewAll(), Math.max(100, this.#leaseMs / 3));
    this.#renewTimer.unref();
    this.#heartbeatTimer = setInterval(() => void this.#heartbeat(), Math.max(100, this.#nodeTtlMs / 3));
    this.#heartbeatTimer.unref();
    this.avatars = new RedisAvatarRecords((command) => this.#run(() => command(this.#redis)), this.#prefix);
  }

  async consumeToken(jti: string, expiresAtMs: number): Promise<boolean> {
    const key = `${this.#prefix}jti:${jti}`;
    const expireAt = Math.max(expiresAtMs, Date.now()) + 60_000;
    if (this.#waitReplicas === 0) {
      const result = await this.#run(() => this.#redis.set(key, '1', 'PXAT', expireAt, 'NX'));
      return result === 'OK';
    }
    // SET and WAIT in one round trip; WAIT blocks on the primary until the replicas acknowledged
    // every write of this connection so far, or the timeout passed.
    const replies = await this.#run(() =>
      this.#redis
        .pipeline()
        .set(key, '1', 'PXAT', expireAt, 'NX')
        .wait(this.#waitReplicas, Math.max(1, this.#timeoutMs - 200))
        .exec(),
    );
    const [setReply, waitReply] = replies ?? [];
    const failure = setReply?.[0] ?? waitReply?.[0];
    if (failure) throw new StoreUnavailableError(`Redis command failed: ${failure.message}`);
    if (setReply?.[1] !== 'OK') return false;
    const acked = Number(waitReply?.[1]);
    if (!(acked >= this.#waitReplicas)) {
      throw new StoreUnavailableError(
        `only ${acked} of ${this.#waitReplicas} Redis replicas confirmed the token's use in time`,
        { tokenSpent: true },
      );
    }
    return true;
  }

  async claimToken(jti: string, expiresAtMs: number, appId: string, sessionId: string): Promise<boolean> {
    const expireAt = Math.max(expiresAtMs, Date.now()) + 60_000;
    const ok = await this.#run(() =>
      this.#redis.eval(
        CLAIM,
        2,
        `${this.#prefix}jti:${jti}`,
        this.#sessionsKey(appId),
        this.#member(sessionId),
        expireAt,
      ),
    );
    return ok === 1;
  }

  async releaseToken(jti: string, sessionId: string): Promise<void> {
    // One that cannot reach Redis is freed anyway once the session's slot lease runs out.
    await this.#run(() =>
      this.#redis.eval(RELEASE_TOKEN, 1, `${this.#prefix}jti:${jti}`, this.#member(sessionId)),
    ).catch(() => undefined);
  }

  async tokenPolicy(appId: string): Promise<TokenUsePolicy> {
    const value = await this.#run(() => this.#redis.get(`${this.#prefix}token-policy:${appId}`));
    return TOKEN_USE_POLICIES.includes(value as TokenUsePolicy) ? (value as TokenUsePolicy) : 'single';
  }

  async setTokenPolicy(appId: string, policy: TokenUsePolicy): Promise<void> {
    await this.#run(() => this.#redis.set(`${this.#prefix}token-policy:${appId}`, policy));
  }

  async acquireSession(appId: string, sessionId: string, limit: number): Promise<boolean> {
    const acquire = (connected: string[]) =>
      this.#run(() =>
        this.#redis.eval(
          ACQUIRE,
          2,
          this.#sessionsKey(appId),
          this.#nodesKey(appId),
          this.#leaseMs,
          limit,
          this.#member(sessionId),
          this.#nodeId,
          `${this.#prefix}node:`,
          this.#nodeTtlMs,
          ...connected,
        ),
      );
    let ok = await acquire([]);
    if (ok !== 1) {
      // At the limit: a node whose process ended still holds slots until fenced; ask Redis which
      // nodes are connected and try once more with that.
      const connected = await this.#connectedNodes();
      if (connected) ok = await acquire(connected);
    }
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
    await this.#run(() => this.#redis.zrem(this.#sessionsKey(appId), this.#member(sessionId))).catch(
      () => undefined,
    );
  }

  async sessionCount(appId: string): Promise<number> {
    return Number(
      await this.#run(() =>
        this.#redis.eval(COUNT, 2, this.#sessionsKey(appId), this.#nodesKey(appId), `${this.#prefix}node:`),
      ),
    );
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
    this.#closed = true;
    clearInterval(this.#renewTimer);
    clearInterval(this.#heartbeatTimer);
    this.#redis.disconnect();
  }

  #sessionsKey(appId: string): string {
    return `${this.#prefix}sessions:${appId}`;
  }

  #nodesKey(appId: string): string {
    return `${this.#prefix}session-nodes:${appId}`;
  }

  /** A slot's member: the node that holds it, then the session. */
  #member(sessionId: string): string {
    return `${this.#nodeId}/${sessionId}`;
  }

  get #connectionName(): string {
    return `${this.#prefix.replace(/[^A-Za-z0-9_:-]/g, '_')}node:${this.#nodeId}`;
  }

  /** This node's id, as it appears in slot records and its connection name. */
  get nodeId(): string {
    return this.#nodeId;
  }

  async #heartbeat(): Promise<void> {
    if (this.#redis.status !== 'ready') return;
    await this.#run(() =>
      this.#redis.set(`${this.#prefix}node:${this.#nodeId}`, '1', 'PX', this.#nodeTtlMs),
    ).catch(() => undefined);
  }

  /**
   * The ids of the nodes (of this key prefix) with a connection to the primary, or undefined when
   * `CLIENT LIST` is not allowed here. Concurrent callers share one listing.
   */
  #connectedNodes(): Promise<string[] | undefined> {
    if (!this.#canList) return Promise.resolve(undefined);
    this.#listing ??= this.#listNodes().finally(() => {
      this.#listing = undefined;
    });
    return this.#listing;
  }

  async #listNodes(): Promise<string[] | undefined> {
    let list: string;
    try {
      list = String(await this.#run(() => this.#redis.client('LIST')));
    } catch (error) {
      if (error instanceof StoreUnavailableError && this.#redis.status === 'ready') {
        // Refused (NOPERM, renamed command): not transient, so stop asking.
        this.#canList = false;
        this.#logger?.warn(
          { err: error.message },
          "CLIENT LIST is not allowed: a dead node's session slots are freed when its liveness key expires",
        );
      }
      return undefined;
    }
    const mark = ` name=${this.#connectionName.slice(0, -this.#nodeId.length)}`;
    const ids: string[] = [];
    for (const line of list.split('\n')) {
      const at = line.indexOf(mark);
      if (at < 0) continue;
      const end = line.indexOf(' ', at + mark.length);
      ids.push(line.slice(at + mark.length, end < 0 ? undefined : end));
    }
    // Not even this node is named (CLIENT SETNAME refused; ioredis ignores that): names say
    // nothing about who is alive, so the liveness key alone fences.
    if (!ids.includes(this.#nodeId)) {
      this.#canList = false;
      this.#logger?.warn(
        "this node's Redis connection has no name (CLIENT SETNAME not allowed?): a dead node's session slots are freed when its liveness key expires",
      );
      return undefined;
    }
    return ids;
  }

  async #renewAll(): Promise<void> {
    if (this.#redis.status !== 'ready') return;
    for (const [appId, set] of this.#held) {
      if (set.size === 0) continue;
      const members = [...set].map((id) => this.#member(id));
      await this.#run(() =>
        this.#redis.eval(
          RENEW,
          2,
          this.#sessionsKey(appId),
          this.#nodesKey(appId),
          this.#leaseMs,
          this.#nodeId,
          ...members,
        ),
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
