import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../src/http/cors.js';
import type { RunningService } from '../src/service.js';
import {
  API_KEY,
  APP_ID,
  AVATAR_ID,
  makeAvatarsDir,
  mintToken,
  startTestService,
} from './support/harness.js';

let open: RunningService; // default: any origin
let restricted: RunningService; // only https://app.example
const PAGE = 'https://app.example';

beforeAll(async () => {
  const avatarsDir = await makeAvatarsDir();
  open = await startTestService({ avatarsDir });
  restricted = await startTestService({ avatarsDir, extra: { corsOrigins: [PAGE] } });
});
afterAll(async () => {
  await open?.close();
  await restricted?.close();
});

const preflight = (url: string, origin: string, headers = 'x-session-key', method = 'GET') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': headers,
    },
  });

describe('CORS on the browser-facing console routes', () => {
  it('by default lets any page read the avatar list, a manifest and an asset with its token or app id', async () => {
    const origin = 'https://anyone.example';
    const list = await fetch(`${open.url}/v1/console/avatars?appId=${APP_ID}`, { headers: { origin } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
    const { avatars } = (await list.json()) as { avatars: { id: string; assets: { url: string }[] }[] };
    const token = await mintToken(open, API_KEY);
    const manifest = await fetch(`${open.url}/v1/console/avatars/${AVATAR_ID}`, {
      headers: { origin, 'x-session-key': token },
    });
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
    const assetUrl = avatars.find((a) => a.id === AVATAR_ID)!.assets[0]!.url;
    const asset = await fetch(assetUrl, { headers: { origin, 'x-session-key': token } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('access-control-allow-origin')).toBe('*');
    expect(asset.headers.get('access-control-expose-headers')).toMatch(/ETag/);
    const etag = asset.headers.get('etag')!;
    await asset.arrayBuffer();
    const cached = await fetch(assetUrl, { headers: { origin, 'x-app-id': APP_ID, 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('access-control-allow-origin')).toBe('*');
    // The page can read why it was refused, too.
    const refused = await fetch(`${open.url}/v1/console/avatars?appId=nobody`, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // Servers send no Origin and get no CORS headers.
    const server = await fetch(`${open.url}/v1/console/avatars?appId=${APP_ID}`);
    expect(server.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers preflights for GET with X-App-ID / X-Session-Key / If-None-Match, and refuses anything else', async () => {
    for (const path of [
      '/v1/console/avatars',
      `/v1/console/avatars/${AVATAR_ID}`,
      `/v1/console/avatars/${AVATAR_ID}/assets/${'0'.repeat(64)}/model.glb`,
    ]) {
      const ok = await preflight(`${open.url}${path}`, PAGE, 'X-Session-Key, x-app-id, if-none-match');
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
      expect(ok.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      expect(ok.headers.get('access-control-allow-headers')).toBe('X-App-ID, X-Session-Key, If-None-Match');
      expect(Number(ok.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
    const apiKey = await preflight(`${open.url}/v1/console/avatars`, PAGE, 'x-api-key');
    expect(apiKey.status).toBe(403);
    expect(apiKey.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await apiKey.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(
      /X-Api-Key must never be sent from a browser/,
    );
    const put = await preflight(`${open.url}/v1/console/avatars`, PAGE, 'x-app-id', 'DELETE');
    expect(put.status).toBe(403);
    expect(put.headers.get('access-control-allow-origin')).toBeNull();
    const other = await preflight(`${open.url}/v1/console/avatars`, PAGE, 'x-custom');
    expect(other.status).toBe(403);
    const notPreflight = await fetch(`${open.url}/v1/console/avatars`, { method: 'OPTIONS' });
    expect(notPreflight.status).toBe(403);
  });

  it('with configured origins, echoes only those (Vary: Origin) and refuses other pages', async () => {
    const ok = await fetch(`${restricted.url}/v1/console/avatars?appId=${APP_ID}`, {
      headers: { origin: PAGE },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const stranger = await fetch(`${restricted.url}/v1/console/avatars?appId=${APP_ID}`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(stranger.status).toBe(200); // served (it is not a browser's business), but unreadable by that page
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(`${restricted.url}/v1/console/avatars`, PAGE)).status).toBe(204);
    const refused = await preflight(`${restricted.url}/v1/console/avatars`, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refused.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(
      /--cors-origin/,
    );
  });

  it('never makes session-token minting (API key) or operations endpoints browser-callable', async () => {
    for (const path of ['/v1/console/session-tokens', '/v1/auth/session-token']) {
      const pre = await preflight(`${open.url}${path}`, PAGE, 'content-type, x-api-key', 'POST');
      expect(pre.status).toBe(403);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await pre.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(
        /not callable from a browser/,
      );
    }
    const minted = await fetch(`${open.url}/v1/console/session-tokens`, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
    });
    expect(minted.status).toBe(200);
    expect(minted.headers.get('access-control-allow-origin')).toBeNull();
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/console/openapi.json']) {
      const response = await fetch(`${open.url}${path}`, { headers: { origin: PAGE } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      await response.arrayBuffer();
    }
  });
});

describe('parseCorsOrigins (--cors-origin, AVATAR_DRIVE_CORS_ORIGIN)', () => {
  it('takes *, none, or a list of origins, and names an entry that is not an origin', () => {
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins('none')).toEqual([]);
    expect(parseCorsOrigins('https://a.example, http://localhost:5173/')).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(() => parseCorsOrigins('a.example')).toThrow(/"a.example" is not an origin/);
    expect(() => parseCorsOrigins('https://a.example/app')).toThrow(/is not an origin/);
    expect(() => parseCorsOrigins('ftp://a.example')).toThrow(/is not an origin/);
  });
});
