/**
 * The demo server's upload route against the real service: the visitor's file goes through it
 * to `POST /v1/console/avatars` with the API key added server-side, the answer (manifest and
 * coverage) comes back, and neither the config nor any answer carries the key. Bad requests are
 * refused by the route itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLamZip } from '../../../packages/avatars/generator/lam/build-lam.js';
import { portOf, startDemoServer, UPLOAD_PATH } from '../server/demo-server.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sample = (file: string) => readFile(join(repoRoot, 'packages/avatars/samples', file));

let workDir: string;
let service: ChildProcess;
let demo: Server;
let origin: string;
let apiKey: string;
let lamZip: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  // Built first: it keeps the thread busy for seconds, which must not fall between two requests
  // on one kept-alive socket (the server's idle close and the next request would cross).
  lamZip = new Uint8Array(
    await buildLamZip(
      new Uint8Array(await readFile(join(repoRoot, 'packages/avatars/dist/juno/avatar.glb'))),
    ),
  );
  workDir = await mkdtemp(join(tmpdir(), 'demo-upload-'));
  service = spawn(
    process.execPath,
    [
      join(repoRoot, 'apps/service/dist/main.js'),
      '--port',
      '0',
      '--log-level',
      'warn',
      '--trusted-proxies',
      '127.0.0.1',
      '--dev-credentials',
      join(workDir, 'dev.json'),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Validation is bounded in wall time (15 s by default); on a loaded 2-core machine the LAM
      // zip's skin.glb alone can take longer, and this test is about the route, not that bound.
      env: {
        ...process.env,
        REDIS_URL: '',
        AVATAR_DRIVE_APPS: '',
        AVATAR_DRIVE_AVATAR_VALIDATION_TIMEOUT_MS: '60000',
      },
    },
  );
  let out = '';
  service.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  service.stderr!.on('data', (chunk: Buffer) => (out += chunk));
  const consoleUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /console API\s+(https?:\/\/\S+?)\/v1\/console/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 50);
    service.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the service exited with ${code}: ${out}`));
    });
  });
  ({ apiKey } = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8')) as { apiKey: string });
  demo = await startDemoServer({
    root: workDir,
    port: 0,
    config: { appId: 'app', primaryRegion: 'r', backupRegion: 'r', ingress: {}, tokenUrl: '', relayUrl: '' },
    consoles: [consoleUrl],
    apiKey,
    maxUploadBytes: 4 * 1024 * 1024,
  });
  origin = `http://127.0.0.1:${portOf(demo)}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (demo ? demo.close(() => resolve()) : resolve()));
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const post = (body: Blob | string, type = 'model/gltf-binary', query = '') =>
  fetch(`${origin}${UPLOAD_PATH}${query}`, { method: 'POST', headers: { 'content-type': type }, body });

describe('demo upload route', () => {
  it('uploads a VRM with the key added server-side and answers its manifest and coverage', async () => {
    const response = await post(
      new Blob([await sample('mika-vrm1.vrm')]),
      'model/gltf-binary',
      '?name=My%20VRM',
    );
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(text).not.toContain(apiKey);
    const body = JSON.parse(text) as {
      avatar: { id: string; name: string; assets: { url: string }[] };
      coverage: { format: string; mouth: string };
    };
    expect(body.avatar.name).toBe('My VRM');
    expect(body.coverage).toMatchObject({ format: 'vrm1', mouth: 'vowels' });
    // Asset URLs point back to the demo's origin (the route forwards as a reverse proxy).
    expect(body.avatar.assets[0]!.url.startsWith(origin)).toBe(true);
    const config = await (await fetch(`${origin}/demo-config.json`)).text();
    expect(config).not.toContain(apiKey);
  });

  it('uploads a LAM Gaussian-splat zip as application/zip (made from a built-in, so a fresh clone has one)', async () => {
    const response = await post(new Blob([lamZip]), 'application/zip', '?name=Juno%20splats');
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(text).not.toContain(apiKey);
    const body = JSON.parse(text) as {
      avatar: { name: string; format: string; model: { bytes: number }; assets: { url: string }[] };
      coverage: { format: string; mouth: string };
    };
    expect(body.avatar).toMatchObject({
      name: 'Juno splats',
      format: 'lam',
      model: { bytes: lamZip.byteLength },
    });
    expect(body.coverage.mouth).toBe('arkit');
    expect(body.avatar.assets[0]!.url.startsWith(origin)).toBe(true);
  });

  it("passes the service's typed refusal of a broken file back", async () => {
    const glb = await sample('juno-rpm.glb');
    const response = await post(new Blob([glb.subarray(0, 4000)]));
    const body = (await response.json()) as { errors: { code: string; detail: string }[] };
    expect(response.status).toBe(422);
    expect(body.errors[0]!.detail).toMatch(/GLB|truncated|length/i);
  });

  it('refuses other methods, content types and files over its limit itself', async () => {
    expect((await fetch(`${origin}${UPLOAD_PATH}`)).status).toBe(405);
    const json = await post('{}', 'application/json');
    expect(json.status).toBe(415);
    const big = await post(new Blob([new Uint8Array(5 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(/larger/);
  });
});
