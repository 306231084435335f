/**
 * An app's own avatars against the real service process over HTTP: upload (.glb, VRM 0.x and 1.0)
 * with the coverage report, list, assets with strong ETags, per-app isolation (lists, manifests,
 * assets, sessions), delete, and every refusal of a hostile or broken file — each built from a
 * valid one — while the service keeps serving a session.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AvatarFileProblem } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/credentials/api-keys.js';
import { makeGlb } from './support/glb.js';
import { editGlb, packGlb, splitGlb, toVrm } from './support/glb-edit.js';
import {
  API_KEY,
  APP_ID,
  type Json,
  makeAvatarsDir,
  mintToken,
  OTHER_API_KEY,
  OTHER_APP_ID,
  states,
  TestClient,
  tone,
} from './support/harness.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

const MAX_BYTES = 2 * 1024 * 1024;
const TARGETS = ['jawOpen', 'mouthClose', 'mouthFunnel', 'eyeBlinkLeft', 'eyeBlinkRight', 'viseme_aa'];
const GOOD = makeGlb(TARGETS);

let service: ServiceProcess;
let avatarsDir: string;
let dataDir: string;

beforeAll(async () => {
  avatarsDir = await makeAvatarsDir();
  dataDir = await mkdtemp(join(tmpdir(), 'avd-data-'));
  service = await startServiceProcess({
    avatarsDir,
    args: ['--data-dir', dataDir, '--avatar-max-bytes', String(MAX_BYTES), '--avatars-per-app', '4'],
    env: {
      AVATAR_DRIVE_APPS: JSON.stringify([
        { appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] },
        { appId: OTHER_APP_ID, apiKeyHashes: [hashApiKey(OTHER_API_KEY)] },
      ]),
    },
  });
});
afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(
  bytes: Buffer | Uint8Array,
  options: { apiKey?: string; name?: string; contentType?: string } = {},
): Promise<{ status: number; body: Json }> {
  const query = options.name ? `?name=${encodeURIComponent(options.name)}` : '';
  const response = await fetch(`${service.url}/v1/console/avatars${query}`, {
    method: 'POST',
    headers: {
      'x-api-key': options.apiKey ?? API_KEY,
      'content-type': options.contentType ?? 'model/gltf-binary',
    },
    body: bytes,
  });
  return { status: response.status, body: await response.json() };
}

async function remove(id: string, apiKey = API_KEY): Promise<number> {
  const response = await fetch(`${service.url}/v1/console/avatars/${id}`, {
    method: 'DELETE',
    headers: { 'x-api-key': apiKey },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Expects a typed refusal: status, AvatarError code, problem kind and a message matching `text`. */
function expectRefusal(
  result: { status: number; body: Json },
  status: number,
  code: string,
  text: RegExp,
  problem?: AvatarFileProblem,
): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.errors[0].code).toBe(code);
  expect(result.body.errors[0].detail).toMatch(text);
  expect(result.body.errors[0].problem).toBe(problem);
}

