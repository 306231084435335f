// @vitest-environment node
/**
 * Real Chromium against two independent regions on https + wss (certificates from a CA made at
 * test time; Chromium trusts the leaf's key through --ignore-certificate-errors-spki-list), each
 * region with its own Redis. Mid-conversation, region A's service and its Redis are killed; the
 * page reports the drop, starts again with a fresh token and carries on in region B.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../../../apps/service/test/support/certs.js';
import { request } from '../../../../apps/service/test/support/https-client.js';
import { TestRedis } from '../../../../apps/service/test/support/redis-server.js';
import {
  type BrowserSession,
  launchChromium,
  openReadyPage,
  type PageServer,
  startPageServer,
  writeTestAvatar,
} from './harness.js';
import { type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const AVATAR = 'test-head';
let server: PageServer;
let chrome: BrowserSession;
let ca: TestCa;
let redisA: TestRedis;
let redisB: TestRedis;
let regionA: RunningService;
let regionB: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  ca = await TestCa.create();
  const leaf = await ca.issue('regions');
  server = await startPageServer();
  chrome = await launchChromium([`--ignore-certificate-errors-spki-list=${leaf.spkiSha256}`]);
  workDir = await mkdtemp(join(tmpdir(), 'client-web-regions-'));
  await writeTestAvatar(chrome, server, join(workDir, 'avatars'), AVATAR, {
    name: 'Test head',
    camera: { position: [0, 0, 0.6], target: [0, 0, 0], fov: 30 },
  });
  [redisA, redisB] = await Promise.all([TestRedis.start(), TestRedis.start()]);
  const common = [
    '--dev-credentials',
    join(workDir, 'dev.json'),
    '--avatars-dir',
    join(workDir, 'avatars'),
    '--tls-cert',
    leaf.certFile,
    '--tls-key',
    leaf.keyFile,
  ];
  // The first creates the shared dev credentials (signing key, app); then the second reads them.
  regionA = await startService('ap-northeast', [...common, '--redis-url', redisA.url]);
  regionB = await startService('us-west', [...common, '--redis-url', redisB.url]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
  await regionA?.stop();
  await regionB?.stop();
  await redisA?.kill();
  await redisB?.kill();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** What the developer's server does: mint a token with the API key (over https, trusting the CA). */
async function mint(region: RunningService): Promise<string> {
  const res = await request(`${region.consoleUrl}/v1/console/session-tokens`, {
    method: 'POST',
    headers: { 'x-api-key': credentials.apiKey },
    body: { expireAt: Math.floor(Date.now() / 1000) + 600 },
    ca: ca.cert,
  });
  if (res.status !== 200) throw new Error(`minting failed: ${res.status} ${res.text}`);
  return (res.json() as { sessionToken: string }).sessionToken;
}

/** Speaks one utterance on the page's controller; resolves with what was seen. */
function speak(page: Page): Promise<{ region: string; frames: boolean; maxJaw: number; idle: boolean }> {
  return page.evaluate(async () => {
    const { pcm } = (window as PageWindow).ad;
    const { c, view } = (window as PageWindow).t;
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const audio = pcm.bursts(16000, 1.2, [0.1, 0.5, 0.9], 0.25);
    for (let at = 0; at < audio.length; at += 3200)
      c.send(audio.subarray(at, at + 3200), at + 3200 >= audio.length);
    let frames = false;
    let maxJaw = 0;
    let playing = false;
    const deadline = performance.now() + 8000;
    while (performance.now() < deadline) {
      await wait(20);
      if (c.conversationState === 'playing') playing = true;
      if (c.getSyncStats()?.framePosition !== undefined) frames = true;
      maxJaw = Math.max(maxJaw, view.getMorphInfluence('jawOpen') ?? 0);
      if (playing && c.conversationState === 'idle') break;
    }
    return { region: c.session.endpoint.region, frames, maxJaw, idle: c.conversationState === 'idle' };
  });
}

describe('client-web over wss across a region failover', () => {
  it('region A and its Redis die mid-conversation: the page carries on in region B', async () => {
    expect(regionA.ingressUrl).toMatch(/^wss:\/\//);
    const page = await openReadyPage(chrome, server);
    await page.evaluate(
      async ({ appId, a, b, id, token }) => {
        const { AvatarSDK, AvatarManager, AvatarView, record } = (window as PageWindow).ad;
        AvatarSDK.initialize(appId, {
          region: 'ap-northeast',
          backupRegion: 'us-west',
          regions: { 'ap-northeast': a, 'us-west': b },
          drivingServiceMode: 'sdk',
          audioFormat: { channelCount: 1, sampleRate: 16000 },
          logLevel: 'error',
        });
        // Manifest and asset straight from region A over https (CORS), as a page on another origin.
        const avatar = await AvatarManager.load(id);
        const view = new AvatarView(avatar, document.getElementById('a'), {
          antialias: false,
          environmentLighting: false,
        });
        await view.ready;
        const c = view.controller;
        const events: string[] = record(c);
        await c.initializeAudioContext();
        AvatarSDK.setSessionToken(token);
        await c.start();
        (window as PageWindow).t = { c, view, events };
      },
      {
        appId: credentials.appId,
        a: { consoleUrl: regionA.consoleUrl, ingressUrl: regionA.ingressUrl },
        b: { consoleUrl: regionB.consoleUrl, ingressUrl: regionB.ingressUrl },
        id: AVATAR,
        token: await mint(regionA),
      },
    );
    const before = await speak(page);
    expect(before).toMatchObject({ region: 'ap-northeast', frames: true, idle: true });
    expect(before.maxJaw).toBeGreaterThan(0);

    // A long utterance is playing when region A (service and Redis) dies.
    await page.evaluate(() => {
      const { pcm } = (window as PageWindow).ad;
      const { c } = (window as PageWindow).t;
      const long = pcm.bursts(16000, 3, [0, 1], 1);
      for (let at = 0; at < long.length; at += 3200) c.send(long.subarray(at, at + 3200), false);
    });
    await page.waitForFunction(() => (window as PageWindow).t.c.conversationState === 'playing');
    await Promise.all([regionA.kill(), redisA.kill()]);
    await page.waitForFunction(() => (window as PageWindow).t.c.connectionState === 'failed', null, {
      timeout: 20_000,
    });

    // The app does what the drop tells it: a fresh token from its server, start() again. The
    // primary is gone, so the SDK lands in the backup region.
    const region = await page.evaluate(
      async (token) => {
        const { AvatarSDK } = (window as PageWindow).ad;
        const { c } = (window as PageWindow).t;
        AvatarSDK.setSessionToken(token);
        await c.start();
        return c.session.endpoint.region;
      },
      await mint(regionB),
    );
    expect(region).toBe('us-west');
    const after = await speak(page);
    expect(after).toMatchObject({ region: 'us-west', frames: true, idle: true });
    expect(after.maxJaw).toBeGreaterThan(0);
    const events: string[] = await page.evaluate(() => (window as PageWindow).t.events);
    expect(events).toContain('connection:failed');
    expect(events.filter((e) => e === 'connection:connected')).toHaveLength(2);
    expect(events.some((e) => e.startsWith('NESTED'))).toBe(false);
    await page.evaluate(() => (window as PageWindow).t.c.close());
    await page.close();
  }, 120_000);
});
