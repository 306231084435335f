/**
 * Avatar assets answer like a static file server: weak ETags in If-None-Match (304), single byte
 * ranges (206, or 416 outside the file), If-Range; and /readyz warns when the Redis it uses keeps
 * nothing across a restart (used tokens would work once more). Real service, real Redis.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import { APP_ID, AVATAR_ID, type Json, makeAvatarsDir, startTestService } from './support/harness.js';
import { TestRedis } from './support/redis-server.js';

let service: RunningService;
let url: string;
let whole: Buffer;
let etag: string;
beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir(), standIn: true });
  const manifest = (await (
    await fetch(`${service.url}/v1/console/avatars/${AVATAR_ID}?appId=${APP_ID}`)
  ).json()) as Json;
  url = `${manifest.assets[0].url}?appId=${APP_ID}`;
  const response = await fetch(url);
  whole = Buffer.from(await response.arrayBuffer());
  etag = response.headers.get('etag')!;
  expect(response.headers.get('accept-ranges')).toBe('bytes');
});
afterAll(async () => {
  await service?.close();
});

const get = (headers: Record<string, string>) => fetch(url, { headers });

describe('asset requests', () => {
  it('a weak ETag in If-None-Match (alone or in a list) revalidates: 304', async () => {
    for (const value of [`W/${etag}`, `"nope", W/${etag}`, `W/"nope", ${etag}`]) {
      const r = await get({ 'if-none-match': value });
      expect(r.status, value).toBe(304);
    }
    expect((await get({ 'if-none-match': 'W/"sha256-other"' })).status).toBe(200);
  });

  it('single byte ranges get 206 with the bytes and Content-Range', async () => {
    const size = whole.length;
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      ['bytes=10-', 10, size - 1],
      ['bytes=-16', size - 16, size - 1],
      [`bytes=5-${size + 100}`, 5, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const r = await get({ range });
      expect(r.status, range).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(Buffer.from(await r.arrayBuffer()).equals(whole.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('a range outside the file gets 416 with the size; If-Range that differs or several ranges get the whole file', async () => {
    const size = whole.length;
    const outside = await get({ range: `bytes=${size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"sha256-other"' });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).length).toBe(size);
    const fresh = await get({ range: 'bytes=0-9', 'if-range': etag });
    expect(fresh.status).toBe(206);
    await fresh.arrayBuffer();
    const several = await get({ range: 'bytes=0-1, 5-6' });
    expect(several.status).toBe(200);
    expect(Buffer.from(await several.arrayBuffer()).length).toBe(size);
  });
});

describe('/readyz and the persistence of the Redis it uses', () => {
  let redis: TestRedis;
  let onRedis: RunningService;
  beforeAll(async () => {
    redis = await TestRedis.start();
    onRedis = await startTestService({
      avatarsDir: await makeAvatarsDir(),
      standIn: true,
      redisUrl: redis.url,
    });
  });
  afterAll(async () => {
    await onRedis?.close();
    await redis?.kill();
  });

  it('warns while Redis has neither RDB snapshots nor AOF, and stops once snapshots are on', async () => {
    const off = (await (await fetch(`${onRedis.url}/readyz`)).json()) as Json;
    expect(off.status).toBe('ready');
    // (The test avatars directory has two broken files: their warnings are about avatars.)
    const about = (warnings: string[] | undefined) => (warnings ?? []).filter((w) => w.startsWith('store'));
    expect(about(off.warnings)).toEqual([
      expect.stringMatching(/^store persistence off \(save "" appendonly no\)/),
    ]);

    const admin = new Redis(redis.url);
    // An RDB save rule (writes nothing until it fires; AOF would write files in the cwd).
    await admin.config('SET', 'save', '3600 1');
    admin.disconnect();
    const on = (await (await fetch(`${onRedis.url}/readyz`)).json()) as Json;
    expect(on.status).toBe('ready');
    expect(about(on.warnings)).toEqual([]);
  });
});
