/**
 * Two independent regions: each with its own Redis, sharing only configuration (signing key, apps).
 * Tokens are portable; single use holds per region (a token opens at most one session in each
 * region — docs/deploy.md, "Two regions"); one region and its store can vanish without the other
 * noticing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { TestRedis } from './support/redis-server.js';

let redisA: TestRedis;
let redisB: TestRedis;
let regionA: RunningService;
let regionB: RunningService;

beforeAll(async () => {
  [redisA, redisB] = await Promise.all([TestRedis.start(), TestRedis.start()]);
  const avatarsDir = await makeAvatarsDir();
  [regionA, regionB] = await Promise.all([
    startTestService({ avatarsDir, standIn: true, redisUrl: redisA.url, region: 'ap-northeast' }),
    startTestService({ avatarsDir, standIn: true, redisUrl: redisB.url, region: 'us-west' }),
  ]);
});
afterAll(async () => {
  await regionA?.close();
  await regionB?.close();
  await redisA?.kill();
  await redisB?.kill();
});

const ALREADY_USED = { status: 401, body: { errors: [{ detail: expect.stringMatching(/already used/) }] } };

async function session(region: RunningService, token: string): Promise<TestClient> {
  const client = await TestClient.open(region, token);
  client.configure();
  await client.confirmed();
  return client;
}

async function speak(client: TestClient, reqId: string): Promise<void> {
  client.audio(reqId, tone(300), true);
  await client.waitFor(
    (m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === reqId && m.data.value.end,
    10_000,
  );
}

describe('independent regions (one Redis each)', () => {
  it('a token consumed in A opens one session in B, then is refused in both', async () => {
    const token = await mintToken(regionA);
    (await session(regionA, token)).close();
    await expect(TestClient.open(regionA, token)).rejects.toMatchObject(ALREADY_USED);
    (await session(regionB, token)).close();
    await expect(TestClient.open(regionB, token)).rejects.toMatchObject(ALREADY_USED);
    await expect(TestClient.open(regionA, token)).rejects.toMatchObject(ALREADY_USED);
  });

  it('and the other way: consumed in B, once more in A, then refused in both', async () => {
    const token = await mintToken(regionB);
    (await session(regionB, token)).close();
    await expect(TestClient.open(regionB, token)).rejects.toMatchObject(ALREADY_USED);
    (await session(regionA, token)).close();
    await expect(TestClient.open(regionA, token)).rejects.toMatchObject(ALREADY_USED);
    await expect(TestClient.open(regionB, token)).rejects.toMatchObject(ALREADY_USED);
  });

  it('region A and its Redis die: region B keeps its sessions and takes new ones', async () => {
    const openInB = await session(regionB, await mintToken(regionB));
    const openInA = await session(regionA, await mintToken(regionA));
    await speak(openInA, 'a-before');
    await redisA.kill();
    await regionA.close();
    await openInA.closed;

    await speak(openInB, 'b-after');
    expect(animations(openInB, 'b-after').length).toBeGreaterThan(0);
    const ready = await fetch(`${regionB.url}/readyz`);
    expect(ready.status).toBe(200);
    // A token minted in B, and one minted anywhere with the shared key, work in B.
    const fresh = await session(regionB, await mintToken(regionB));
    await speak(fresh, 'b-fresh');
    fresh.close();
    openInB.close();
  });
});
