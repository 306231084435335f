import { type ChildProcess, spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession } from '../../server-sdk/src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  freePort,
  REPO_ROOT,
  type ServiceFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
} from '../../server-sdk/test/support/service-process.js';
import { tokenServerPlugin } from '../src/index.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;
const apps: FastifyInstance[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'us-west', fixtures });
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const child of children.splice(0)) child.kill('SIGTERM');
});
afterAll(stopAllServices);

class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _e: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

async function server(apiKey: string, consoleUrl = service.url, log = new LogCapture()) {
  const app = Fastify({ logger: { level: 'debug', stream: log } });
  await app.register(tokenServerPlugin, {
    avatarDrive: { apiKey, appId: fixtures.appId, consoleUrl, ttlSeconds: 120 },
  });
  apps.push(app);
  return { app, log };
}

describe('POST /session-token against the real driving service', () => {
  it('mints a session token with the server API key; the browser-side token opens a session', async () => {
    const { app, log } = await server(fixtures.apiKey);
    const before = Math.floor(Date.now() / 1000);
    const response = await app.inject({ method: 'POST', url: '/session-token', payload: {} });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json() as { sessionToken: string; expireAt: number; appId: string };
    expect(body.appId).toBe(fixtures.appId);
    expect(body.expireAt - before).toBeGreaterThanOrEqual(119);
    expect(body.expireAt - before).toBeLessThanOrEqual(121);
    expect(response.body).not.toContain(fixtures.apiKey);
    expect(log.text).not.toContain(fixtures.apiKey);
    const session = new AvatarSession({
      avatarId: AVATAR_ID,
      appId: body.appId,
      sessionToken: body.sessionToken,
      ingressUrl: service.ingressUrl,
      sampleRate: 16000,
      reconnect: false,
    });
    await expect(session.start()).resolves.toMatch(/^conn_/);
    await session.close();
  });

  it('a wrong server API key is a generic 500 for the browser; the log has the detail, never the key', async () => {
    const wrongKey = `adk_${'w'.repeat(43)}`;
    const { app, log } = await server(wrongKey);
    const response = await app.inject({ method: 'POST', url: '/session-token' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: 'The token server could not mint a session token; see its log.',
    });
    expect(log.text).toContain('appIDUnrecognized');
    expect(log.text).not.toContain(wrongKey);
  });

  it('503 when the driving service is down; 500 when not configured', async () => {
    const { app } = await server(fixtures.apiKey, `http://127.0.0.1:${await freePort()}`);
    const down = await app.inject({ method: 'POST', url: '/session-token', payload: {} });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ error: 'The driving service is unavailable; retry shortly.' });
    const bare = Fastify();
    apps.push(bare);
    await bare.register(tokenServerPlugin, { avatarDrive: { apiKey: fixtures.apiKey } });
    const missing = await bare.inject({ method: 'POST', url: '/session-token', payload: {} });
    expect(missing.statusCode).toBe(500);
    expect((missing.json() as { error: string }).error).toMatch(
      /AVATAR_DRIVE_API_KEY and AVATAR_DRIVE_APP_ID/,
    );
  });

  it('rejects a body with fields (nothing is taken from the browser)', async () => {
    const { app } = await server(fixtures.apiKey);
    const response = await app.inject({
      method: 'POST',
      url: '/session-token',
      payload: 'not-an-object',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('avatar-drive-token-server bin', () => {
  it('runs from env config, serves both routes, and never prints the API key', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/token-server/src/bin.ts',
        '--port',
        '0',
        '--cors-origin',
        'https://app.example.com',
      ],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          AVATAR_DRIVE_API_KEY: fixtures.apiKey,
          AVATAR_DRIVE_APP_ID: fixtures.appId,
          AVATAR_DRIVE_CONSOLE_URL: service.url,
          LIVEKIT_URL: '',
          LOG_LEVEL: 'info',
        },
      },
    );
    children.push(child);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 50);
      child.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`bin exited ${code}: ${out}`));
      });
    });
    expect(out).toContain('LiveKit not configured; Avatar Drive configured');
    const health = await fetch(`${url}/health`, { headers: { origin: 'https://app.example.com' } });
    expect(health.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(await health.json()).toEqual({ status: 'ok', livekit: false, avatarDrive: true });
    const minted = await fetch(`${url}/session-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(minted.status).toBe(200);
    const token = await fetch(`${url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(token.status).toBe(500);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(out).not.toContain(fixtures.apiKey);
  });
});