describe('POST /v1/console/avatars', () => {
  it('takes a .glb and answers with its manifest, the coverage report and the validator summary', async () => {
    const { status, body } = await upload(GOOD, { name: 'My head' });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.avatar).toMatchObject({
      name: 'My head',
      owner: 'app',
      format: 'glb',
      rig: 'arkit-52',
      model: { format: 'glb', bytes: GOOD.length },
    });
    expect(body.avatar.id).toMatch(/^av_[A-Za-z0-9_-]{12}$/);
    // The full report of @avatar-drive/core's describeAvatarCoverage.
    expect(body.coverage.format).toBe('arkit+oculus-visemes');
    expect(body.coverage.mouth).toBe('arkit');
    expect(body.coverage.counts.arkit.bound).toBeGreaterThanOrEqual(5);
    expect(body.coverage.missing).toContain('cheekPuff');
    expect(body.coverage.bound.map((b: Json) => b.channel)).toContain('jawOpen');
    expect(body.avatar.coverage).toMatchObject({ format: 'arkit+oculus-visemes', mouth: 'arkit' });
    expect(body.validation).toMatchObject({
      validatorVersion: expect.any(String),
      warnings: expect.any(Number),
    });
    // Stored by content: one file named by its SHA-256.
    const sha = body.avatar.assets[0].sha256 as string;
    expect(await readdir(join(dataDir, 'avatar-files', sha.slice(0, 2)))).toEqual([sha]);
    await remove(body.avatar.id);
  });

  it('takes VRM 1.0 and VRM 0.x files, named from their metadata', async () => {
    const vrm1 = await upload(toVrm(GOOD, 1, 'Vroid One'));
    expect(vrm1.status, JSON.stringify(vrm1.body)).toBe(201);
    expect(vrm1.body.avatar).toMatchObject({ name: 'Vroid One', format: 'vrm', vrmVersion: 1 });
    expect(vrm1.body.avatar.assets[0].name).toBe('avatar.vrm');
    expect(vrm1.body.coverage.format).toBe('vrm1');
    const vrm0 = await upload(toVrm(GOOD, 0, 'Vroid Zero'));
    expect(vrm0.status, JSON.stringify(vrm0.body)).toBe(201);
    expect(vrm0.body.avatar).toMatchObject({ name: 'Vroid Zero', format: 'vrm', vrmVersion: 0 });
    expect(vrm0.body.coverage.format).toBe('vrm0');
    expect(await remove(vrm1.body.avatar.id)).toBe(204);
    expect(await remove(vrm0.body.avatar.id)).toBe(204);
  });

  it('needs the API key: no key, an unknown key or an app id alone are refused', async () => {
    for (const headers of [{}, { 'x-api-key': 'adk_nope' }, { 'x-app-id': APP_ID }] as Record<
      string,
      string
    >[]) {
      const r = await fetch(`${service.url}/v1/console/avatars`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'model/gltf-binary' },
        body: GOOD,
      });
      expect(r.status).toBe(401);
      expect(((await r.json()) as Json).errors[0].code).toBe('appIDUnrecognized');
    }
  });

  it('refuses a body that is not the file (wrong content type) and says how to send it', async () => {
    expectRefusal(
      await upload(GOOD, { contentType: 'application/json' }),
      415,
      'invalidRequest',
      /Content-Type: model\/gltf-binary/,
    );
  });

  it('stops at the per-app limit and says to delete one', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await upload(GOOD);
      expect(r.status).toBe(201);
      ids.push(r.body.avatar.id);
    }
    expectRefusal(await upload(GOOD), 409, 'invalidRequest', /already has 4 uploaded avatars.*DELETE/);
    for (const id of ids) expect(await remove(id)).toBe(204);
  });
});

describe('the OpenAPI document', () => {
  it('describes upload, list and delete with their schemas', async () => {
    const doc = (await (await fetch(`${service.url}/v1/console/openapi.json`)).json()) as Json;
    const avatars = doc.paths['/v1/console/avatars'];
    expect(Object.keys(avatars.post.requestBody.content)).toEqual([
      'model/gltf-binary',
      'model/vrm',
      'application/zip',
      'application/octet-stream',
    ]);
    expect(avatars.post.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['name', 'x-api-key']),
    );
    expect(Object.keys(avatars.post.responses)).toEqual(expect.arrayContaining(['201', '4XX', '5XX']));
    const created = avatars.post.responses['201'].content['application/json'].schema;
    expect(created.required).toEqual(['avatar', 'coverage', 'validation']);
    const listed = avatars.get.responses['200'].content['application/json'].schema;
    expect(listed.properties.skipped.items.required).toEqual(['file', 'reason']);
    const one = doc.paths['/v1/console/avatars/{id}'];
    expect(Object.keys(one.delete.responses)).toEqual(expect.arrayContaining(['204', '4XX']));
    const manifest = doc.components.schemas[listed.properties.avatars.items.$ref.split('/').pop()];
    expect(manifest.properties.owner.enum).toEqual(['builtin', 'app']);
  });
});

