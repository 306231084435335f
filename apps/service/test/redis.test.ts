import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  makeAvatarsDir,
  mintToken,
  OTHER_API_KEY,
  OTHER_APP_ID,
  sleep,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { TestRedis } from './support/redis-server.js';

// Two processes-worth of service (two regions) sharing one real redis-server and one signing key.
let redis: TestRedis;
let apNortheast: RunningService;
let usWest: RunningService;

beforeAll(async () => {
  redis = await TestRedis.start();
  const avatarsDir = await makeAvatarsDir();
  apNortheast = await startTestService({ avatarsDir, redisUrl: redis.url, region: 'ap-northeast' });
  usWest = await startTestService({ avatarsDir, redisUrl: redis.url, region: 'us-west' });
});
afterAll(async () => {
  await apNortheast?.close();
  await usWest?.close();
  await redis?.kill();
});

async function until(check: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

describe('shared store on Redis', () => {
  it('reports the Redis store as ready', async () => {
    const ready = (await (await fetch(`${apNortheast.url}/readyz`)).json()) as { checks: { store: string } };
    expect(ready.checks.store).toBe('ok (redis)');
  });

  it('a token minted in one region works in the other, once', async () => {
    const token = await mintToken(apNortheast);
    const client = await TestClient.open(usWest, token);
    client.configure();
    await client.confirmed();
    await expect(TestClient.open(apNortheast, token)).rejects.toMatchObject({ status: 401 });
    await expect(TestClient.open(usWest, token)).rejects.toMatchObject({ status: 401 });
    client.close();
  });

  it('counts concurrent sessions across nodes', async () => {
    // OTHER_APP_ID allows 2 sessions in total.
    const a = await TestClient.open(apNortheast, await mintToken(apNortheast, OTHER_API_KEY), {
      appId: OTHER_APP_ID,
    });
    const b = await TestClient.open(usWest, await mintToken(usWest, OTHER_API_KEY), { appId: OTHER_APP_ID });
    const c = await TestClient.open(apNortheast, await mintToken(apNortheast, OTHER_API_KEY), {
      appId: OTHER_APP_ID,
    });
    expect((await c.closed).code).toBe(4003);
    expect(await apNortheast.store.sessionCount(OTHER_APP_ID)).toBe(2);
    a.close();
    b.close();
    await until(async () => (await usWest.store.sessionCount(OTHER_APP_ID)) === 0);
  });

  it('rate limits are shared across nodes', async () => {
    const [x, y] = [
      await apNortheast.store.hit('shared-test', 3, 60_000),
      await usWest.store.hit('shared-test', 3, 60_000),
    ];
    expect([x.count, y.count]).toEqual([1, 2]);
  });

  it('Redis down: new sessions refused with 4503, established ones continue, recovery is automatic', async () => {
    const established = await TestClient.open(apNortheast, await mintToken(apNortheast));
    established.configure();
    await established.confirmed();
    const spareToken = await mintToken(usWest);

    await redis.kill();
    await until(async () => (await fetch(`${apNortheast.url}/readyz`)).status === 503);

    // New connection: upgraded, then ServerError 4503 + close 4503.
    const refused = await TestClient.open(usWest, spareToken);
    const error = await refused.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value.code).toBe(4503);
    expect((await refused.closed).code).toBe(4503);
    // Minting tokens needs the store too.
    const mint = await fetch(`${apNortheast.url}/v1/console/session-tokens`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': (await import('./support/harness.js')).API_KEY,
      },
      body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 60 }),
    });
    expect(mint.status).toBe(503);
    expect(mint.headers.get('retry-after')).toBe('1');

    // The established session keeps working.
    established.audio('during-outage', tone(120), true);
    await established.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);

    await redis.restart();
    await until(async () => (await fetch(`${usWest.url}/readyz`)).status === 200);
    await until(async () => (await fetch(`${apNortheast.url}/readyz`)).status === 200);
    // The refusal did not spend the token: the same one is accepted now.
    const again = await TestClient.open(usWest, spareToken);
    again.configure();
    await again.confirmed();
    again.close();
    established.close();
  });
});
