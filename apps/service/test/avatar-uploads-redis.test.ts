/**
 * Two nodes of one region (two service processes sharing a real Redis and the data directory): an
 * avatar uploaded to one is listed, served and drivable on the other, and deleted everywhere; a
 * node killed and started again (as a pod is, with the data volume from AVATAR_DRIVE_DATA_DIR) reads
 * it back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGlb } from './support/glb.js';
import { toVrm } from './support/glb-edit.js';
import {
  API_KEY,
  APP_ID,
  type Json,
  makeAvatarsDir,
  mintToken,
  TestClient,
  tone,
} from './support/harness.js';
import { TestRedis } from './support/redis-server.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

let redis: TestRedis;
let dataDir: string;
let nodeA: ServiceProcess;
let nodeB: ServiceProcess;

beforeAll(async () => {
  redis = await TestRedis.start();
  dataDir = await mkdtemp(join(tmpdir(), 'avd-data-'));
  const avatarsDir = await makeAvatarsDir();
  const args = ['--redis-url', redis.url, '--data-dir', dataDir];
  [nodeA, nodeB] = await Promise.all([
    startServiceProcess({ avatarsDir, args }),
    startServiceProcess({ avatarsDir, args }),
  ]);
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
  await redis?.kill();
  await rm(dataDir, { recursive: true, force: true });
});

/** Uploads a VRM 1 avatar named `name` through `node`'s console API. */
async function uploadVrm(node: ServiceProcess, name: string) {
  const vrm = toVrm(makeGlb(['aa', 'ih', 'ou', 'ee', 'oh', 'blink']), 1, name);
  const up = await fetch(`${node.url}/v1/console/avatars`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'model/gltf-binary' },
    body: vrm,
  });
  const uploaded = (await up.json()) as Json;
  expect(up.status, JSON.stringify(uploaded)).toBe(201);
  return { vrm, uploaded, id: uploaded.avatar.id as string };
}

/** Opens a session on `node` with avatar `id` and waits for its first animation. */
async function drive(node: ServiceProcess, id: string) {
  const client = await TestClient.open(node, await mintToken(node), { avatarId: id });
  client.configure();
  await client.confirmed();
  client.audio('r1', tone(300), true);
  await client.waitFor((m) => m.data.case === 'serverResponseAnimation');
  client.close();
}

describe('an uploaded avatar across the nodes of a region (Redis)', () => {
  it('is uploaded on one node, listed, served and driven on the other, deleted for both', async () => {
    const { vrm, uploaded, id } = await uploadVrm(nodeA, 'Shared VRM');
    expect(uploaded.coverage.format).toBe('vrm1');

    const list = (await (await fetch(`${nodeB.url}/v1/console/avatars?appId=${APP_ID}`)).json()) as Json;
    const listed = list.avatars.find((a: Json) => a.id === id);
    expect(listed).toMatchObject({ name: 'Shared VRM', owner: 'app', format: 'vrm', vrmVersion: 1 });
    const asset = await fetch(`${listed.assets[0].url}?appId=${APP_ID}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('etag')).toBe(`"sha256-${uploaded.avatar.assets[0].sha256}"`);
    expect(Buffer.from(await asset.arrayBuffer()).equals(vrm)).toBe(true);

    await drive(nodeB, id);

    const del = await fetch(`${nodeB.url}/v1/console/avatars/${id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': API_KEY },
    });
    expect(del.status).toBe(204);
    const gone = await fetch(`${nodeA.url}/v1/console/avatars/${id}?appId=${APP_ID}`);
    expect(gone.status).toBe(404);
    const refused = await TestClient.open(nodeA, await mintToken(nodeA), { avatarId: id }).then(
      () => undefined,
      (error: Json) => error,
    );
    expect(refused.status).toBe(404);
  });

  it('survives a node killed and started again: the upload is read back from the data volume', async () => {
    const { vrm, id } = await uploadVrm(nodeA, 'Kept VRM');

    // SIGKILL: no drain, nothing flushed on the way out; the new process is configured the way the
    // Helm chart configures a pod (the data directory from the environment).
    await new Promise<void>((resolve) => {
      nodeA.child.once('exit', () => resolve());
      nodeA.child.kill('SIGKILL');
    });
    nodeA = await startServiceProcess({
      avatarsDir: await makeAvatarsDir(),
      args: ['--redis-url', redis.url],
      env: { AVATAR_DRIVE_DATA_DIR: dataDir },
    });

    const listed = (
      (await (await fetch(`${nodeA.url}/v1/console/avatars?appId=${APP_ID}`)).json()) as Json
    ).avatars.find((a: Json) => a.id === id);
    expect(listed).toMatchObject({ name: 'Kept VRM', owner: 'app', format: 'vrm' });
    const asset = await fetch(`${listed.assets[0].url}?appId=${APP_ID}`);
    expect(asset.status).toBe(200);
    expect(Buffer.from(await asset.arrayBuffer()).equals(vrm)).toBe(true);
    await drive(nodeA, id);
  });

  it('while Redis is down, avatar reads and sessions on uploads answer 503 (retry), built-ins still list', async () => {
    const token = await mintToken(nodeA);
    await redis.kill();
    const list = await fetch(`${nodeA.url}/v1/console/avatars?appId=${APP_ID}`);
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('1');
    expect(((await list.json()) as Json).errors[0].code).toBe('upstreamError');
    const refused = await TestClient.open(nodeA, token, { avatarId: 'av_uploaded_somewhere' }).then(
      () => undefined,
      (error: Json) => error,
    );
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].code).toBe('upstreamError');
    const builtIn = await fetch(`${nodeA.url}/v1/console/avatars/test-avatar?appId=${APP_ID}`);
    expect(builtIn.status).toBe(200);
  });
});
