/**
 * LAM Gaussian-splat avatar zips through `POST /v1/console/avatars`, against the real service
 * process: a generated zip and (where ../shared is present) the two real LAM exports are taken and
 * served back as the zip; every hostile or broken archive — traversal names, a zip bomb, a corrupt
 * archive, a malformed PLY, a vertex-order or count mismatch, a missing file, a broken skin.glb —
 * is refused with its typed problem, and the service keeps serving.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeSplatPly,
  type SplatCloud,
  skinnedVertexCount,
  writeZip,
  type ZipInput,
} from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lamFixtures } from '../../../packages/core/test/support/shared-dir.js';
import { hashApiKey } from '../src/credentials/api-keys.js';
import { expectFileRefusal as expectRefusal, postAvatar } from './support/avatar-upload.js';
import { makeGlb } from './support/glb.js';
import { API_KEY, APP_ID, type Json, makeAvatarsDir } from './support/harness.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

const MAX_BYTES = 8 * 1024 * 1024;
const SKIN = makeGlb(['jawOpen', 'mouthClose', 'mouthFunnel', 'eyeBlinkLeft', 'eyeBlinkRight']);
const VERTICES = skinnedVertexCount(SKIN);

let service: ServiceProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'avd-lam-'));
  service = await startServiceProcess({
    avatarsDir: await makeAvatarsDir(),
    args: ['--data-dir', dataDir, '--avatar-max-bytes', String(MAX_BYTES), '--avatars-per-app', '8'],
    env: { AVATAR_DRIVE_APPS: JSON.stringify([{ appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] }]) },
  });
});
afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function cloud(count: number): SplatCloud {
  const c: SplatCloud = {
    count,
    positions: new Float32Array(count * 3),
    colors: new Float32Array(count * 3).fill(0.6),
    opacities: new Float32Array(count).fill(0.9),
    scales: new Float32Array(count * 3).fill(0.003),
    rotations: new Float32Array(count * 4),
  };
  for (let i = 0; i < count; i++) c.rotations[i * 4 + 3] = 1;
  return c;
}

/** A LAM zip around the test GLB; `change` edits the file list before zipping. */
function lamZip(change: (files: ZipInput[]) => ZipInput[] = (f) => f): Uint8Array {
  const files: ZipInput[] = [
    { name: 'arkitWithBSData/skin.glb', data: SKIN },
    { name: 'arkitWithBSData/offset.ply', data: encodeSplatPly(cloud(VERTICES)) },
    {
      name: 'arkitWithBSData/vertex_order.json',
      data: new TextEncoder().encode(JSON.stringify(Array.from({ length: VERTICES }, (_, i) => i))),
    },
    { name: 'arkitWithBSData/animation.glb', data: SKIN },
    { name: '__MACOSX/arkitWithBSData/._skin.glb', data: new Uint8Array(64) },
  ];
  return writeZip(change(files));
}
const replace = (name: string, data: Uint8Array) => (files: ZipInput[]) =>
  files.map((f) => (f.name.endsWith(`/${name}`) ? { ...f, data } : f));

function upload(bytes: Uint8Array, contentType = 'application/zip'): Promise<{ status: number; body: Json }> {
  return postAvatar(service.url, bytes, contentType);
}

