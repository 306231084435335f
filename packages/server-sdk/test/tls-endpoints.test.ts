/**
 * server-sdk and the token server against a service on https + wss, with a certificate from a CA
 * made at test time. Node trusts a private CA through NODE_EXTRA_CA_CERTS (read when the process
 * starts), so the clients run as their own processes, as an app would.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../../apps/service/test/support/certs.js';
import {
  AVATAR_ID,
  createFixtures,
  freePort,
  REPO_ROOT,
  type ServiceFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

const run = promisify(execFile);
const TOKEN_SERVER = join(REPO_ROOT, 'packages/token-server/dist/bin.js');
const CLIENT = join(import.meta.dirname, 'fixtures/tls-client.mjs');

let ca: TestCa;
let fixtures: ServiceFixtures;
let service: ServiceProcess;
let tokenServer: ChildProcess;
let tokenServerUrl: string;

beforeAll(async () => {
  if (!existsSync(TOKEN_SERVER)) throw new Error(`${TOKEN_SERVER} is missing: run \`pnpm build\` first.`);
  ca = await TestCa.create();
  const leaf = await ca.issue('service');
  fixtures = await createFixtures();
  service = await startServiceProcess({
    region: 'ap-northeast',
    fixtures,
    env: { AVATAR_DRIVE_TLS_CERT: leaf.certFile, AVATAR_DRIVE_TLS_KEY: leaf.keyFile },
  });
  const port = await freePort();
  tokenServerUrl = `http://127.0.0.1:${port}/session-token`;
  tokenServer = spawn(process.execPath, [TOKEN_SERVER, '--port', String(port), '--rate-limit', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: ca.certFile,
      AVATAR_DRIVE_CONSOLE_URL: service.url,
      AVATAR_DRIVE_API_KEY: fixtures.apiKey,
      AVATAR_DRIVE_APP_ID: fixtures.appId,
      LOG_LEVEL: 'warn',
    },
  });
  let out = '';
  tokenServer.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  tokenServer.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const deadline = Date.now() + 20_000;
  while (!out.includes('listening on')) {
    if (tokenServer.exitCode !== null) throw new Error(`token server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`token server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(async () => {
  tokenServer?.kill('SIGTERM');
  await stopAllServices();
});

async function client(extraCa: string | undefined): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [CLIENT], {
    cwd: join(REPO_ROOT, 'packages/server-sdk'),
    timeout: 60_000,
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: extraCa ?? '',
      CONSOLE_URL: service.url,
      INGRESS_URL: service.ingressUrl,
      APP_ID: fixtures.appId,
      API_KEY: fixtures.apiKey,
      AVATAR_ID,
      TOKEN_SERVER_URL: tokenServerUrl,
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

describe('https + wss endpoints', () => {
  it('server-sdk mints over https and streams over wss; the token server mints over https', async () => {
    expect(service.url).toMatch(/^https:\/\//);
    expect(service.ingressUrl).toMatch(/^wss:\/\//);
    const result = await client(ca.certFile);
    expect(result).toEqual({
      apiKey: { ingressUrl: service.ingressUrl, animationMessages: expect.any(Number) },
      tokenServer: { ingressUrl: service.ingressUrl, animationMessages: expect.any(Number) },
    });
  }, 90_000);

  it('without the CA, the certificate is refused (verification is on)', async () => {
    const result = await client(undefined);
    expect(result.error).toMatch(/connectionFailed|certificate|fetch failed/i);
  }, 90_000);
});
