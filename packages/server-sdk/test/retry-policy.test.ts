import type { AvatarError } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRedis } from '../../../apps/service/test/support/redis-server.js';
import {
  AvatarSession,
  type AvatarSessionOptions,
  createSessionToken,
  type RelayEvent,
  type SessionCloseEvent,
  type SessionState,
} from '../src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  freePort,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  startServiceProcess,
  stopAllServices,
  tone,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let backup: ServiceProcess;
let redis: TestRedis;
let redisBacked: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  redis = await TestRedis.start();
  [backup, redisBacked] = await Promise.all([
    startServiceProcess({ region: 'us-west', fixtures }),
    startServiceProcess({ region: 'ap-northeast', fixtures, redisUrl: redis.url }),
  ]);
});
afterAll(async () => {
  await stopAllServices();
  await redis?.kill();
});

type Endpoint = { url: string; ingressUrl: string };

function regions(primary: Endpoint, secondary: Endpoint = backup) {
  return {
    'ap-northeast': { consoleUrl: primary.url, ingressUrl: primary.ingressUrl },
    'us-west': { consoleUrl: secondary.url, ingressUrl: secondary.ingressUrl },
  };
}

async function downEndpoint(): Promise<Endpoint> {
  const port = await freePort();
  return { url: `http://127.0.0.1:${port}`, ingressUrl: `ws://127.0.0.1:${port}/v2/driveningress` };
}

interface Recorded {
  errors: AvatarError[];
  closes: SessionCloseEvent[];
  states: SessionState[];
  events: RelayEvent[];
}

