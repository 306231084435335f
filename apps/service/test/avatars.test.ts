import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarCatalog } from '../src/avatars/avatar-catalog.js';
import type { RunningService } from '../src/service.js';
import { makeGlb } from './support/glb.js';
import { toVrm } from './support/glb-edit.js';
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
      expect.stringMatching(/^broken\.glb: The file is not a GLB/),
      expect.stringMatching(/^no-targets\.glb: Nothing in this avatar can move its mouth/),
    ]);
    expect(log.text).toMatch(/avatar skipped.*broken\.glb|broken\.glb.*avatar skipped/);
  });

  it('names a missing model file, refuses a wrong sha256 or size, and serves .vrm files', async () => {
    const own = await mkdtemp(join(tmpdir(), 'avd-own-avatars-'));
    const glb = makeGlb(['jawOpen', 'viseme_aa']);
    const sha256 = createHash('sha256').update(glb).digest('hex');
    const manifest = (model: Record<string, unknown>) => JSON.stringify({ name: 'x', model });
    await mkdir(join(own, 'lost'));
    await writeFile(join(own, 'lost', 'manifest.json'), manifest({ uri: 'head.glb', sha256 }));
    await mkdir(join(own, 'wrong-hash'));
    await writeFile(join(own, 'wrong-hash', 'avatar.glb'), glb);
    await writeFile(
      join(own, 'wrong-hash', 'manifest.json'),
      manifest({ uri: 'avatar.glb', sha256: '0'.repeat(64) }),
    );
    await mkdir(join(own, 'wrong-size'));
    await writeFile(join(own, 'wrong-size', 'avatar.glb'), glb);
    await writeFile(join(own, 'wrong-size', 'manifest.json'), manifest({ sha256, bytes: 12 }));
    await mkdir(join(own, 'escape'));
    await writeFile(join(own, 'escape', 'manifest.json'), manifest({ uri: '../wrong-hash/avatar.glb' }));
    await mkdir(join(own, 'right'));
    await writeFile(join(own, 'right', 'avatar.glb'), glb);
    await writeFile(
      join(own, 'right', 'manifest.json'),
      manifest({ uri: 'avatar.glb', sha256, bytes: glb.length }),
    );
    await writeFile(join(own, 'vroid.vrm'), toVrm(glb, 1));
    const catalog = await AvatarCatalog.load(own);
    expect(catalog.list().map((a) => [a.id, a.format])).toEqual([
      ['right', 'glb'],
      ['vroid', 'vrm'],
    ]);
    expect(catalog.problems.map((p) => `${p.file}: ${p.reason}`)).toEqual([
      expect.stringMatching(
        /^escape\/manifest\.json: model\.uri must name a \.glb or \.vrm file next to manifest\.json/,
      ),
      'lost/head.glb: the model file head.glb named by lost/manifest.json is missing; put it next to manifest.json',
      expect.stringMatching(
        /^wrong-hash\/avatar\.glb: sha256 mismatch: wrong-hash\/manifest\.json says 0{64} but the file hashes to [0-9a-f]{64}/,
      ),
      expect.stringMatching(
        /^wrong-size\/avatar\.glb: size mismatch: wrong-size\/manifest\.json says 12 bytes/,
      ),
    ]);
    // Started on it, the service logs each skipped file by name and lists them in /readyz.
    const ownLog = new LogCapture();
    const started = await startTestService({ avatarsDir: own, log: ownLog });
    try {
      expect(ownLog.text).toMatch(/"file":"lost\/head\.glb".*"msg":"avatar skipped"/);
      const ready = (await (await fetch(`${started.url}/readyz`)).json()) as Json;
      expect(ready.warnings).toContain(
        'avatar file lost/head.glb skipped: the model file head.glb named by lost/manifest.json is missing; put it next to manifest.json',
      );
    } finally {
      await started.close();
      await rm(own, { recursive: true, force: true });
    }
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

describe('configuration of avatars', () => {
  it('AVATAR_DRIVE_AVATARS_DIR lists directories (builtin = the built-ins); uploads are bounded by env', async () => {
    const { resolveConfig } = await import('../src/config.js');
    const { builtInAvatarsDir } = await import('@avatar-drive/avatars/node');
    const env = {
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'a1', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }]),
      AVATAR_DRIVE_SIGNING_KEY: 'x'.repeat(43),
      AVATAR_DRIVE_AVATARS_DIR: 'builtin, /srv/my-avatars',
      AVATAR_DRIVE_DATA_DIR: '/srv/avatar-drive-data',
      AVATAR_DRIVE_AVATAR_MAX_BYTES: '1048576',
      AVATAR_DRIVE_AVATARS_PER_APP: '3',
    };
    const resolved = await resolveConfig([], env);
    if ('help' in resolved) throw new Error('unexpected help');
    expect(resolved.options.avatarsDir).toEqual([builtInAvatarsDir(), '/srv/my-avatars']);
    expect(resolved.options.dataDir).toBe('/srv/avatar-drive-data');
    expect(resolved.options.avatarUploads).toEqual({ maxBytes: 1048576, maxPerApp: 3 });
    const byDefault = await resolveConfig(['--avatars-dir', '/srv/only-mine'], {
      ...env,
      AVATAR_DRIVE_AVATARS_DIR: '',
    });
    if ('help' in byDefault) throw new Error('unexpected help');
    expect(byDefault.options.avatarsDir).toEqual(['/srv/only-mine']);
  });
});