describe("an app's own avatar", () => {
  let id: string;
  let asset: Json;

  beforeAll(async () => {
    const r = await upload(GOOD, { name: 'Mine' });
    expect(r.status).toBe(201);
    id = r.body.avatar.id;
    asset = r.body.avatar.assets[0];
  });

  it('is listed with the built-ins for its app only; the operator sees skipped directory files', async () => {
    const mine = (await (
      await fetch(`${service.url}/v1/console/avatars`, { headers: { 'x-api-key': API_KEY } })
    ).json()) as Json;
    expect(mine.avatars.map((a: Json) => [a.id, a.owner])).toEqual([
      ['test-avatar', 'builtin'],
      ['viseme-head', 'builtin'],
      [id, 'app'],
    ]);
    expect(mine.skipped.map((s: Json) => s.file)).toEqual(['broken.glb', 'no-targets.glb']);
    // Built-ins carry the coverage summary too.
    expect(mine.avatars[0].coverage).toMatchObject({ format: 'arkit', mouth: 'arkit' });
    const byAppId = (await (await fetch(`${service.url}/v1/console/avatars?appId=${APP_ID}`)).json()) as Json;
    expect(byAppId.avatars.map((a: Json) => a.id)).toContain(id);
    expect(byAppId.skipped).toBeUndefined();
    const other = (await (
      await fetch(`${service.url}/v1/console/avatars`, { headers: { 'x-api-key': OTHER_API_KEY } })
    ).json()) as Json;
    expect(other.avatars.map((a: Json) => a.id)).toEqual(['test-avatar', 'viseme-head']);
  });

  it('loads like a built-in: manifest, asset with a strong ETag, immutable caching, 304 and ranges', async () => {
    const manifest = (await (
      await fetch(`${service.url}/v1/console/avatars/${id}?appId=${APP_ID}`)
    ).json()) as Json;
    expect(manifest.assets[0]).toEqual(asset);
    const r = await fetch(`${asset.url}?appId=${APP_ID}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe(`"sha256-${asset.sha256}"`);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await r.arrayBuffer()).equals(GOOD)).toBe(true);
    const again = await fetch(`${asset.url}?appId=${APP_ID}`, {
      headers: { 'if-none-match': r.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const range = await fetch(`${asset.url}?appId=${APP_ID}`, { headers: { range: 'bytes=0-3' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).toString('latin1')).toBe('glTF');
  });

  it('another app sees none of it: manifest, asset and session are refused as unknown', async () => {
    const manifest = await fetch(`${service.url}/v1/console/avatars/${id}?appId=${OTHER_APP_ID}`);
    expect(manifest.status).toBe(404);
    expect(((await manifest.json()) as Json).errors[0].code).toBe('avatarNotFound');
    const file = await fetch(`${asset.url}?appId=${OTHER_APP_ID}`);
    expect(file.status).toBe(404);
    await file.arrayBuffer();
    const token = await mintToken(service, OTHER_API_KEY);
    const refused = await TestClient.open(service, token, { appId: OTHER_APP_ID, avatarId: id }).then(
      () => undefined,
      (error: Json) => error,
    );
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0].code).toBe('avatarNotFound');
    expect(await remove(id, OTHER_API_KEY)).toBe(404);
  });

  it('its app opens a session with it and drives it', async () => {
    const client = await TestClient.open(service, await mintToken(service), { avatarId: id });
    client.configure();
    await client.confirmed();
    client.audio('r1', tone(400), true);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation');
    client.close();
  });

  it('built-ins cannot be deleted; deleting removes it from list, manifest, asset and sessions', async () => {
    expect(await remove('test-avatar')).toBe(403);
    expect(await remove(id)).toBe(204);
    expect(await remove(id)).toBe(404);
    const manifest = await fetch(`${service.url}/v1/console/avatars/${id}?appId=${APP_ID}`);
    expect(manifest.status).toBe(404);
    const file = await fetch(`${asset.url}?appId=${APP_ID}`);
    expect(file.status).toBe(404);
    await file.arrayBuffer();
    // No other avatar used the file: it is gone from the store too.
    expect(await readdir(join(dataDir, 'avatar-files', asset.sha256.slice(0, 2)))).toEqual([]);
    const refused = await TestClient.open(service, await mintToken(service), { avatarId: id }).then(
      () => undefined,
      (error: Json) => error,
    );
    expect(refused.status).toBe(404);
  });
});

describe('hostile and broken files are refused with a typed error', () => {
  const big = (n: number) => Buffer.alloc(n, 0x41);

  it('oversized: the body (Content-Length and chunked) and the sizes a file declares', async () => {
    expectRefusal(
      await upload(big(MAX_BYTES + 1)),
      413,
      'avatarTooLarge',
      /accepts avatars up to 2097152 bytes/,
      'tooLarge',
    );
    // Chunked: no Content-Length, so the limit is enforced as the bytes arrive.
    const chunks = [GOOD, big(MAX_BYTES)];
    const r = await fetch(`${service.url}/v1/console/avatars`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'model/gltf-binary' },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expectRefusal(
      { status: r.status, body: await r.json() },
      413,
      'avatarTooLarge',
      /over 2097152 bytes/,
      'tooLarge',
    );
    // GLB header length over the limit.
    const header = Buffer.from(GOOD);
    header.writeUInt32LE(0xfffffff0, 8);
    expectRefusal(
      await upload(header),
      413,
      'avatarTooLarge',
      /header declares 4294967280 bytes/,
      'tooLarge',
    );
    // A buffer declaring more than the limit.
    expectRefusal(
      await upload(
        editGlb(GOOD, (json) => {
          json.buffers[0].byteLength = 2 ** 40;
        }),
      ),
      413,
      'avatarTooLarge',
      /buffers\[0\] declares 1099511627776 bytes/,
      'tooLarge',
    );
  });

  it('truncated: the file cut short, a chunk longer than the file, a buffer longer than its chunk', async () => {
    const cut = GOOD.subarray(0, GOOD.length - 100);
    expectRefusal(
      await upload(cut),
      422,
      'avatarInvalid',
      /declares \d+ bytes but the file has \d+/,
      'truncated',
    );
    const longChunk = Buffer.from(GOOD);
    const jsonLength = longChunk.readUInt32LE(12);
    longChunk.writeUInt32LE(jsonLength + 1000, 20 + jsonLength); // the BIN chunk's length
    expectRefusal(
      await upload(longChunk),
      422,
      'avatarInvalid',
      /chunk 1 declares \d+ bytes but only \d+ follow/,
      'truncated',
    );
    expectRefusal(
      await upload(
        editGlb(GOOD, (json, bin) => {
          json.buffers[0].byteLength = bin.length + 64;
        }),
      ),
      422,
      'avatarInvalid',
      /BIN chunk has/,
      'outOfRange',
    );
    expectRefusal(
      await upload(Buffer.from('definitely not a glb file')),
      422,
      'avatarInvalid',
      /not a GLB/,
      'notGlb',
    );
  });

  it('out of range: accessors, buffer views and mesh references past their data', async () => {
    expectRefusal(
      await upload(
        editGlb(GOOD, (json) => {
          json.accessors[1].count = 1_000_000;
        }),
      ),
      422,
      'avatarInvalid',
      /accessors\[1\] reads 1000000 elements/,
      'outOfRange',
    );
    expectRefusal(
      await upload(
        editGlb(GOOD, (json) => {
          json.bufferViews[0].byteOffset = 1_000_000;
        }),
      ),
      422,
      'avatarInvalid',
      /bufferViews\[0\] covers bytes/,
      'outOfRange',
    );
    expectRefusal(
      await upload(
        editGlb(GOOD, (json) => {
          json.meshes[0].primitives[0].attributes.POSITION = 99;
        }),
      ),
      422,
      'avatarInvalid',
      /attributes\.POSITION is 99/,
      'outOfRange',
    );
    // Vertex indices past the vertices: structurally fine, caught by the Khronos validator.
    expectRefusal(
      await upload(withBadIndices(GOOD, 3)),
      422,
      'avatarInvalid',
      /glTF validator found \d+ error\(s\): ACCESSOR_INDEX_OOB/,
      'validationFailed',
    );
  });

  it('external, data: and path-traversal URIs', async () => {
    for (const [uri, text] of [
      ['data:application/octet-stream;base64,AAAA', /inline data \(a data: URI\)/],
      ['https://example.com/avatar.bin', /an external URL \(https:\)/],
      ['../../../etc/passwd', /a path outside the file/],
    ] as const) {
      const r = await upload(
        editGlb(GOOD, (json) => {
          json.buffers[0].uri = uri;
        }),
      );
      expectRefusal(r, 422, 'avatarInvalid', text, 'externalUri');
      expect(r.body.errors[0].detail).toMatch(/self-contained/);
    }
    const image = await upload(
      editGlb(GOOD, (json) => {
        json.images = [{ uri: 'face.png' }];
      }),
    );
    expectRefusal(
      image,
      422,
      'avatarInvalid',
      /images\[0\] points to an external file "face.png"/,
      'externalUri',
    );
  });

  it('JSON bombs: deep nesting and huge arrays', async () => {
    const deep = editGlb(GOOD, (json) => {
      const text = JSON.stringify(json);
      return `${text.slice(0, -1)},"extras":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    });
    expectRefusal(await upload(deep), 422, 'avatarInvalid', /nests deeper than 64 levels/, 'jsonTooComplex');
    const wide = editGlb(GOOD, (json) => {
      json.extras = { values: new Array(300_000).fill(0) };
    });
    expectRefusal(await upload(wide), 422, 'avatarInvalid', /more than 100000 entries/, 'jsonTooComplex');
  });

  it('a VRM whose extension is malformed', async () => {
    const missingNode = editGlb(toVrm(GOOD, 1), (json) => {
      json.extensions.VRMC_vrm.expressions.preset.aa.morphTargetBinds[0].node = 42;
    });
    expectRefusal(
      await upload(missingNode),
      422,
      'avatarInvalid',
      /VRM extension is malformed: expression "aa" binds to no mesh node/,
      'vrmMalformed',
    );
    const noTarget = editGlb(toVrm(GOOD, 0), (json) => {
      json.extensions.VRM.blendShapeMaster.blendShapeGroups[0].binds[0].index = 40;
    });
    expectRefusal(
      await upload(noTarget),
      422,
      'avatarInvalid',
      /"A" binds to a morph target its mesh lacks/,
      'vrmMalformed',
    );
    const notObject = editGlb(toVrm(GOOD, 1), (json) => {
      json.extensions.VRMC_vrm = 'yes';
    });
    expectRefusal(
      await upload(notObject),
      422,
      'avatarInvalid',
      /extensions\.VRMC_vrm is missing or not an object/,
      'vrmMalformed',
    );
  });

  it('validator errors are summarised; an avatar nothing can drive is refused', async () => {
    const wrongBounds = editGlb(GOOD, (json) => {
      json.accessors[0].max = [5, 5, 5];
    });
    expectRefusal(
      await upload(wrongBounds),
      422,
      'avatarInvalid',
      /ACCESSOR_MAX_MISMATCH at \/accessors\/0\/max/,
      'validationFailed',
    );
    expectRefusal(
      await upload(makeGlb([])),
      422,
      'avatarInvalid',
      /Nothing in this avatar can move its mouth/,
      'notDrivable',
    );
  });

  it('keeps serving a session while hostile uploads are processed', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure();
    await client.confirmed();
    // Heavy for the validator (480 000 out-of-range indices), sent at once, not awaited yet.
    const heavy = withBadIndices(GOOD, 480_000);
    const pending = [upload(heavy), upload(heavy), upload(heavy)];
    client.audio('during', tone(600), true);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === 'during');
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    const results = await Promise.all(pending);
    // Two validate at once; a third is told to retry; all refused with a typed error.
    for (const r of results) {
      expect([422, 429], JSON.stringify(r.body)).toContain(r.status);
      expect(['avatarInvalid', 'concurrencyLimit']).toContain(r.body.errors[0].code);
    }
    expect(results.some((r) => r.status === 422)).toBe(true);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.reqId === 'during',
      10_000,
    );
    expect(states(client, 'during').length).toBeGreaterThan(0);
    client.close();
    expect(service.child.exitCode).toBeNull();
  });
});