function session(options: Partial<AvatarSessionOptions>): { s: AvatarSession; rec: Recorded } {
  const rec: Recorded = { errors: [], closes: [], states: [], events: [] };
  const s = new AvatarSession({
    avatarId: AVATAR_ID,
    appId: fixtures.appId,
    apiKey: fixtures.apiKey,
    sampleRate: 16000,
    reconnect: { initialDelayMs: 50, maxDelayMs: 400 },
    onError: (e) => {
      rec.errors.push(e);
    },
    onClose: (e) => {
      rec.closes.push(e);
    },
    onStateChange: (to) => {
      rec.states.push(to);
    },
    ...options,
  });
  if (!options.egress) s.relay().on('event', (e) => rec.events.push(e));
  return { s, rec };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

describe('region fallback and retry policy against real service processes', () => {
  it('falls back to the backup region when the primary region is down', async () => {
    const { s, rec } = session({ regions: regions(await downEndpoint()) });
    await s.start();
    expect(s.region).toBe('us-west');
    expect(s.attempts.map((a) => [a.region, a.error?.code])).toEqual([
      ['ap-northeast', 'connectionFailed'],
      ['us-west', undefined],
    ]);
    // The relay works on the backup.
    const reqId = s.sendAudio(tone(200), true);
    await until(() => rec.events.some((e) => e.type === 'animation' && e.conversationId === reqId && e.last));
    await s.close();
    expect(rec.errors).toEqual([]); // a fallback that succeeded is not an error
    expect(rec.states).toEqual(['connecting', 'connected', 'closing', 'closed']);
    expect(rec.closes).toEqual([{ code: 1000, reason: 'client closed' }]);
  });

  it('4503 (shared store down) is retried: the session moves to the backup region', async () => {
    await redis.kill();
    try {
      // The token comes from the backup (tokens verify in every region); the primary refuses with 4503.
      const { s, rec } = session({
        apiKey: undefined,
        sessionToken: () => createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: backup.url }),
        regions: regions(redisBacked),
      });
      await s.start();
      expect(s.region).toBe('us-west');
      const first = s.attempts[0]!;
      expect(first.region).toBe('ap-northeast');
      expect(first.error).toMatchObject({
        code: 'upstreamError',
        closeCode: 4503,
        retryable: true,
        phase: 'configure',
      });
      await s.close();
      expect(rec.errors).toEqual([]);
    } finally {
      await redis.restart();
    }
  });

  it('4503 without a backup region: retried with growing backoff, then reported once', async () => {
    await redis.kill();
    try {
      const { s, rec } = session({
        apiKey: undefined,
        sessionToken: () => createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: backup.url }),
        regions: regions(redisBacked),
        backupRegion: null,
        reconnect: { maxAttempts: 4, initialDelayMs: 100, maxDelayMs: 1000 },
      });
      const error = await s.start().then(
        () => undefined,
        (e: AvatarError) => e,
      );
      expect(error).toMatchObject({ code: 'upstreamError', closeCode: 4503, retryable: true });
      expect(error!.message).toMatch(/gave up after 4 attempts/);
      expect(s.attempts).toHaveLength(4);
      expect(s.attempts.every((a) => a.error?.closeCode === 4503)).toBe(true);
      const gaps = s.attempts.slice(1).map((a, i) => a.startedAt - s.attempts[i]!.startedAt);
      // Backoff steps 100, 200, 400 ms with jitter in [50 %, 100 %].
      expect(gaps[0]).toBeGreaterThanOrEqual(50);
      expect(gaps[1]).toBeGreaterThanOrEqual(100);
      expect(gaps[2]).toBeGreaterThanOrEqual(200);
      await s.closed;
      expect(rec.errors).toHaveLength(1);
      expect(rec.closes).toHaveLength(1);
      expect(rec.closes[0]!.error).toBe(rec.errors[0]);
      expect(s.state).toBe('closed');
    } finally {
      await redis.restart();
    }
  });

  it('4010 (token already used) is final at once: no retry, no region fallback', async () => {
    const token = await createSessionToken({ apiKey: fixtures.apiKey, consoleUrl: backup.url });
    const used = new AvatarSession({
      avatarId: AVATAR_ID,
      appId: fixtures.appId,
      sessionToken: token,
      regions: regions(backup, redisBacked),
      sampleRate: 16000,
    });
    await used.start();
    await used.close();
    const { s, rec } = session({
      apiKey: undefined,
      sessionToken: token,
      regions: regions(backup, redisBacked),
    });
    const error = await s.start().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    expect(error).toMatchObject({
      code: 'sessionTokenInvalid',
      closeCode: 4010,
      httpStatus: 401,
      retryable: false,
    });
    expect(s.attempts).toHaveLength(1);
    await s.closed;
    expect(rec.errors).toEqual([error]);
    expect(rec.closes).toHaveLength(1);
  });

  it('4003 (concurrency limit, a WebSocket close) is not retried', async () => {
    const open = () =>
      session({
        appId: fixtures.smallAppId,
        apiKey: fixtures.smallApiKey,
        regions: regions(backup, redisBacked),
      });
    const a = open();
    const b = open();
    await a.s.start();
    await b.s.start();
    const c = open();
    const error = await c.s.start().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    expect(error).toMatchObject({ code: 'concurrencyLimit', closeCode: 4003, retryable: false });
    expect(c.s.attempts).toHaveLength(1);
    await Promise.all([a.s.close(), b.s.close()]);
  });

  it('an established session dropped with 4503 (service shutting down) reconnects to the backup region', async () => {
    const doomed = await startServiceProcess({ region: 'ap-northeast', fixtures });
    const { s, rec } = session({ regions: regions(doomed) });
    const firstId = await s.start();
    expect(s.region).toBe('ap-northeast');
    const inFlight = s.sendAudio(tone(1000)); // utterance still open when the service goes away
    await until(() => rec.events.some((e) => e.type === 'animation'));
    await doomed.stop('SIGTERM');
    await until(() => s.state === 'connected' && s.connectionId !== firstId);
    // The primary (going away) is tried once and fails retryably, then the backup at once.
    const retries = s.attempts.slice(1);
    expect(retries.map((a) => a.region)).toEqual(['ap-northeast', 'us-west']);
    expect(retries[0]!.error?.retryable).toBe(true);
    expect(retries[1]!.startedAt - retries[0]!.startedAt).toBeLessThan(5000);
    expect(s.region).toBe('us-west');
    expect(rec.states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(rec.errors).toHaveLength(1);
    expect(rec.errors[0]).toMatchObject({
      code: 'upstreamError',
      closeCode: 4503,
      retryable: true,
      phase: 'stream',
    });
    // The browser is told to stop the utterance that was lost with the connection.
    expect(rec.events).toContainEqual(
      expect.objectContaining({ type: 'control', control: { type: 'interrupt', conversationId: inFlight } }),
    );
    // The rest of the lost utterance is dropped like an interrupted turn's; the session goes on.
    expect(s.sendAudio(tone(200))).toBe(inFlight);
    s.startTurn();
    const next = s.sendAudio(tone(200), true);
    expect(next).not.toBe(inFlight);
    await until(() => rec.events.some((e) => e.type === 'animation' && e.conversationId === next && e.last));
    await s.close();
    expect(rec.closes).toHaveLength(1);
  }, 90_000);

  it('a 40xx close of an established session (idle timeout 4009) ends it without reconnecting', async () => {
    const idle = await startServiceProcess({
      region: 'ap-northeast',
      fixtures,
      env: { AVATAR_DRIVE_IDLE_TIMEOUT_SECONDS: '1' },
    });
    const { s, rec } = session({ regions: regions(idle) });
    await s.start();
    const closed = await s.closed;
    expect(closed.code).toBe(4009);
    expect(closed.error).toMatchObject({
      code: 'idleTimeout',
      closeCode: 4009,
      retryable: false,
      phase: 'stream',
    });
    expect(rec.errors).toHaveLength(1);
    expect(rec.errors[0]!.message).toMatch(/No message for 1 s/);
    expect(rec.states).toEqual(['connecting', 'connected', 'closed']);
    expect(s.attempts).toHaveLength(1);
    expect(rec.events.at(-1)).toMatchObject({
      type: 'control',
      control: { type: 'end', reason: 'idleTimeout' },
    });
    await idle.stop();
  }, 90_000);

  it('close() during a backoff wait ends the session at once', async () => {
    const down = await downEndpoint();
    const { s, rec } = session({
      regions: regions(down, await downEndpoint()),
      reconnect: { maxAttempts: 10, initialDelayMs: 5000, maxDelayMs: 5000 },
    });
    const started = s.start().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    await until(() => s.attempts.length === 2 && s.attempts[1]!.error !== undefined);
    const t0 = Date.now();
    await s.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await started).toMatchObject({ code: 'connectionClosed' });
    expect(rec.closes).toEqual([{ code: 1000, reason: 'client closed' }]);
    expect(rec.errors).toEqual([]);
  });
});
