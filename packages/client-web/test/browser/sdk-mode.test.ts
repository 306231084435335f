// @vitest-environment node
/**
 * Real Chromium against the real service, two processes as two regions: avatar loading and
 * caching with progress, SDK-mode callback order and interrupt, and region fallback (the
 * primary's shared store is unreachable, so it refuses with 4503; the backup accepts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSession,
  launchChromium,
  openReadyPage,
  type PageServer,
  startPageServer,
  writeTestAvatar,
} from './harness.js';
import { mintSessionToken, type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const AVATAR = 'test-head';
let server: PageServer;
let chrome: BrowserSession;
let primary: RunningService;
let backup: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };

const openPage = (): Promise<Page> => openReadyPage(chrome, server);

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  server = await startPageServer();
  chrome = await launchChromium();
  // The avatar the service serves: a small glTF head built by the page (three's GLTFExporter).
  workDir = await mkdtemp(join(tmpdir(), 'client-web-service-'));
  await writeTestAvatar(chrome, server, join(workDir, 'avatars'), AVATAR, {
    name: 'Test head',
    camera: { position: [0, 0, 0.6], target: [0, 0, 0], fov: 30 },
  });
  const common = ['--dev-credentials', join(workDir, 'dev.json'), '--avatars-dir', join(workDir, 'avatars')];
  // Primary region: its shared store (Redis) is unreachable, so it refuses new sessions with 4503.
  primary = await startService('ap-northeast', [...common, '--redis-url', 'redis://127.0.0.1:1']);
  backup = await startService('us-west', common);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
  // Console reads go to the healthy region; the ingress fallback is what the tests exercise.
  server.targets.set('ap-northeast', backup.consoleUrl);
  server.targets.set('us-west', backup.consoleUrl);
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
  await primary?.stop();
  await backup?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Initializes the SDK in the page with both regions, the primary first. */
async function initSdk(page: Page, mode: 'sdk' | 'host' = 'sdk'): Promise<void> {
  await page.evaluate(
    ({ appId, origin, primaryIngress, backupIngress, mode }) => {
      (window as PageWindow).ad.AvatarSDK.initialize(appId, {
        region: 'ap-northeast',
        backupRegion: 'us-west',
        regions: {
          'ap-northeast': { consoleUrl: `${origin}/r/ap-northeast`, ingressUrl: primaryIngress },
          'us-west': { consoleUrl: `${origin}/r/us-west`, ingressUrl: backupIngress },
        },
        drivingServiceMode: mode,
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'error',
      });
    },
    {
      appId: credentials.appId,
      origin: server.origin,
      primaryIngress: primary.ingressUrl,
      backupIngress: backup.ingressUrl,
      mode,
    },
  );
}

