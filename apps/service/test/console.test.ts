import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import type { Json } from './support/harness.js';
import { API_KEY, LogCapture, makeAvatarsDir, startTestService } from './support/harness.js';

let service: RunningService;
const log = new LogCapture();

beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    log,
    limits: { tokenRateLimit: 3, tokenRateWindowMs: 60_000 },
  });
});
afterAll(async () => {
  await service?.close();
});

const now = () => Math.floor(Date.now() / 1000);

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, Json>,
  };
}

function expectError(body: Record<string, Json>, status: number, code: string) {
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ status, code });
  expect(typeof body.errors[0].title).toBe('string');
  expect(typeof body.errors[0].detail).toBe('string');
}

describe('POST /v1/console/session-tokens', () => {
  // The rate limit is 3 per minute in this file: mints happen in the first and the 429 test only.
  it('mints a token, also as session_token and on the /v1/auth/session-token alias', async () => {
    const a = await post('/v1/console/session-tokens', { expireAt: now() + 60, modelVersion: 'x' });
    expect(a.status).toBe(200);
    expect(a.body.sessionToken).toMatch(/^ey/);
    expect(a.body.session_token).toBe(a.body.sessionToken);
    expect(a.headers.get('cache-control')).toBe('no-store');
    const b = await post('/v1/auth/session-token', { expireAt: now() + 60 });
    expect(b.status).toBe(200);
    expect(b.body.sessionToken).not.toBe(a.body.sessionToken);
  });

  it('401 without an API key, and with an unknown one', async () => {
    const missing = await post('/v1/console/session-tokens', { expireAt: now() + 60 }, { 'x-api-key': '' });
    expect(missing.status).toBe(401);
    expectError(missing.body, 401, 'appIDUnrecognized');
    const unknown = await post(
      '/v1/console/session-tokens',
      { expireAt: now() + 60 },
      { 'x-api-key': 'adk_wrong' },
    );
    expect(unknown.status).toBe(401);
    expectError(unknown.body, 401, 'appIDUnrecognized');
  });

  it.each([
    ['no expireAt', {}],
    ['a string expireAt', { expireAt: String(now() + 60) }],
    ['a fractional expireAt', { expireAt: now() + 60.5 }],
    ['a non-string modelVersion', { expireAt: now() + 60, modelVersion: 3 }],
    ['an array body', [1]],
  ])('400 for %s', async (_name, body) => {
    const r = await post('/v1/console/session-tokens', body);
    expect(r.status).toBe(400);
    expectError(r.body, 400, 'invalidRequest');
  });

  it('400 for malformed JSON', async () => {
    const r = await post('/v1/console/session-tokens', '{"expireAt": ');
    expect(r.status).toBe(400);
    expectError(r.body, 400, 'invalidRequest');
  });

  it.each([
    ['in the past', -10],
    ['now', 0],
    ['over 24 h ahead', 24 * 3600 + 60],
  ])('400 for expireAt %s, naming the allowed range', async (_name, offset) => {
    const r = await post('/v1/console/session-tokens', { expireAt: now() + offset });
    expect(r.status).toBe(400);
    expectError(r.body, 400, 'invalidRequest');
    expect(r.body.errors[0].detail).toMatch(/after now \(\d+\) and less than 24 h ahead \(< \d+\)/);
  });

  it('415 for a body that is not JSON', async () => {
    const r = await post('/v1/console/session-tokens', 'expireAt=1', { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expectError(r.body, 415, 'invalidRequest');
  });

  it('429 with Retry-After past the rate limit', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await post('/v1/console/session-tokens', { expireAt: now() + 60 });
      statuses.push(last.status);
    }
    expect(statuses).toContain(429);
    expect(last!.status).toBe(429);
    expectError(last!.body, 429, 'concurrencyLimit');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('never logs or echoes the API key', async () => {
    await post('/v1/console/session-tokens', { expireAt: now() - 1 });
    const r = await post(
      '/v1/console/session-tokens',
      { expireAt: now() + 60 },
      { 'x-api-key': `${API_KEY}x` },
    );
    expect(JSON.stringify(r.body)).not.toContain(API_KEY);
    expect(log.text.length).toBeGreaterThan(0);
    expect(log.text).not.toContain(API_KEY);
  });
});

describe('operations endpoints', () => {
  it('GET /healthz and /readyz', async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', region: 'ap-northeast' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { store: 'ok (memory)', engine: 'ok (inline)' },
    });
  });

  it('GET /metrics exposes the service metrics', async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    for (const name of [
      'avatar_drive_live_sessions',
      'avatar_drive_frames_sent_total',
      'avatar_drive_audio_seconds_processed_total',
      'avatar_drive_engine_cpu_seconds_per_audio_second',
      'avatar_drive_errors_total',
      'avatar_drive_session_tokens_issued_total',
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(text).toMatch(/avatar_drive_session_tokens_issued_total\{region="ap-northeast"\} [1-9]/);
    expect(text).toMatch(/avatar_drive_errors_total\{code="invalidRequest",region="ap-northeast"\} [1-9]/);
  });

  it('serves an OpenAPI document describing every console route', async () => {
    const doc = (await (await fetch(`${service.url}/v1/console/openapi.json`)).json()) as Record<
      string,
      Json
    >;
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/v1/console/session-tokens',
      '/v1/auth/session-token',
      '/v1/console/avatars',
      '/v1/console/avatars/{id}',
      '/v1/console/avatars/{id}/assets/{sha256}/{name}',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(
      doc.paths['/v1/console/session-tokens'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['expireAt']);
  });

  it('unknown routes answer 404 in the error format', async () => {
    const r = await fetch(`${service.url}/v1/console/nope`);
    expect(r.status).toBe(404);
    expectError((await r.json()) as Record<string, Json>, 404, 'invalidRequest');
  });
});