describe('when validation or storage cannot finish', () => {
  let slow: ServiceProcess;
  let readOnly: ServiceProcess;
  let notADir: string;

  beforeAll(async () => {
    // A data "directory" that is a file: nothing can be written under it (root ignores modes).
    notADir = join(dataDir, 'not-a-directory');
    await writeFile(notADir, 'x');
    [slow, readOnly] = await Promise.all([
      startServiceProcess({
        avatarsDir,
        args: ['--data-dir', dataDir],
        env: { AVATAR_DRIVE_AVATAR_VALIDATION_TIMEOUT_MS: '1' },
      }),
      startServiceProcess({ avatarsDir, args: ['--data-dir', notADir] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([slow?.stop(), readOnly?.stop()]);
  });

  const post = async (to: ServiceProcess) => {
    const r = await fetch(`${to.url}/v1/console/avatars`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'model/gltf-binary' },
      body: GOOD,
    });
    return { status: r.status, body: (await r.json()) as Json, retryAfter: r.headers.get('retry-after') };
  };

  it('a validation over its time bound is stopped and refused; the node keeps serving', async () => {
    const r = await post(slow);
    expectRefusal(
      r,
      422,
      'avatarInvalid',
      /Validating the file took longer than 0\.001 s/,
      'validationTimeout',
    );
    expect((await fetch(`${slow.url}/healthz`)).status).toBe(200);
    const list = (await (await fetch(`${slow.url}/v1/console/avatars?appId=${APP_ID}`)).json()) as Json;
    expect(list.avatars.map((a: Json) => a.owner)).toEqual(['builtin', 'builtin']);
  });

  it('an avatar store that cannot be written refuses with 503 and the cause, keeps nothing', async () => {
    const r = await post(readOnly);
    expectRefusal(
      r,
      503,
      'upstreamError',
      /avatar store cannot be written \(ENOTDIR\).*AVATAR_DRIVE_DATA_DIR/,
    );
    expect(r.retryAfter).toBe('5');
    expect(r.body.errors[0].detail).not.toContain(notADir);
  });
});

/** `GOOD` with a triangle index list of `count` indices all pointing past its three vertices. */
function withBadIndices(glb: Buffer, count: number): Buffer {
  const { json, bin } = splitGlb(glb);
  const indices = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) indices.writeUInt32LE(7, i * 4);
  const offset = bin.length;
  json.buffers[0].byteLength = bin.length + indices.length;
  json.bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: indices.length, target: 34963 });
  json.accessors.push({
    bufferView: json.bufferViews.length - 1,
    componentType: 5125,
    count,
    type: 'SCALAR',
  });
  json.meshes[0].primitives[0].indices = json.accessors.length - 1;
  return packGlb(json, Buffer.concat([bin, indices]));
}
