/**
 * Token-use policy per app (PUT /v1/console/token-policy): `single` (default) spends a token on
 * its first session; `sequential` lets it open a new session once the previous one closed. On the
 * in-process memory store, and across two service processes sharing one real Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  API_KEY,
  APP_ID,
  makeAvatarsDir,
  mintToken,
  OTHER_API_KEY,
  OTHER_APP_ID,
  sleep,
  startTestService,
  TestClient,
} from './support/harness.js';
import { TestRedis } from './support/redis-server.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

async function setPolicy(service: { url: string }, tokenUse: unknown, apiKey = API_KEY) {
  const response = await fetch(`${service.url}/v1/console/token-policy`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ tokenUse }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function getPolicy(service: { url: string }, apiKey = API_KEY) {
  const response = await fetch(`${service.url}/v1/console/token-policy`, {
    headers: { 'x-api-key': apiKey },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Opens a session with `token` and waits for its confirmation. */
async function session(service: { ingressUrl: string }, token: string): Promise<TestClient> {
  const client = await TestClient.open(service, token);
  client.configure();
  await client.confirmed();
  return client;
}

/** Retries until the closed session's token is free again (its release is asynchronous). */
async function reopen(service: { ingressUrl: string }, token: string): Promise<TestClient> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await session(service, token);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

describe('token-use policy (memory store)', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({ avatarsDir: await makeAvatarsDir() });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is single by default and validated by schema', async () => {
    expect(await getPolicy(service)).toEqual({ status: 200, body: { appId: APP_ID, tokenUse: 'single' } });
    const bad = await setPolicy(service, 'many');
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { code: string }[])[0]!.code).toBe('invalidRequest');
    const extra = await fetch(`${service.url}/v1/console/token-policy`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ tokenUse: 'single', other: 1 }),
    });
    expect(extra.status).toBe(400);
    const noKey = await fetch(`${service.url}/v1/console/token-policy`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokenUse: 'single' }),
    });
    expect(noKey.status).toBe(401);
    // A browser cannot call it (the API key never reaches one).
    const preflight = await fetch(`${service.url}/v1/console/token-policy`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(403);
  });

  it('single: a token opens one session, even after that session closed', async () => {
    const token = await mintToken(service, OTHER_API_KEY);
    const first = await TestClient.open(service, token, { appId: OTHER_APP_ID });
    first.configure();
    await first.confirmed();
    first.close();
    await first.closed;
    await sleep(200);
    await expect(TestClient.open(service, token, { appId: OTHER_APP_ID })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('sequential: a second session only after the first closed; other apps stay single', async () => {
    expect(await setPolicy(service, 'sequential')).toEqual({
      status: 200,
      body: { appId: APP_ID, tokenUse: 'sequential' },
    });
    expect((await getPolicy(service, OTHER_API_KEY)).body.tokenUse).toBe('single');
    const token = await mintToken(service);
    const first = await session(service, token);
    const refused = await TestClient.open(service, token).then(
      () => undefined,
      (error: { status: number; body?: string }) => error,
    );
    expect(refused?.status).toBe(401);
    first.close();
    await first.closed;
    const second = await reopen(service, token);
    second.close();
    await second.closed;
    const third = await reopen(service, token);
    third.close();
    await setPolicy(service, 'single');
  });
});

describe('token-use policy across two service processes on one Redis', () => {
  let redis: TestRedis;
  let a: ServiceProcess;
  let b: ServiceProcess;
  beforeAll(async () => {
    redis = await TestRedis.start();
    const avatarsDir = await makeAvatarsDir();
    const env = { REDIS_URL: redis.url };
    [a, b] = await Promise.all([
      startServiceProcess({ avatarsDir, env, args: ['--region', 'ap-northeast'] }),
      startServiceProcess({ avatarsDir, env, args: ['--region', 'us-west'] }),
    ]);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.kill();
  });

  it('a policy set on one process applies on the other; a token holds one open session at a time across them', async () => {
    const token = await mintToken(a);
    // Single first: the token is spent on its first session, on either process.
    const spent = await session(b, token);
    spent.close();
    await spent.closed;
    await sleep(200);
    await expect(TestClient.open(a, token)).rejects.toMatchObject({ status: 401 });

    expect((await setPolicy(a, 'sequential')).status).toBe(200);
    expect((await getPolicy(b)).body.tokenUse).toBe('sequential');
    // A token spent under single stays spent.
    await expect(TestClient.open(b, token)).rejects.toMatchObject({ status: 401 });

    const reused = await mintToken(b);
    const onA = await session(a, reused);
    await expect(TestClient.open(b, reused)).rejects.toMatchObject({ status: 401 });
    await expect(TestClient.open(a, reused)).rejects.toMatchObject({ status: 401 });
    onA.close();
    await onA.closed;
    const onB = await reopen(b, reused);
    await expect(TestClient.open(a, reused)).rejects.toMatchObject({ status: 401 });
    onB.close();
    await onB.closed;
    const again = await reopen(a, reused);
    again.close();
  });
});