describe('a LAM avatar zip', () => {
  it('is taken as format "lam" and served back as the zip', async () => {
    const zip = lamZip();
    const { status, body } = await upload(zip);
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.avatar).toMatchObject({ format: 'lam', splats: VERTICES, owner: 'app' });
    expect(body.avatar.assets[0]).toMatchObject({
      kind: 'model',
      name: 'avatar.zip',
      contentType: 'application/zip',
      size: zip.byteLength,
    });
    expect(body.coverage.bound.map((b: Json) => b.channel)).toContain('jawOpen');
    const asset = await fetch(body.avatar.assets[0].url, { headers: { 'x-api-key': API_KEY } });
    expect(asset.status).toBe(200);
    expect(Buffer.from(await asset.arrayBuffer()).equals(Buffer.from(zip))).toBe(true);
    // Sent as application/octet-stream it is recognised by its bytes.
    expect((await upload(zip, 'application/octet-stream')).body.avatar?.format).toBe('lam');
  });

  const fixtures = lamFixtures();
  it.skipIf(!fixtures)(
    'the real LAM exports upload (skipped where ../shared/fixtures/lam is absent)',
    async () => {
      for (const name of ['p2-1.zip', 'james.zip']) {
        const { status, body } = await upload(new Uint8Array(await readFile(join(fixtures!, name))));
        expect(status, `${name}: ${JSON.stringify(body)}`).toBe(201);
        expect(body.avatar).toMatchObject({ format: 'lam', splats: 20018 });
        expect(body.coverage.counts.arkit.bound).toBe(51);
      }
    },
    120_000,
  );
});

describe('hostile and broken LAM zips are refused with a typed error', () => {
  it('traversal and absolute entry names', async () => {
    for (const name of ['../../etc/cron.d/x', '/tmp/x', 'arkitWithBSData/..\\..\\x']) {
      const zip = lamZip((files) => [...files, { name, data: new Uint8Array(4) }]);
      expectRefusal(await upload(zip), 422, 'unsafeName', /absolute or climbs out/);
    }
  });

  it('a zip bomb: an entry that inflates past its declared size, and declared sizes over the limit', async () => {
    // skin.glb (the first entry) is 8 MiB of zeros that claims to be 100 bytes, in both headers.
    const bomb = lamZip(replace('skin.glb', new Uint8Array(8 * 1024 * 1024)));
    const view = new DataView(bomb.buffer);
    view.setUint32(22, 100, true);
    view.setUint32(view.getUint32(bomb.byteLength - 22 + 16, true) + 24, 100, true);
    // Both archives are made before either request: compressing 32 MiB takes seconds on a loaded
    // machine, and a pause that long between two requests lets the service's 5 s keep-alive close
    // the socket just as fetch reuses it ("other side closed", a race of the test, not a refusal).
    const big = writeZip([{ name: 'a.bin', data: new Uint8Array(MAX_BYTES * 4 + 1) }]);
    expectRefusal(await upload(bomb), 413, 'zipBomb', /inflates past/);
    expectRefusal(await upload(big), 413, 'zipBomb', /uncompressed/);
  });

  it('a corrupt archive, a malformed PLY, vertex-order and count mismatches, a missing file, a broken skin.glb', async () => {
    const good = lamZip();
    const corrupt = good.slice();
    corrupt[80] = corrupt[80]! ^ 0xff;
    expectRefusal(await upload(corrupt), 422, 'zipMalformed', /corrupt|inflate|CRC/);
    const ascii = new TextEncoder().encode('ply\nformat ascii 1.0\nelement vertex 3\nend_header\n');
    expectRefusal(
      await upload(lamZip(replace('offset.ply', ascii))),
      422,
      'plyMalformed',
      /binary_little_endian/,
    );
    const order = new TextEncoder().encode(JSON.stringify([0, 0, 1].slice(0, VERTICES)));
    expectRefusal(
      await upload(lamZip(replace('vertex_order.json', order))),
      422,
      'vertexOrderMismatch',
      /vertex_order\.json/,
    );
    const extra = encodeSplatPly(cloud(VERTICES + 5));
    expectRefusal(
      await upload(lamZip(replace('offset.ply', extra))),
      422,
      'countMismatch',
      /one Gaussian per vertex/,
    );
    const missing = lamZip((files) => files.filter((f) => !f.name.endsWith('animation.glb')));
    expectRefusal(await upload(missing), 422, 'lamIncomplete', /animation\.glb/);
    const brokenSkin = SKIN.subarray(0, SKIN.byteLength - 8);
    const result = await upload(lamZip(replace('skin.glb', brokenSkin)));
    expect(result.status, JSON.stringify(result.body)).toBe(422);
    // Still serving: a good zip right after.
    expect((await upload(good)).status).toBe(201);
  });
});
