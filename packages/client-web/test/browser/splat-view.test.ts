// @vitest-environment node
/**
 * LAM Gaussian-splat avatars in real Chromium (SwiftShader): a LAM zip made from the Juno built-in
 * (and, where ../shared is present, a real LAM export) is uploaded to the real service, loaded by
 * AvatarManager and drawn by AvatarView through Spark; the test reads back pixels — the head is
 * drawn, the mouth region changes when jawOpen rises and is back to the rest image at rest — and,
 * in Host mode, measures the audio-to-animation offset exactly as for the mesh view.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RelayEncoder, readLamArchive } from '@avatar-drive/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLamZip } from '../../../avatars/generator/lam/build-lam.js';
import { lamFixtures } from '../../../core/test/support/shared-dir.js';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';
import { burstUtterance } from './relay-fixtures.js';
import { type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const JUNO = fileURLToPath(new URL('../../../avatars/dist/juno/avatar.glb', import.meta.url));

let server: PageServer;
let chrome: BrowserSession;
let service: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };
let junoZip: Uint8Array;
let junoVertices: number;
const ids: Record<string, string> = {};

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const response = await fetch(`${service.consoleUrl}/v1/console/avatars?name=${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/zip', 'x-api-key': credentials.apiKey },
    body: Buffer.from(bytes),
  });
  const body = (await response.json()) as { avatar: { id: string; format: string } };
  if (response.status !== 201)
    throw new Error(`uploading ${name}: ${response.status} ${JSON.stringify(body)}`);
  expect(body.avatar.format).toBe('lam');
  return body.avatar.id;
}

async function openPage(): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message, error.stack?.slice(0, 1500)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('404')) console.log('console:', m.text().slice(0, 2000));
  });
  await page.goto(server.origin);
  await page.waitForFunction(() => document.title === 'ready');
  return page;
}

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  junoZip = await buildLamZip(new Uint8Array(await readFile(JUNO)));
  junoVertices = readLamArchive(junoZip).vertexCount;
  server = await startPageServer();
  chrome = await launchChromium();
  workDir = await mkdtemp(join(tmpdir(), 'client-web-splat-'));
  service = await startService('us-west', ['--dev-credentials', join(workDir, 'dev.json')]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
  server.targets.set('us-west', service.consoleUrl);
  ids.juno = await upload(junoZip, 'juno-lam');
  const fixtures = lamFixtures();
  if (fixtures) ids.p2 = await upload(new Uint8Array(await readFile(join(fixtures, 'p2-1.zip'))), 'p2-1');
}, 180_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** In the page: load `id`, draw it, then jawOpen 1 and back to rest; pixels of each, counted. */
async function renderMouth(page: Page, id: string) {
  await page.evaluate(
    ({ appId, origin }) => {
      (window as PageWindow).ad.AvatarSDK.initialize(appId, {
        region: 'us-west',
        regions: { 'us-west': { consoleUrl: `${origin}/r/us-west`, ingressUrl: 'ws://127.0.0.1:9/' } },
        drivingServiceMode: 'sdk',
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'warn',
      });
    },
    { appId: credentials.appId, origin: server.origin },
  );
  return page.evaluate(async (avatarId) => {
    const { probe } = (window as PageWindow).ad;
    const view = await probe.openView(avatarId, 8);
    const background = [0xe9, 0xed, 0xf2];
    const drawn = (pixels: Uint8Array) => {
      let n = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        const d =
          Math.abs(pixels[i]! - background[0]!) +
          Math.abs(pixels[i + 1]! - background[1]!) +
          Math.abs(pixels[i + 2]! - background[2]!);
        if (d > 60) n++;
      }
      return n;
    };
    // Spark sorts the splats in a worker: wait until the picture is on screen and holds still
    // (two captures four frames apart identical), 15 s at most.
    const settled = async (): Promise<Uint8Array> => {
      let last = probe.canvasPixels(view.canvas);
      for (const deadline = performance.now() + 15_000; performance.now() < deadline; ) {
        await probe.frames(4);
        const now = probe.canvasPixels(view.canvas);
        if (drawn(now) > 0 && probe.changedPixels(last, now, 0) === 0) return now;
        last = now;
      }
      return last;
    };
    const idle = await settled();
    const idleImage = view.canvas.toDataURL('image/png');
    view.applyFrame(probe.frameWith({ jawOpen: 1 }));
    const open = await settled();
    const openImage = view.canvas.toDataURL('image/png');
    const jaw = view.getMorphInfluence('jawOpen');
    view.applyFrame(probe.frameWith({}));
    const rest = await settled();
    const result = {
      splats: view.splatCount,
      coverage: { format: view.avatarCoverage.format, mouth: view.avatarCoverage.mouth },
      jaw,
      drawn: drawn(idle),
      total: idle.length / 4,
      opened: probe.changedPixels(idle, open, 30),
      closed: probe.changedPixels(idle, rest, 30),
      images: { idle: idleImage, open: openImage },
    };
    view.dispose();
    return result;
  }, id);
}

/** With SPLAT_SHOTS=<dir>, writes the rest and jawOpen captures there (to look at, or for docs). */
async function keepShots(name: string, images: { idle: string; open: string }): Promise<void> {
  const dir = process.env.SPLAT_SHOTS;
  if (!dir) return;
  for (const [kind, url] of Object.entries(images))
    await writeFile(join(dir, `${name}-${kind}.png`), Buffer.from(url.split(',')[1]!, 'base64'));
}