describe('client-web in Chromium against the service', () => {
  it('loads an avatar with byte progress, shares concurrent downloads and reloads it from the cache', async () => {
    const assetRequests = () => server.requests.filter((r) => r.includes('/assets/')).length;
    const before = assetRequests();
    const page = await openPage();
    await initSdk(page);
    const first = await page.evaluate(async (id) => {
      const { AvatarManager } = (window as PageWindow).ad;
      await AvatarManager.clearAll();
      const progress: number[] = [];
      const joined: number[] = [];
      const [a, b] = await Promise.all([
        AvatarManager.load(id, (p: { loadedBytes: number }) => progress.push(p.loadedBytes)),
        AvatarManager.load(id, (p: { loadedBytes: number }) => joined.push(p.loadedBytes)),
      ]);
      let notFound = '';
      await AvatarManager.load('no-such-avatar').catch((e: { code: string }) => (notFound = e.code));
      return {
        same: a === b,
        downloaded: a.downloadedBytes,
        size: a.manifest.assets[0].size,
        progress,
        joined,
        camera: a.manifest.camera,
        notFound,
      };
    }, AVATAR);
    expect(first.same).toBe(true);
    expect(assetRequests() - before).toBe(1);
    expect(first.downloaded).toBe(first.size);
    expect(first.progress.at(-1)).toBe(first.size);
    expect(first.progress).toEqual([...first.progress].sort((x, y) => x - y));
    expect(first.joined.at(-1)).toBe(first.size);
    expect(first.camera).toMatchObject({ fov: 30 });
    expect(first.notFound).toBe('avatarNotFound');

    // A reload of the page: the asset comes from Cache Storage, no download.
    await page.reload();
    await page.waitForFunction(() => document.title === 'ready');
    await initSdk(page);
    const second = await page.evaluate(async (id) => {
      const { AvatarManager, AvatarView } = (window as PageWindow).ad;
      const progress: number[] = [];
      const avatar = await AvatarManager.load(id, (p: { progress: number }) => progress.push(p.progress));
      const view = new AvatarView(avatar, document.getElementById('a'), {
        antialias: false,
        environmentLighting: false,
      });
      const rendered = await new Promise((resolve) => {
        view.onFirstRendering = () => resolve(true);
      });
      view.dispose();
      await AvatarManager.clear(id);
      const again = await AvatarManager.load(id);
      return { downloaded: avatar.downloadedBytes, progress, rendered, afterClear: again.downloadedBytes };
    }, AVATAR);
    expect(second.downloaded).toBe(0);
    expect(second.progress.at(-1)).toBe(1);
    expect(second.rendered).toBe(true);
    expect(second.afterClear).toBe(first.size);
    expect(assetRequests() - before).toBe(2);
    await page.close();
  });

  it('falls back to the backup region, reports callbacks in order, and interrupts at once', async () => {
    const page = await openPage();
    await initSdk(page);
    const token = await mintSessionToken(backup.consoleUrl, credentials.apiKey);
    const result = await page.evaluate(
      async ({ id, token }) => {
        const { AvatarSDK, AvatarManager, AvatarView, record, pcm } = (window as PageWindow).ad;
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
        const region = c.session.endpoint.region;
        // 1.2 s of tone bursts in 200 ms chunks, the last with end = true.
        const audio = pcm.bursts(16000, 1.2, [0.1, 0.5, 0.9], 0.25);
        for (let at = 0; at < audio.length; at += 3200)
          c.send(audio.subarray(at, at + 3200), at + 3200 >= audio.length);
        let sawFrames = false;
        let maxJaw = 0;
        const deadline = performance.now() + 6000;
        while (c.conversationState !== 'idle' && performance.now() < deadline) {
          await wait(20);
          if (c.getSyncStats()?.framePosition !== undefined) sawFrames = true;
          maxJaw = Math.max(maxJaw, view.getMorphInfluence('jawOpen') ?? 0);
        }
        const firstDone = events.slice();
        // A second utterance, interrupted while it plays.
        const long = pcm.bursts(16000, 3, [0, 1], 1);
        for (let at = 0; at < long.length; at += 3200)
          c.send(long.subarray(at, at + 3200), at + 3200 >= long.length);
        await wait(900);
        const playingBefore = c.conversationState;
        c.interrupt();
        const stateAfter = c.conversationState;
        const stats = c.getSyncStats();
        await wait(300);
        const jawAfter = view.getMorphInfluence('jawOpen');
        c.close();
        return { region, firstDone, events, sawFrames, maxJaw, playingBefore, stateAfter, stats, jawAfter };
      },
      { id: AVATAR, token },
    );
    expect(result.region).toBe('us-west');
    const chunks = 6;
    expect(result.firstDone).toEqual([
      'connection:connecting',
      'connection:connected',
      'conversation:idle',
      ...Array(chunks).fill('conversation:playing'),
      'conversation:idle',
    ]);
    expect(result.sawFrames).toBe(true);
    expect(result.maxJaw).toBeGreaterThan(0);
    expect(result.playingBefore).toBe('playing');
    expect(result.stateAfter).toBe('idle');
    expect(result.events.slice(-2)).toEqual(['conversation:idle', 'connection:disconnected']);
    expect(result.events.some((e: string) => e.startsWith('NESTED') || e.startsWith('error'))).toBe(false);
    await page.close();
  });

  it('reports a refused upgrade (a used token) as connectionFailed once every attempt failed', async () => {
    const page = await openPage();
    await initSdk(page);
    const token = await mintSessionToken(backup.consoleUrl, credentials.apiKey);
    const result = await page.evaluate(
      async ({ id, token }) => {
        const { AvatarSDK, AvatarManager, AvatarView, record } = (window as PageWindow).ad;
        const avatar = await AvatarManager.load(id);
        const make = () =>
          new AvatarView(avatar, document.getElementById('b'), {
            antialias: false,
            environmentLighting: false,
          });
        AvatarSDK.setSessionToken(token);
        const first = make();
        await first.controller.start();
        first.dispose();
        const second = make();
        const events: string[] = record(second.controller);
        const error = await second.controller.start().catch((e: { code: string; retryable: boolean }) => e);
        second.dispose();
        return { events, code: error.code, retryable: error.retryable };
      },
      { id: AVATAR, token },
    );
    // The upgrade is refused with HTTP 401, which a browser only sees as 1006 (retryable): the
    // attempts across both regions end in one failure.
    expect(result.code).toBe('connectionFailed');
    expect(result.events).toEqual([
      'connection:connecting',
      'connection:failed',
      'error:connectionFailed',
      'connection:disconnected', // dispose()
    ]);
    await page.close();
  });
});
