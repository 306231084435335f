import { isAvatarError } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession, createSessionToken, mintSessionToken } from '../src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  freePort,
  type ServiceFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'us-west', fixtures });
});
afterAll(stopAllServices);

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAvatarError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('createSessionToken against the real console', () => {
  it('mints a token that opens exactly one session', async () => {
    const token = await createSessionToken({
      apiKey: fixtures.apiKey,
      consoleUrl: service.url,
      ttlSeconds: 60,
    });
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const open = (sessionToken: string) =>
      new AvatarSession({
        avatarId: AVATAR_ID,
        appId: fixtures.appId,
        sessionToken,
        ingressUrl: service.ingressUrl,
        sampleRate: 16000,
        reconnect: false,
      });
    const first = open(token);
    expect(await first.start()).toMatch(/^conn_/);
    await first.close();
    const again = open(token);
    const error = await failure(again.start());
    expect(error.code).toBe('sessionTokenInvalid');
    expect(error.closeCode).toBe(4010);
    expect(error.httpStatus).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/single-use/);
    expect(error.message).not.toContain(token);
  });

  it('reports expiry and region of the minted token', async () => {
    const expireAt = Math.floor(Date.now() / 1000) + 120;
    const info = await mintSessionToken({
      apiKey: fixtures.apiKey,
      region: 'us-west',
      backupRegion: null,
      regions: { 'us-west': { consoleUrl: service.url, ingressUrl: service.ingressUrl } },
      expireAt,
    });
    expect(info).toMatchObject({ expireAt, region: 'us-west' });
  });

  it('a wrong API key is a typed 401 with the server detail and never the key', async () => {
    const wrongKey = `adk_${'x'.repeat(43)}`;
    const error = await failure(createSessionToken({ apiKey: wrongKey, consoleUrl: service.url }));
    expect(error.code).toBe('appIDUnrecognized');
    expect(error.httpStatus).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('The API key is not recognized');
    expect(JSON.stringify({ ...error, message: error.message, details: error.details })).not.toContain(
      wrongKey,
    );
  });

  it('rejects bad expiries before calling the console', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const options of [
      { expireAt: now - 1 },
      { expireAt: now + 25 * 3600 },
      { expireAt: Date.now() + 60_000 }, // milliseconds by mistake
      { ttlSeconds: 0 },
      { ttlSeconds: 1.5 },
      { ttlSeconds: 60, expireAt: now + 60 },
    ]) {
      const error = await failure(
        createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: service.url, ...options }),
      );
      expect(error.code).toBe('invalidRequest');
      expect(error.httpStatus).toBeUndefined();
    }
    const missing = await failure(createSessionToken({ apiKey: '  ', consoleUrl: service.url }));
    expect(missing.code).toBe('invalidRequest');
    expect(missing.message).toMatch(/apiKey is required/);
  });

  it('falls back to the backup console when the primary is down, and reports unreachable consoles', async () => {
    const downUrl = `http://127.0.0.1:${await freePort()}`;
    const regions = {
      'ap-northeast': { consoleUrl: downUrl, ingressUrl: downUrl.replace('http', 'ws') },
      'us-west': { consoleUrl: service.url, ingressUrl: service.ingressUrl },
    };
    const info = await mintSessionToken({ apiKey: fixtures.apiKey, regions });
    expect(info.region).toBe('us-west');
    const error = await failure(
      createSessionToken({ apiKey: fixtures.apiKey, regions, backupRegion: null, region: 'ap-northeast' }),
    );
    expect(error.code).toBe('connectionFailed');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain(fixtures.apiKey);
  });

  it('maps the console rate limit (429) with retry-after', async () => {
    const limited = await startServiceProcess({
      region: 'ap-northeast',
      fixtures,
      env: { AVATAR_DRIVE_TOKEN_RATE_LIMIT: '2' },
    });
    await createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: limited.url });
    await createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: limited.url });
    const error = await failure(createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: limited.url }));
    expect(error.code).toBe('concurrencyLimit');
    expect(error.httpStatus).toBe(429);
    expect(error.retryable).toBe(false);
    expect(error.details?.retryAfterSeconds).toBeGreaterThan(0);
    await limited.stop();
  }, 90_000);
});
