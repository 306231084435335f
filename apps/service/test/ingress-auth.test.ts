import { wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../src/credentials/session-tokens.js';
import type { RunningService } from '../src/service.js';
import {
  APP_ID,
  AVATAR_ID,
  makeAvatarsDir,
  mintToken,
  OTHER_API_KEY,
  OTHER_APP_ID,
  SIGNING_KEY,
  sleep,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';

let service: RunningService;
let avatarsDir: string;

beforeAll(async () => {
  avatarsDir = await makeAvatarsDir();
  service = await startTestService({ avatarsDir });
});
afterAll(async () => {
  await service?.close();
});

async function rejection(url: string, headers: Record<string, string> = {}) {
  const client = new TestClient(url, headers);
  try {
    await client.opened;
  } catch (error) {
    return error as Error & {
      status: number;
      body: { errors: { status: number; code: string; detail: string }[] };
    };
  }
  client.close();
  throw new Error('the upgrade was accepted');
}

describe('upgrade authentication', () => {
  it('accepts header auth on /v2/driveningress and query auth on /v2/driveningress/websocket', async () => {
    const a = await TestClient.open(service, await mintToken(service));
    a.configure();
    await a.confirmed();
    const b = await TestClient.open(service, await mintToken(service), { query: true, path: '/websocket' });
    b.configure();
    await b.confirmed();
    a.close();
    b.close();
  });

  it.each([
    ['an unknown path', '/v2/other', {}, 404, 'invalidRequest'],
    ['no token', '/v2/driveningress?id=test-avatar', { 'X-App-ID': APP_ID }, 401, 'sessionTokenInvalid'],
    [
      'a forged token',
      '/v2/driveningress?id=test-avatar',
      { 'X-App-ID': APP_ID, 'X-Session-Key': 'eyJhbGciOiJIUzI1NiJ9.e30.x' },
      401,
      'sessionTokenInvalid',
    ],
  ])('rejects %s', async (_name, path, headers, status, code) => {
    const error = await rejection(
      `${service.url.replace('http', 'ws')}${path}`,
      headers as Record<string, string>,
    );
    expect(error.status).toBe(status);
    expect(error.body.errors[0]).toMatchObject({ status, code });
  });

  it('401 for an expired token', async () => {
    const { token } = await new SessionTokens(SIGNING_KEY).mint(APP_ID, Math.floor(Date.now() / 1000) - 5);
    const error = await rejection(`${service.ingressUrl}?id=${AVATAR_ID}`, {
      'X-App-ID': APP_ID,
      'X-Session-Key': token,
    });
    expect(error.status).toBe(401);
    expect(error.body.errors[0]!.code).toBe('sessionTokenExpired');
    expect(error.body.errors[0]!.detail).toMatch(/Mint a new one/);
  });

  it('401 for a token signed with another key', async () => {
    const { token } = await new SessionTokens(new Uint8Array(32).fill(7)).mint(
      APP_ID,
      Math.floor(Date.now() / 1000) + 60,
    );
    const error = await rejection(`${service.ingressUrl}?id=${AVATAR_ID}`, {
      'X-App-ID': APP_ID,
      'X-Session-Key': token,
    });
    expect(error.status).toBe(401);
    expect(error.body.errors[0]!.code).toBe('sessionTokenInvalid');
  });

  it('400 for an app id that does not match the token', async () => {
    const token = await mintToken(service);
    const error = await rejection(`${service.ingressUrl}?id=${AVATAR_ID}`, {
      'X-App-ID': OTHER_APP_ID,
      'X-Session-Key': token,
    });
    expect(error.status).toBe(400);
    expect(error.body.errors[0]!.code).toBe('appIDMismatch');
  });

  it('400 without an app id or avatar id', async () => {
    const token = await mintToken(service);
    const noApp = await rejection(`${service.ingressUrl}?id=${AVATAR_ID}`, { 'X-Session-Key': token });
    expect(noApp.status).toBe(400);
    const noAvatar = await rejection(service.ingressUrl, { 'X-App-ID': APP_ID, 'X-Session-Key': token });
    expect(noAvatar.status).toBe(400);
    expect(noAvatar.body.errors[0]!.detail).toMatch(/\?id=/);
  });

  it('404 for an unknown avatar', async () => {
    const token = await mintToken(service);
    const error = await rejection(`${service.ingressUrl}?id=nobody`, {
      'X-App-ID': APP_ID,
      'X-Session-Key': token,
    });
    expect(error.status).toBe(404);
    expect(error.body.errors[0]!.code).toBe('avatarNotFound');
  });

  it('a token is single-use: the second upgrade with it is refused', async () => {
    const token = await mintToken(service);
    const first = await TestClient.open(service, token);
    const error = await rejection(`${service.ingressUrl}?id=${AVATAR_ID}`, {
      'X-App-ID': APP_ID,
      'X-Session-Key': token,
    });
    expect(error.status).toBe(401);
    expect(error.body.errors[0]!.detail).toMatch(/already used/);
    first.close();
  });

  it('a rejected upgrade does not consume the token', async () => {
    const token = await mintToken(service);
    await rejection(`${service.ingressUrl}?id=nobody`, { 'X-App-ID': APP_ID, 'X-Session-Key': token });
    const client = await TestClient.open(service, token);
    client.close();
  });

  it('an established session keeps running past its token expiry', async () => {
    const token = await mintToken(service, undefined, Math.floor(Date.now() / 1000) + 2);
    const client = await TestClient.open(service, token);
    client.configure();
    await client.confirmed();
    await sleep(2100);
    client.audio('late', tone(80), true);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    client.close();
  });
});

describe('limits', () => {
  it('closes with 4003 past the per-app concurrency limit without spending the token, and admits again once a slot frees', async () => {
    // OTHER_APP_ID allows 2 concurrent sessions.
    const open = async (token?: string) =>
      TestClient.open(service, token ?? (await mintToken(service, OTHER_API_KEY)), { appId: OTHER_APP_ID });
    const a = await open();
    const b = await open();
    const refusedToken = await mintToken(service, OTHER_API_KEY);
    const c = await open(refusedToken);
    const error = await c.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value.code).toBe(4003);
    expect(error.data.case === 'serverError' && error.data.value.message).toMatch(/not spent/);
    expect((await c.closed).code).toBe(4003);
    a.close();
    await a.closed;
    await sleep(50);
    const d = await open(refusedToken);
    d.configure();
    await d.confirmed();
    b.close();
    await b.closed;
    await sleep(50);
    // With a slot free again, the token shows as spent.
    await expect(open(refusedToken)).rejects.toMatchObject({ status: 401 });
    d.close();
  });

  it('closes with 4002 at the session duration limit, and on idle timeout', async () => {
    const limited = await startTestService({
      avatarsDir,
      limits: { maxSessionMs: 300, idleTimeoutMs: 60_000 },
    });
    const idle = await startTestService({ avatarsDir, limits: { idleTimeoutMs: 200 } });
    try {
      const a = await TestClient.open(limited, await mintToken(limited));
      a.configure();
      await a.confirmed();
      const e = await a.waitFor((m) => m.data.case === 'serverError');
      expect(e.data.case === 'serverError' && e.data.value.code).toBe(4002);
      expect((await a.closed).code).toBe(4002);

      const b = await TestClient.open(idle, await mintToken(idle));
      b.configure();
      await b.confirmed();
      const f = await b.waitFor((m) => m.data.case === 'serverError');
      expect(f.data.case === 'serverError' && f.data.value.message).toMatch(/^idleTimeout/);
      expect((await b.closed).code).toBe(4009);
    } finally {
      await limited.close();
      await idle.close();
    }
  });

  it('bounds output buffered for a reader that stops reading', async () => {
    const slow = await startTestService({
      avatarsDir,
      standIn: true,
      // Intake uncapped: the audio must come in faster than the reader takes the output.
      limits: { maxOutputBufferBytes: 32 * 1024, maxMessageBytes: 512 * 1024, maxIntakeRealtimeFactor: 0 },
    });
    try {
      const client = await TestClient.open(slow, await mintToken(slow));
      client.configure(8000);
      await client.confirmed();
      // Stop reading: the server's writes back up in its socket buffer.
      (client.ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
      const session = [...slow.ingress.sessions][0]!;
      const chunk = tone(10_000, 8000); // 10 s of audio = 250 frames per message
      for (let i = 0; i < 200; i++) client.audio(`r${i}`, chunk, true);
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && session.maxBufferedBytes <= 32 * 1024) await sleep(50);
      await sleep(300);
      // Output is produced only while the buffer is under the bound (plus what one message adds).
      expect(session.maxBufferedBytes).toBeGreaterThan(32 * 1024);
      expect(session.maxBufferedBytes).toBeLessThan(32 * 1024 + 2 * 1024 * 1024);
      const produced = Number((await slow.metrics.framesSent.get()).values[0]?.value ?? 0);
      expect(produced).toBeLessThan(200 * 250);
      client.ws.terminate();
    } finally {
      await slow.close();
    }
  });
});

describe('a session with nothing but control messages', () => {
  it('pause before any audio names no request: ServerError, session stays', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure();
    await client.confirmed();
    client.control('resume', 'x');
    const e = await client.waitFor((m) => m.data.case === 'serverError');
    expect(e.data.case === 'serverError' && e.data.value.code).toBe(4000);
    client.audio('y', tone(40), true);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === wire.PlaybackState.ENDED,
    );
    client.close();
  });
});
