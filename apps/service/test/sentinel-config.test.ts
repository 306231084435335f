/** Redis Sentinel and draining settings from flags and environment (resolveConfig only). */
import { describe, expect, it } from 'vitest';
import { parseSentinels, resolveConfig } from '../src/config.js';

const APPS = {
  AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'a1', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }]),
  AVATAR_DRIVE_SIGNING_KEY: 'x'.repeat(43),
};

async function options(argv: string[], env: Record<string, string>) {
  const resolved = await resolveConfig(argv, { ...APPS, ...env });
  if ('help' in resolved) throw new Error('help');
  return resolved.options;
}

describe('Redis Sentinel and draining configuration', () => {
  it('reads the sentinels, the master name and the passwords from the environment', async () => {
    const o = await options([], {
      REDIS_SENTINELS: '10.0.0.1:26379, 10.0.0.2:26380,[::1]:26381',
      REDIS_MASTER_NAME: 'avd-prod',
      REDIS_PASSWORD: 'server-secret',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(o.redisSentinel).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      masterName: 'avd-prod',
      sentinelPassword: 'sentinel-secret',
    });
    expect(o.redisPassword).toBe('server-secret');
    expect(o.redisUrl).toBeUndefined();
    expect(o.tokenLedgerDir).toBeUndefined();
  });

  it('flags win; the master name defaults to avatar-drive; wait-replicas and drain settings parse', async () => {
    const o = await options(
      [
        '--redis-sentinels',
        '127.0.0.1:1',
        '--redis-wait-replicas',
        '2',
        '--drain-timeout',
        '7',
        '--drain-delay',
        '500',
      ],
      { REDIS_SENTINELS: '10.0.0.9:9' },
    );
    expect(o.redisSentinel).toEqual({
      sentinels: [{ host: '127.0.0.1', port: 1 }],
      masterName: 'avatar-drive',
    });
    expect(o.redisWaitReplicas).toBe(2);
    expect(o.drainTimeoutMs).toBe(7000);
    expect(o.drainDelayMs).toBe(500);
  });

  it('refuses a URL and sentinels together, and malformed sentinel lists, saying what to write', async () => {
    await expect(options([], { REDIS_URL: 'redis://x:6379', REDIS_SENTINELS: 'y:26379' })).rejects.toThrow(
      /give one/,
    );
    for (const bad of ['redis-1', 'host:', 'host:99999', ':26379', ' , ']) {
      expect(() => parseSentinels(bad)).toThrow(/host:port/);
    }
    await expect(options([], { AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS: 'soon' })).rejects.toThrow(
      /non-negative integer/,
    );
  });

  it('--processes N accepts sentinels instead of a URL', async () => {
    const resolved = await resolveConfig(['--processes', '2'], {
      ...APPS,
      REDIS_SENTINELS: '127.0.0.1:26379',
    });
    expect('help' in resolved ? 0 : resolved.processes).toBe(2);
    await expect(resolveConfig(['--processes', '2'], APPS)).rejects.toThrow(/REDIS_URL or REDIS_SENTINELS/);
  });
});