describe('a LAM splat avatar in AvatarView', () => {
  it('uploads, loads, draws its Gaussians, opens its mouth with jawOpen and closes it at rest', async () => {
    const page = await openPage();
    const { images, ...result } = await renderMouth(page, ids.juno!);
    await keepShots('juno-lam', images);
    console.log(`juno LAM (${junoVertices} splats): ${JSON.stringify(result)}`);
    expect(result.splats).toBe(junoVertices);
    expect(result.coverage).toEqual({ format: 'arkit', mouth: 'arkit' });
    expect(result.jaw).toBeCloseTo(1, 5);
    // The head covers a large part of the 240 px view (the background alone: 0).
    expect(result.drawn).toBeGreaterThan(result.total / 10);
    // Wide margins: the open mouth changes well over a hundred pixels of the 240 px view (the
    // mouth is small at this framing); at rest the image is the rest image again.
    expect(result.opened).toBeGreaterThan(40);
    expect(result.closed).toBeLessThan(result.opened / 10);
    await page.close();
  }, 240_000);

  it.skipIf(!lamFixtures())(
    'a real LAM export (p2-1.zip; skipped where ../shared/fixtures/lam is absent)',
    async () => {
      const page = await openPage();
      const { images, ...result } = await renderMouth(page, ids.p2!);
      await keepShots('p2-1', images);
      console.log(`p2-1 LAM: ${JSON.stringify(result)}`);
      expect(result.splats).toBe(20018);
      expect(result.drawn).toBeGreaterThan(result.total / 10);
      expect(result.opened).toBeGreaterThan(40);
      expect(result.closed).toBeLessThan(result.opened / 10);
      await page.close();
    },
    240_000,
  );

  it('keeps the animation within one frame of the audio it hears (Host mode, as the mesh view)', async () => {
    const page = await openPage();
    // The mesh view's sync test head (page.ts's makeTestAvatar) as a LAM zip: the same geometry and
    // targets, drawn as one splat per vertex — so the two views are measured on equal terms.
    const testHead = await page.evaluate(async () => {
      const avatar = await (window as PageWindow).ad.makeTestAvatar();
      return Array.from(new Uint8Array(avatar.model)) as number[];
    });
    const zip = await buildLamZip(Uint8Array.from(testHead as number[]));
    const splats = readLamArchive(zip).vertexCount;
    await page.evaluate(async (zipBase64) => {
      const { AvatarSDK, AvatarView, Avatar, record } = (window as PageWindow).ad;
      AvatarSDK.initialize('app-test', {
        drivingServiceMode: 'host',
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'warn',
      });
      const bytes = Uint8Array.from(atob(zipBase64), (c) => c.charCodeAt(0));
      const avatar = new Avatar(
        {
          id: 'juno-lam',
          name: 'Juno (LAM)',
          rig: 'arkit-52',
          assets: [{ kind: 'model', name: 'avatar.zip', url: 'memory:avatar.zip', size: bytes.byteLength }],
        },
        new Map([['avatar.zip', bytes.buffer]]),
        0,
      );
      const view = new AvatarView(avatar, document.getElementById('a'), {
        antialias: false,
        environmentLighting: false,
      });
      await view.ready;
      await view.controller.initializeAudioContext();
      // Past the first frames (shader compilation) before the utterance starts.
      await (window as PageWindow).ad.probe.frames(10);
      Object.assign(window, { view, events: record(view.controller) });
    }, Buffer.from(zip).toString('base64'));
    const utterance = burstUtterance(new RelayEncoder(), 'sync-splat', {
      // Longer ramps than the mesh test's 8 frames: software-rendered splat frames are slower
      // (each ramp still needs several samples); the bound on the offset is the same.
      seconds: 3.6,
      starts: [10, 40, 70],
      burstFrames: 16,
      rampFrames: 12,
    });
    const result = await page.evaluate(async ({ audio, frames }) => {
      const { measureSync, b64 } = (window as PageWindow).ad;
      const view = (window as PageWindow).view;
      const measuring = measureSync(view, 4000, 12);
      let id = '';
      for (const a of audio) id = view.controller.yieldAudioData(b64(a));
      view.controller.yieldFramesData(frames.map(b64), id);
      const measured = await measuring;
      return { ...measured, splats: view.splatCount, events: (window as PageWindow).events };
    }, utterance);
    const offsets: number[] = result.offsetsMs;
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    const perBurst = [0, 1, 2].map((b) => mean(offsets.filter((_, i) => result.burstOf[i] === b)));
    console.log(
      `splat view audio-to-animation offset: mean ${mean(offsets).toFixed(1)} ms (per burst ${perBurst.map((m) => m.toFixed(1)).join(', ')}) over ${offsets.length} samples, ${result.ticks} frames`,
    );
    expect(result.splats).toBe(splats);
    expect(result.onsets).toBe(3);
    // Every burst sampled (slow software frames give fewer samples than the mesh test's six).
    for (const m of perBurst) expect(Number.isFinite(m)).toBe(true);
    // The mesh view's bound (host-mode.test.ts): each burst within one frame (40 ms).
    for (const m of perBurst) expect(Math.abs(m)).toBeLessThanOrEqual(40);
    // The same controller events as the mesh view: playing, then idle.
    expect(result.events).toContain('conversation:playing');
    await page.close();
  }, 240_000);
});
