/**
 * Issue 32, N4: a dead node's session slots are fenced when an app is at its limit, on a real
 * redis-server. A node is dead when its connection to Redis is gone (its process ended) or its
 * liveness key expired (frozen, cut off); a live node's slots always count. Where CLIENT LIST is
 * not allowed, the liveness key alone fences, once it expires.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/store/redis-store.js';
import { sleep } from './support/harness.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
const opened: { close(): Promise<void> | void }[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
  const admin = new Redis(redis.url);
  // A user that may do everything but list the clients (as on some managed Redis).
  await admin.call('ACL', 'SETUSER', 'nolist', 'on', '>nolist-pw', '~*', '&*', '+@all', '-client|list');
  // One that may list the clients but not name its own connection.
  await admin.call('ACL', 'SETUSER', 'noname', 'on', '>noname-pw', '~*', '&*', '+@all', '-client|setname');
  admin.disconnect();
});
afterEach(async () => {
  for (const x of opened.splice(0)) await x.close();
});
afterAll(async () => {
  await redis?.kill();
});

let appSeq = 0;
const nextApp = () => `app_fence_${++appSeq}`;

async function store(
  nodeId: string,
  options: { url?: string; nodeTtlMs?: number } = {},
): Promise<RedisStore> {
  const s = new RedisStore({ url: options.url ?? redis.url, nodeId, nodeTtlMs: options.nodeTtlMs ?? 10_000 });
  opened.push(s);
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      await s.ping();
      return s;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

async function take(s: RedisStore, appId: string, count: number, limit: number): Promise<boolean[]> {
  const taken: boolean[] = [];
  for (let i = 0; i < count; i++)
    taken.push(await s.acquireSession(appId, `conn_${appId}_${i}_${s.nodeId}`, limit));
  return taken;
}

/** A node process that dies without giving anything back: its store stops and its connection closes. */
async function die(s: RedisStore): Promise<void> {
  await s.close();
}

describe("fencing a dead node's session slots (Redis)", () => {
  it('a node whose process ended: its slots are free to the next taker at the limit, at once', async () => {
    const app = nextApp();
    const a = await store('node-a');
    const b = await store('node-b');
    expect(await take(a, app, 3, 3)).toEqual([true, true, true]);
    expect(await b.acquireSession(app, 'conn_b1', 3)).toBe(false);
    await die(a);
    // The connection is gone at once; its liveness key (10 s) still stands.
    const started = Date.now();
    for (;;) {
      if (await b.acquireSession(app, 'conn_b1', 3)) break;
      if (Date.now() - started > 2000) throw new Error("node-a's slots were not fenced within 2 s");
      await sleep(20);
    }
    console.log(
      `fence by connection: a slot taken ${Date.now() - started} ms after the node's connection closed`,
    );
    expect(await take(b, app, 2, 3)).toEqual([true, true]);
    // The limit holds: 3 live slots, all node-b's.
    expect(await b.acquireSession(app, 'conn_b_extra', 3)).toBe(false);
    expect(await b.sessionCount(app)).toBe(3);
  });

  it("a live node's slots are never fenced: the limit holds across nodes", async () => {
    const app = nextApp();
    const a = await store('node-c');
    const b = await store('node-d');
    expect(await take(a, app, 2, 4)).toEqual([true, true]);
    expect(await take(b, app, 3, 4)).toEqual([true, true, false]);
    expect(await a.acquireSession(app, 'conn_more', 4)).toBe(false);
    expect(await a.sessionCount(app)).toBe(4);
    // A slot given back is free again.
    await a.releaseSession(app, `conn_${app}_0_node-c`);
    expect(await b.acquireSession(app, 'conn_more', 4)).toBe(true);
  });

  it('a frozen node (connected, no heartbeat): fenced once its liveness key expires', async () => {
    const app = nextApp();
    const b = await store('node-f');
    // What a frozen node leaves: slots, a connection named like a node's, a liveness key that runs out.
    const frozen = new Redis(redis.url, { connectionName: 'avd:node:frozen' });
    opened.push({ close: () => frozen.disconnect() });
    await frozen.zadd(
      `avd:sessions:${app}`,
      Date.now() + 30_000,
      'frozen/conn_1',
      Date.now() + 30_000,
      'frozen/conn_2',
    );
    await frozen.sadd(`avd:session-nodes:${app}`, 'frozen');
    await frozen.set('avd:node:frozen', '1', 'PX', 800);
    expect(await b.acquireSession(app, 'conn_b1', 2)).toBe(false);
    await sleep(1000);
    expect(await b.acquireSession(app, 'conn_b1', 2)).toBe(true);
    expect(await frozen.zrange(`avd:sessions:${app}`, 0, -1)).toEqual(['node-f/conn_b1']);
  });

  it.each([
    ['without CLIENT LIST', 'nolist'],
    ['without CLIENT SETNAME (no node is named, so none looks connected)', 'noname'],
  ])(
    '%s, a dead node is fenced by its liveness key alone, once it expires; a live one never',
    async (_what, user) => {
      const app = nextApp();
      const url = `redis://${user}:${user}-pw@127.0.0.1:${redis.port}`;
      const a = await store('node-g', { url, nodeTtlMs: 900 });
      const b = await store('node-h', { url, nodeTtlMs: 900 });
      expect(await take(a, app, 2, 2)).toEqual([true, true]);
      // While it lives, nothing is fenced (however long past its first TTL: it keeps its key).
      await sleep(1200);
      expect(await b.acquireSession(app, 'conn_b1', 2)).toBe(false);
      await die(a);
      // Its connection is gone but nobody may see that: refused until the key's TTL runs out.
      expect(await b.acquireSession(app, 'conn_b1', 2)).toBe(false);
      const started = Date.now();
      while (!(await b.acquireSession(app, 'conn_b1', 2))) {
        if (Date.now() - started > 3000) throw new Error('not fenced after the liveness key expired');
        await sleep(50);
      }
      expect(await b.sessionCount(app)).toBe(1);
    },
  );
});
