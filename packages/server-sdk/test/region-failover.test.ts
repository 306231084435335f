/**
 * Regional fallback for real: two independent regions (each its own service process and its own
 * Redis); region A's service and Redis are killed (SIGKILL) in the middle of a conversation, and
 * the same AvatarSession carries on in region B.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRedis } from '../../../apps/service/test/support/redis-server.js';
import { regionFailover } from './support/region-failover.js';
import {
  createFixtures,
  type ServiceFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let redisA: TestRedis;
let redisB: TestRedis;
let regionA: ServiceProcess;
let regionB: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  [redisA, redisB] = await Promise.all([TestRedis.start(), TestRedis.start()]);
  [regionA, regionB] = await Promise.all([
    startServiceProcess({ region: 'ap-northeast', fixtures, redisUrl: redisA.url }),
    startServiceProcess({ region: 'us-west', fixtures, redisUrl: redisB.url }),
  ]);
});
afterAll(async () => {
  await stopAllServices();
  await redisA?.kill();
  await redisB?.kill();
});

describe('region A and its Redis die mid-conversation', () => {
  it('the conversation continues in region B', async () => {
    const run = await regionFailover({
      fixtures,
      primary: regionA,
      backup: regionB,
      primaryRedis: redisA,
      signal: 'SIGKILL',
    });
    expect(run.regions).toEqual(['ap-northeast', 'us-west']);
    expect(run.states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    // One retryable drop reported, nothing final.
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatchObject({ retryable: true, phase: 'stream' });
    // The browser is told to stop the utterance lost with region A…
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: 'control',
        control: { type: 'interrupt', conversationId: run.inFlight },
      }),
    );
    // …and the next one plays to its end from region B.
    const continued = run.events.filter((e) => e.type === 'animation' && e.conversationId === run.continued);
    expect(continued.length).toBeGreaterThan(0);
    expect(continued.at(-1)).toMatchObject({ last: true });
    // Region B is healthy on its own store.
    const ready = (await (await fetch(`${regionB.url}/readyz`)).json()) as { checks: { store: string } };
    expect(ready.checks.store).toBe('ok (redis)');
  }, 90_000);
});
