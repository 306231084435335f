/**
 * Behind a real TLS-terminating HAProxy: X-Forwarded-For/-Proto/-Host are honoured only from the
 * configured trusted proxy (client address in logs, public origin in asset URLs) and ignored from
 * anyone else — a direct client, or a proxy the service was not told to trust.
 *
 * Loopback addresses tell the parties apart: the test client connects from 127.0.0.3, HAProxy
 * connects to the services from 127.0.0.2.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import { TestCa } from './support/certs.js';
import { TestHaproxy } from './support/haproxy.js';
import {
  API_KEY,
  APP_ID,
  LogCapture,
  makeAvatarsDir,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { request } from './support/https-client.js';
import { freePort } from './support/redis-server.js';

const CLIENT = '127.0.0.3';
const PROXY = '127.0.0.2';
const PUBLIC_HOST = 'avatars.example.test';

let ca: TestCa;
let trusting: RunningService;
let distrusting: RunningService;
const trustingLog = new LogCapture();
const distrustingLog = new LogCapture();
let haproxy: TestHaproxy;
let trustedPort: number;
let untrustedPort: number;

beforeAll(async () => {
  ca = await TestCa.create();
  const leaf = await ca.issue('proxy', [PUBLIC_HOST, '127.0.0.1']);
  const dir = await mkdtemp(join(tmpdir(), 'avd-proxy-'));
  // HAProxy reads the certificate and key from one PEM file.
  const pem = join(dir, 'proxy.pem');
  await writeFile(pem, `${await readFile(leaf.certFile, 'utf8')}${await readFile(leaf.keyFile, 'utf8')}`);
  const avatarsDir = await makeAvatarsDir();
  [trusting, distrusting] = await Promise.all([
    startTestService({
      avatarsDir,
      standIn: true,
      log: trustingLog,
      extra: { trustedProxies: [`${PROXY}/32`] },
    }),
    // A service that trusts some other network, not this proxy.
    startTestService({
      avatarsDir,
      standIn: true,
      log: distrustingLog,
      extra: { trustedProxies: ['10.0.0.0/8'] },
    }),
  ]);
  [trustedPort, untrustedPort] = [await freePort(), await freePort()];
  const backend = (name: string, service: RunningService) => `
backend ${name}
  source ${PROXY}
  server s1 127.0.0.1:${new URL(service.url).port}
`;
  haproxy = await TestHaproxy.start(
    `
global
  maxconn 200
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
  timeout tunnel 60s
frontend trusted
  bind 127.0.0.1:${trustedPort} ssl crt ${pem}
  option forwardfor
  http-request set-header X-Forwarded-Proto https
  http-request set-header X-Forwarded-Host ${PUBLIC_HOST}:${trustedPort}
  default_backend trusting
frontend untrusted
  bind 127.0.0.1:${untrustedPort} ssl crt ${pem}
  option forwardfor
  http-request set-header X-Forwarded-Proto https
  http-request set-header X-Forwarded-Host ${PUBLIC_HOST}:${untrustedPort}
  default_backend distrusting
${backend('trusting', trusting)}
${backend('distrusting', distrusting)}
`,
    [trustedPort, untrustedPort],
  );
});
afterAll(async () => {
  await haproxy?.stop();
  await trusting?.close();
  await distrusting?.close();
});

/** The request log line the service wrote for the latest request to `path`. */
function lastRequestLog(log: LogCapture, path: string): { client: string } {
  const line = log.lines
    .map((l) => JSON.parse(l) as { msg: string; path?: string; client: string })
    .filter((l) => l.msg === 'request' && l.path === path)
    .at(-1);
  if (!line) throw new Error(`no request log for ${path}`);
  return line;
}

async function assetUrls(base: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await request(`${base}/v1/console/avatars?appId=${APP_ID}`, {
    ca: ca.cert,
    localAddress: CLIENT,
    headers,
  });
  expect(res.status).toBe(200);
  const { avatars } = res.json() as { avatars: Array<{ assets: Array<{ url: string }> }> };
  expect(avatars.length).toBeGreaterThan(0);
  return avatars.map((a) => a.assets[0]!.url);
}

const FORGED = {
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'http',
  host: 'evil-host.example',
};

describe('X-Forwarded-* from a trusted TLS-terminating proxy (HAProxy)', () => {
  it('asset URLs use the public https origin the proxy reports', async () => {
    const urls = await assetUrls(`https://127.0.0.1:${trustedPort}`);
    for (const url of urls)
      expect(url.startsWith(`https://${PUBLIC_HOST}:${trustedPort}/v1/console/avatars/`)).toBe(true);
    // The asset itself is reachable through the proxy at that path.
    const path = new URL(urls[0]!).pathname;
    const asset = await request(`https://127.0.0.1:${trustedPort}${path}?appId=${APP_ID}`, {
      ca: ca.cert,
      localAddress: CLIENT,
    });
    expect(asset.status).toBe(200);
  });

  it('logs the real client address, not one the client forged', async () => {
    const urls = await assetUrls(`https://127.0.0.1:${trustedPort}`, FORGED);
    // HAProxy overwrites -Proto and -Host and appends the client's address to -For.
    for (const url of urls) expect(url.startsWith(`https://${PUBLIC_HOST}:${trustedPort}/`)).toBe(true);
    expect(lastRequestLog(trustingLog, '/v1/console/avatars').client).toBe(CLIENT);
  });

  it('a wss session through the proxy is logged under the client address', async () => {
    const mint = await request(`https://127.0.0.1:${trustedPort}/v1/console/session-tokens`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
      body: { expireAt: Math.floor(Date.now() / 1000) + 600 },
      ca: ca.cert,
      localAddress: CLIENT,
    });
    expect(mint.status).toBe(200);
    const token = (mint.json() as { sessionToken: string }).sessionToken;
    const client = await TestClient.open(
      { ingressUrl: `wss://127.0.0.1:${trustedPort}/v2/driveningress` },
      token,
      {
        ca: ca.cert,
        localAddress: CLIENT,
        headers: { 'x-forwarded-for': '203.0.113.9' },
      },
    );
    client.configure();
    await client.confirmed();
    client.audio('via-proxy', tone(200), true);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 10_000);
    client.close();
    const opened = trustingLog.lines
      .map((l) => JSON.parse(l) as { msg: string; client?: string })
      .filter((l) => l.msg === 'session opened')
      .at(-1);
    expect(opened?.client).toBe(CLIENT);
  });
});

describe('X-Forwarded-* from anyone else are ignored', () => {
  it('a direct client cannot choose the asset origin or its logged address', async () => {
    const urls = await assetUrls(trusting.url, FORGED);
    for (const url of urls) expect(url.startsWith(`${trusting.url}/v1/console/avatars/`)).toBe(true);
    expect(urls.join()).not.toMatch(/evil/);
    expect(lastRequestLog(trustingLog, '/v1/console/avatars').client).toBe(CLIENT);
  });

  it('a proxy the service does not trust is treated as the client', async () => {
    const urls = await assetUrls(`https://127.0.0.1:${untrustedPort}`, FORGED);
    // The local address the proxy connected to, in plain http: neither the proxy's claims nor
    // the client's.
    for (const url of urls) expect(url.startsWith(`${distrusting.url}/v1/console/avatars/`)).toBe(true);
    expect(urls.join()).not.toMatch(/evil|example\.test/);
    expect(lastRequestLog(distrustingLog, '/v1/console/avatars').client).toBe(PROXY);
  });
});
