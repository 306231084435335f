import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarCatalog } from '../src/avatars/avatar-catalog.js';
import type { RunningService } from '../src/service.js';
import type { Json } from './support/harness.js';

import {
  API_KEY,
  APP_ID,
  AVATAR_ID,
  LogCapture,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
} from './support/harness.js';

let service: RunningService;
let dir: string;
const log = new LogCapture();

beforeAll(async () => {
  dir = await makeAvatarsDir();
  service = await startTestService({ avatarsDir: dir, log });
});
afterAll(async () => {
  await service?.close();
});

describe('avatars directory', () => {
  it('serves valid glTF 2.0 avatars and reports broken ones at start-up without failing', async () => {
    expect(service.avatars.list().map((a) => a.id)).toEqual(['test-avatar', 'viseme-head']);
    const problems = service.avatars.problems.map((p) => `${p.path.split('/').pop()}: ${p.reason}`);
    expect(problems).toEqual([
      expect.stringMatching(/^broken\.glb: not a GLB file/),
      expect.stringMatching(/^no-targets\.glb: no morph targets named after ARKit/),
    ]);
    expect(log.text).toMatch(/avatar skipped.*broken\.glb|broken\.glb.*avatar skipped/);
  });

  it('a missing directory is a reported problem, not a crash', async () => {
    const catalog = await AvatarCatalog.load(join(dir, 'does-not-exist'));
    expect(catalog.size).toBe(0);
    expect(catalog.problems[0]!.reason).toMatch(/cannot read the avatars directory/);
  });
});

describe('GET /v1/console/avatars', () => {
  it('needs an app id, a session token or an API key', async () => {
    const none = await fetch(`${service.url}/v1/console/avatars`);
    expect(none.status).toBe(401);
    const wrongApp = await fetch(`${service.url}/v1/console/avatars?appId=app_nope`);
    expect(wrongApp.status).toBe(401);
    const badToken = await fetch(`${service.url}/v1/console/avatars`, {
      headers: { 'x-session-key': 'nope' },
    });
    expect(badToken.status).toBe(401);
    expect(((await badToken.json()) as Json).errors[0].code).toBe('sessionTokenInvalid');
    for (const init of <{ url: string; headers: Record<string, string> }[]>[
      { url: `?appId=${APP_ID}`, headers: {} },
      { url: '', headers: { 'x-app-id': APP_ID } },
      { url: '', headers: { 'x-api-key': API_KEY } },
    ]) {
      const r = await fetch(`${service.url}/v1/console/avatars${init.url}`, { headers: init.headers });
      expect(r.status).toBe(200);
    }
  });

  it('reading with a session token does not consume it', async () => {
    const token = await mintToken(service);
    const r = await fetch(`${service.url}/v1/console/avatars?sessionKey=${encodeURIComponent(token)}`);
    expect(r.status).toBe(200);
    const client = await TestClient.open(service, token);
    client.configure();
    await client.confirmed();
    client.close();
  });

  it('lists manifests with hashed asset URLs; one avatar by id; 404 for an unknown id', async () => {
    const list = (await (
      await fetch(`${service.url}/v1/console/avatars`, { headers: { 'x-app-id': APP_ID } })
    ).json()) as Json;
    expect(list.avatars).toHaveLength(2);
    const visemes = list.avatars.find((a: Json) => a.id === 'viseme-head');
    expect(visemes).toMatchObject({
      name: 'Viseme Head',
      description: 'test',
      rig: 'arkit-52',
      morphTargets: { arkit: 52, visemes: 3 },
    });
    const one = (await (
      await fetch(`${service.url}/v1/console/avatars/${AVATAR_ID}?appId=${APP_ID}`)
    ).json()) as Json;
    const bytes = await readFile(join(dir, `${AVATAR_ID}.glb`));
    expect(one).toMatchObject({
      id: AVATAR_ID,
      name: AVATAR_ID,
      rig: 'arkit-52',
      morphTargets: { arkit: 4, visemes: 0 },
    });
    expect(one.assets[0]).toMatchObject({
      kind: 'model',
      name: 'avatar.glb',
      contentType: 'model/gltf-binary',
      size: bytes.length,
    });
    expect(one.assets[0].url).toBe(
      `${service.url}/v1/console/avatars/${AVATAR_ID}/assets/${one.assets[0].sha256}/avatar.glb`,
    );
    const missing = await fetch(`${service.url}/v1/console/avatars/nobody?appId=${APP_ID}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).errors[0].code).toBe('avatarNotFound');
  });

  it('serves assets with a strong ETag, immutable caching and 304 revalidation', async () => {
    const one = (await (
      await fetch(`${service.url}/v1/console/avatars/${AVATAR_ID}?appId=${APP_ID}`)
    ).json()) as Json;
    const asset = one.assets[0];
    const r = await fetch(`${asset.url}?appId=${APP_ID}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('model/gltf-binary');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = r.headers.get('etag');
    expect(etag).toBe(`"sha256-${asset.sha256}"`);
    expect(Buffer.from(await r.arrayBuffer()).equals(await readFile(join(dir, `${AVATAR_ID}.glb`)))).toBe(
      true,
    );
    const again = await fetch(`${asset.url}?appId=${APP_ID}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const unauthenticated = await fetch(asset.url);
    expect(unauthenticated.status).toBe(401);
    const stale = await fetch(asset.url.replace(asset.sha256, '0'.repeat(64)), {
      headers: { 'x-app-id': APP_ID },
    });
    expect(stale.status).toBe(404);
  });
});

describe('built-in avatars (@avatar-drive/avatars, built by `pnpm build`)', () => {
  it('are served from the default avatars directory with their manifest fields', async () => {
    const { builtInAvatarsDir } = await import('@avatar-drive/avatars/node');
    const catalog = await AvatarCatalog.load(builtInAvatarsDir());
    expect(catalog.problems, 'run `pnpm build` to build packages/avatars').toEqual([]);
    expect(catalog.size).toBeGreaterThanOrEqual(2);
    for (const avatar of catalog.list()) {
      expect(avatar.morphTargets.arkit).toBe(52);
      expect(avatar.extra.camera).toBeDefined();
    }
  });

  it('the manifest carries the avatars-package shape with an absolute model URI', async () => {
    const one = (await (
      await fetch(`${service.url}/v1/console/avatars/viseme-head?appId=${APP_ID}`)
    ).json()) as Json;
    expect(one.model).toEqual({
      uri: one.assets[0].url,
      format: 'glb',
      bytes: one.assets[0].size,
      sha256: one.assets[0].sha256,
    });
  });
});
