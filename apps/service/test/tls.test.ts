/**
 * TLS: the service serves https + wss with a certificate made at test time by a throwaway CA, and
 * re-reads the pair on SIGHUP: sessions opened before keep running, new connections see the new
 * certificate, a bad pair keeps the previous one serving.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import { type Leaf, TestCa } from './support/certs.js';
import {
  API_KEY,
  APP_ID,
  animations,
  makeAvatarsDir,
  STAND_IN_DRIVER_MODULE,
  sleep,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { peerCertificate, request } from './support/https-client.js';

let ca: TestCa;
let first: Leaf;
let second: Leaf;
let avatarsDir: string;

beforeAll(async () => {
  ca = await TestCa.create();
  [first, second] = await Promise.all([ca.issue('first'), ca.issue('second')]);
  avatarsDir = await makeAvatarsDir();
});

async function mint(url: string, apiKey: string): Promise<string> {
  const res = await request(`${url}/v1/console/session-tokens`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
    body: { expireAt: Math.floor(Date.now() / 1000) + 600 },
    ca: ca.cert,
  });
  expect(res.status).toBe(200);
  return (res.json() as { sessionToken: string }).sessionToken;
}

/** Sends one utterance and waits for its last animation frame. */
async function speak(client: TestClient, reqId: string): Promise<void> {
  const from = client.inbox.length;
  const pcm = tone(400);
  client.audio(reqId, pcm.subarray(0, 3200));
  client.audio(reqId, pcm.subarray(3200), true);
  await client.waitFor(
    (m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === reqId && m.data.value.end,
    10_000,
    from,
  );
}

describe('https + wss in process', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({
      avatarsDir,
      standIn: true,
      extra: { tls: { certFile: first.certFile, keyFile: first.keyFile } },
    });
  });
  afterAll(() => service?.close());

  it('serves the console and the ingress over TLS, verified against the CA', async () => {
    expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(service.ingressUrl).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/v2\/driveningress$/);
    // Without the CA, the certificate is not trusted: verification is real.
    await expect(request(`${service.url}/healthz`)).rejects.toThrow(/certificate/i);
    expect((await request(`${service.url}/healthz`, { ca: ca.cert })).status).toBe(200);
    const client = await TestClient.open(service, await mint(service.url, API_KEY), { ca: ca.cert });
    client.configure();
    await client.confirmed();
    await speak(client, 'tls-1');
    expect(animations(client, 'tls-1').length).toBeGreaterThan(0);
    client.close();
  });

  it('asset URLs name the https origin the request arrived on, whatever Host the client sent', async () => {
    const res = await request(`${service.url}/v1/console/avatars?appId=${APP_ID}`, {
      ca: ca.cert,
      headers: { host: 'attacker.example' },
    });
    expect(res.status).toBe(200);
    const { avatars } = res.json() as { avatars: Array<{ assets: Array<{ url: string }> }> };
    for (const avatar of avatars)
      expect(avatar.assets[0]!.url.startsWith(`${service.url}/v1/console/`)).toBe(true);
    expect(res.text).not.toContain('attacker.example');
  });

  it('refuses to start with a key that does not belong to the certificate', async () => {
    await expect(
      startTestService({
        avatarsDir,
        standIn: true,
        extra: { tls: { certFile: first.certFile, keyFile: second.keyFile } },
      }),
    ).rejects.toThrow(/not usable.*key belongs to the certificate/);
  });
});

describe('SIGHUP reloads the certificate pair (CLI)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('an open session survives the reload; new connections see the new certificate; a bad pair is refused', {
    timeout: 90_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'avd-tls-'));
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    await copyFile(first.certFile, certFile);
    await copyFile(first.keyFile, keyFile);
    const credentialsPath = join(dir, 'dev-credentials.json');
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../src/main.ts'),
        '--port',
        '0',
        '--dev-credentials',
        credentialsPath,
        '--avatars-dir',
        avatarsDir,
        '--engine-module',
        STAND_IN_DRIVER_MODULE,
      ],
      {
        cwd: join(import.meta.dirname, '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
        // The environment form of the flags.
        env: {
          ...process.env,
          REDIS_URL: '',
          AVATAR_DRIVE_APPS: '',
          AVATAR_DRIVE_SIGNING_KEY: '',
          AVATAR_DRIVE_TLS_CERT: certFile,
          AVATAR_DRIVE_TLS_KEY: keyFile,
        },
      },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const until = async (check: () => boolean | Promise<boolean>, what: string) => {
      const deadline = Date.now() + 30_000;
      while (!(await check())) {
        if (child!.exitCode !== null) throw new Error(`service exited: ${out}`);
        if (Date.now() > deadline) throw new Error(`${what} did not happen; output:\n${out}`);
        await sleep(100);
      }
    };
    await until(() => out.includes('Mint a session token'), 'start');
    const url = /console API\s+(https:\/\/127\.0\.0\.1:\d+)\/v1\/console/.exec(out)![1]!;
    const ingressUrl = /ingress\s+(wss:\/\/\S+)/.exec(out)![1]!;
    const port = Number(new URL(url).port);
    const { appId, apiKey } = JSON.parse(await readFile(credentialsPath, 'utf8')) as {
      appId: string;
      apiKey: string;
    };
    const serial = async () => (await peerCertificate('127.0.0.1', port, ca.cert)).serialNumber.toUpperCase();
    expect(await serial()).toBe(first.serial);

    const open = await TestClient.open({ ingressUrl }, await mint(url, apiKey), { appId, ca: ca.cert });
    open.configure();
    await open.confirmed();
    await speak(open, 'before-reload');

    // Renewal: the files change, then SIGHUP.
    await copyFile(second.certFile, certFile);
    await copyFile(second.keyFile, keyFile);
    child.kill('SIGHUP');
    await until(async () => (await serial()) === second.serial, 'serving the new certificate');
    expect(out).toContain('TLS certificate reloaded');

    // The session opened before the reload is still the same connection and still works.
    await speak(open, 'after-reload');
    expect(open.ws.readyState).toBe(open.ws.OPEN);
    // And new sessions work on the new certificate.
    const fresh = await TestClient.open({ ingressUrl }, await mint(url, apiKey), { appId, ca: ca.cert });
    fresh.configure();
    await fresh.confirmed();

    // A half-done renewal (the key does not match) is refused; the previous pair keeps serving.
    await copyFile(first.keyFile, keyFile);
    child.kill('SIGHUP');
    await until(() => out.includes('TLS reload failed'), 'the reload refusal');
    expect(await serial()).toBe(second.serial);
    await speak(open, 'after-bad-reload');
    await speak(fresh, 'fresh-after-bad-reload');
    open.close();
    fresh.close();
    // Never a secret in a log line.
    expect(
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .join('\n'),
    ).not.toContain(apiKey);
  });
});
