// @vitest-environment node
/**
 * `<AvatarView>` rendered for real through react-native-web in headless Chromium, against the
 * real driving service: expo-gl's web GLView gives three.js its WebGL 2 context,
 * react-native-audio-api's web build plays the voice through the browser's Web Audio, and the
 * package's own AvatarManager caches in the FileAssetStore (over the harness's stand-in for
 * expo-file-system, which has no web implementation). A WAV spoken by espeak-ng goes through
 * `controller.send`; the mouth moves (morph influence read back and pixels), audio is heard
 * (react-native-audio-api's AnalyserNode), and the callbacks arrive in the spec's order.
 *
 * No iOS or Android device runs here: the native paths of expo-gl, react-native-audio-api and
 * expo-file-system are not exercised by this test.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession, createSessionToken } from '../../../server-sdk/src/index.js';
import {
  createFixtures,
  regionsFor,
  type ServiceFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
} from '../../../server-sdk/test/support/service-process.js';
import { pageBundle } from './bundle.js';
import { makeFaceGlb } from './face-glb.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const AVATAR = 'rn-face';
const RATE = 16000;
const CHUNK = RATE / 10; // 100 ms

let fixtures: ServiceFixtures;
let service: ServiceProcess;
let server: Server;
let origin: string;
let chrome: ChromiumSession;
let speechB64: string;
let speechSamples: number;
let speechPcm: Int16Array;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>react-native-web test</title>
<style>html,body{margin:0;background:#20242c}#root{width:320px;height:320px;display:flex}</style></head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>`;

/** espeak-ng speaks a sentence into a WAV; read back as 16 kHz mono s16 (the configured format). */
async function speechWav(): Promise<Int16Array> {
  const dir = await mkdtemp(join(tmpdir(), 'rn-speech-'));
  try {
    const file = join(dir, 'speech.wav');
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', file, 'Hello there, how are you today?']);
    const wav = parseWav(await readFile(file));
    return resample(wavToMonoInt16(wav), wav.sampleRate, RATE);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const [js, pcm] = await Promise.all([pageBundle(), speechWav()]);
  speechSamples = pcm.length;
  speechPcm = pcm;
  speechB64 = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
  fixtures = await createFixtures();
  await mkdir(join(fixtures.avatarsDir, AVATAR));
  await writeFile(join(fixtures.avatarsDir, AVATAR, 'avatar.glb'), makeFaceGlb());
  await writeFile(
    join(fixtures.avatarsDir, AVATAR, 'manifest.json'),
    JSON.stringify({
      name: 'RN test face',
      camera: { position: [0, 0, 2.2], target: [0, -0.1, 0], fov: 40 },
    }),
  );
  service = await startServiceProcess({ region: 'us-west', fixtures });
  server = createServer((req, res) => {
    const body = req.url === '/page.js' ? js : req.url === '/' ? HTML : undefined;
    res.writeHead(body ? 200 : 404, {
      'content-type': req.url === '/page.js' ? 'text/javascript' : 'text/html',
      'cache-control': 'no-store',
    });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chrome = await launchChromium({ viewport: { width: 400, height: 400 }, profilePrefix: 'rn-web-chromium-' });
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stopAllServices();
  if (fixtures) await rm(join(fixtures.avatarsDir, '..'), { recursive: true, force: true });
});

async function openPage(mode: 'sdk' | 'host' = 'sdk'): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(origin);
  await page.waitForFunction(() => document.title === 'ready');
  await page.evaluate(
    ({ appId, consoleUrl, ingressUrl, mode }) => {
      (window as PageWindow).ad.AvatarSDK.initialize(appId, {
        region: 'us-west',
        backupRegion: null,
        regions: { 'us-west': { consoleUrl, ingressUrl } },
        drivingServiceMode: mode,
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'error',
      });
    },
    { appId: fixtures.appId, consoleUrl: service.url, ingressUrl: service.ingressUrl, mode },
  );
  return page;
}

const mintToken = () =>
  createSessionToken({
    apiKey: fixtures.apiKey,
    consoleUrl: service.url,
    expireAt: Math.floor(Date.now() / 1000) + 600,
  });

describe('@avatar-drive/react-native through react-native-web in Chromium', () => {
  it('loads into the file store, renders <AvatarView>, speaks a WAV: callbacks in order, the mouth moves, audio plays', async () => {
    const page = await openPage();
    const token = await mintToken();
    const result = await page.evaluate(
      async ({ id, token, speechB64, chunk }) => {
        const ad = (window as PageWindow).ad;
        const { AvatarManager, AvatarSDK } = ad;
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
        // Loading: downloaded into the file store with progress, then read back from it.
        await AvatarManager.clearAll();
        const progress: number[] = [];
        const avatar = await AvatarManager.load(id, (p: { progress: number }) => progress.push(p.progress));
        const writes = ad.harnessStats.writes;
        const again = await AvatarManager.load(id);
        // clear(id) deletes its files: the next load downloads again.
        await AvatarManager.clear(id);
        const deletes = ad.harnessStats.deletes;
        const afterClear = await AvatarManager.load(id);
        const cache = {
          deletes,
          afterClear: afterClear.downloadedBytes,
          downloaded: avatar.downloadedBytes,
          size: avatar.model.byteLength,
          again: again.downloadedBytes,
          writes,
          reads: ad.harnessStats.reads,
          progress,
        };

        const view = await ad.mount(avatar, {
          options: {
            antialias: false,
            environmentLighting: false,
            surfaceDetail: false,
            preserveDrawingBuffer: true,
            background: '#dfe4ea',
            idleMotion: false,
          },
        });
        const c = view.controller;
        // Red pixels of the face: the lower half stretches down when the jaw opens.
        const red = () => {
          const px: Uint8Array = ad.mouthPixels();
          let n = 0;
          for (let i = 0; i < px.length; i += 4) if (px[i]! > 120 && px[i + 1]! < 90) n += 1;
          return n;
        };
        await wait(100);
        const redAtRest = red();
        const jawAtRest = view.view.getMorphInfluence('jawOpen');

        AvatarSDK.setSessionToken(token);
        await c.start();
        const ear = ad.listen(view);
        const pcm = new Int16Array(ad.b64(speechB64).buffer);
        let sent = 0;
        for (let at = 0; at < pcm.length; at += chunk) {
          c.send(pcm.subarray(at, at + chunk), at + chunk >= pcm.length);
          sent += 1;
        }
        let maxJaw = 0;
        let maxRed = 0;
        const deadline = performance.now() + 20_000;
        while (c.conversationState !== 'idle' && performance.now() < deadline) {
          await wait(40);
          maxJaw = Math.max(maxJaw, view.view.getMorphInfluence('jawOpen') ?? 0);
          maxRed = Math.max(maxRed, red());
        }
        const peak = ear.peak();
        ear.stop();
        c.close();
        await wait(50);
        return {
          cache,
          sent,
          redAtRest,
          maxRed,
          jawAtRest,
          maxJaw,
          peak,
          finalState: c.conversationState,
          events: [...ad.events],
        };
      },
      { id: AVATAR, token, speechB64, chunk: CHUNK },
    );
    // Cache: one download into the file store, the second load read from it.
    expect(result.cache.downloaded).toBe(result.cache.size);
    expect(result.cache.writes).toBeGreaterThan(0);
    expect(result.cache.again).toBe(0);
    expect(result.cache.reads).toBeGreaterThan(0);
    expect(result.cache.progress.at(-1)).toBe(1);
    expect(result.cache.deletes).toBeGreaterThan(0);
    expect(result.cache.afterClear).toBe(result.cache.size);
    // The spec's order: first rendering; connecting, connected, idle; playing per chunk; idle; close.
    expect(result.sent).toBe(Math.ceil(speechSamples / CHUNK));
    expect(result.events).toEqual([
      'view:firstRendering',
      'connection:connecting',
      'connection:connected',
      'conversation:idle',
      ...Array(result.sent).fill('conversation:playing'),
      'conversation:idle',
      'connection:disconnected',
    ]);
    expect(result.finalState).toBe('idle');
    // The mouth moved: on the morph target three.js draws, and in the pixels.
    expect(result.jawAtRest).toBe(0);
    expect(result.maxJaw).toBeGreaterThan(0.1);
    expect(result.redAtRest).toBeGreaterThan(0);
    expect(result.maxRed).toBeGreaterThan(result.redAtRest * 1.05);
    // The voice was heard on the output.
    expect(result.peak).toBeGreaterThan(0.02);
    await page.close();
  });

  it('reports a failed connection with its code and message, and releases the view on unmount (iOS/web) or on dispose() (Android)', async () => {
    const page = await openPage();
    const token = await mintToken();
    const result = await page.evaluate(
      async ({ id, token }) => {
        const ad = (window as PageWindow).ad;
        const { AvatarManager, AvatarSDK } = ad;
        const avatar = await AvatarManager.load(id);
        // A token used once is refused the second time: `failed` carries the failure.
        AvatarSDK.setSessionToken(token);
        const first = await ad.mount(avatar, {
          options: { maxConnectAttempts: 1, environmentLighting: false },
        });
        await first.controller.start();
        first.controller.close();
        ad.events.length = 0;
        let failure: { code?: string; message?: string } = {};
        first.controller.onConnectionState = (state: string, f?: { code: string; message: string }) => {
          ad.events.push(`connection:${state}`);
          if (f) failure = { code: f.code, message: f.message };
        };
        const error = await first.controller.start().catch((e: { code: string }) => e);
        const failedState = first.controller.connectionState;
        const stateFailure = first.controller.connectionFailure?.code;
        // Default on the web (as on iOS): unmounting releases the view.
        await ad.unmount();
        const releasedOnUnmount = first.view.disposed;
        // Android's default: an unmounted view lives until dispose().
        const second = await ad.mount(avatar, {
          disposeOnUnmount: false,
          options: { environmentLighting: false },
        });
        await ad.unmount();
        const keptAfterUnmount = !second.view.disposed;
        second.dispose();
        let usableAfterDispose = true;
        try {
          second.controller.interrupt();
        } catch {
          usableAfterDispose = false;
        }
        return {
          code: error.code,
          failedState,
          stateFailure,
          failure,
          events: ad.events.slice(0, 2),
          releasedOnUnmount,
          keptAfterUnmount,
          disposed: second.view.disposed,
          usableAfterDispose,
        };
      },
      { id: AVATAR, token },
    );
    expect(result.events).toEqual(['connection:connecting', 'connection:failed']);
    expect(result.failedState).toBe('failed');
    expect(result.failure.code).toBe(result.code);
    expect(result.stateFailure).toBe(result.code);
    expect(result.failure.message).toMatch(/\w/);
    expect(['connectionFailed', 'sessionTokenInvalid']).toContain(result.code);
    expect(result.releasedOnUnmount).toBe(true);
    expect(result.keptAfterUnmount).toBe(true);
    expect(result.disposed).toBe(true);
    expect(result.usableAfterDispose).toBe(false);
    await page.close();
  });

  it('Host mode: the same yield API as the web plays relayed audio and animation from the real server SDK', async () => {
    // The developer's server: a Host-mode session whose relay messages are collected in order.
    const relayed: Array<{ kind: 'audio' | 'frames'; b64: string; id: string }> = [];
    let lastFrames: () => void = () => undefined;
    const complete = new Promise<void>((resolve) => {
      lastFrames = resolve;
    });
    const session = new AvatarSession({
      avatarId: AVATAR,
      appId: fixtures.appId,
      apiKey: fixtures.apiKey,
      sampleRate: RATE,
      regions: regionsFor(service, service),
      region: 'us-west',
      backupRegion: null,
      onAudio: (msg, info) =>
        relayed.push({ kind: 'audio', b64: Buffer.from(msg).toString('base64'), id: info.conversationId }),
      onFrames: (msg, last, info) => {
        relayed.push({ kind: 'frames', b64: Buffer.from(msg).toString('base64'), id: info.conversationId });
        if (last) lastFrames();
      },
    });
    await session.start();
    try {
      const pcm = speechPcm.subarray(0, RATE * 2);
      for (let at = 0; at < pcm.length; at += CHUNK)
        session.sendAudio(pcm.subarray(at, at + CHUNK), at + CHUNK >= pcm.length);
      await complete;
    } finally {
      await session.close();
    }
    const page = await openPage('host');
    const result = await page.evaluate(
      async ({ id, relayed }) => {
        const ad = (window as PageWindow).ad;
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const avatar = await ad.AvatarManager.load(id);
        const view = await ad.mount(avatar, { options: { environmentLighting: false, idleMotion: false } });
        const c = view.controller;
        const ids = new Set<string>();
        let mismatched = 0;
        let ear: { peak(): number; stop(): void } | undefined;
        for (const m of relayed) {
          const bytes = ad.b64(m.b64);
          if (m.kind === 'audio') {
            ids.add(c.yieldAudioData(bytes));
            ear ??= ad.listen(view);
          } else {
            // Another conversation's id is dropped silently; then the real one.
            c.yieldFramesData([bytes], 'not-this-conversation');
            c.yieldFramesData([bytes], m.id);
          }
          if (c.getCurrentConversationId() !== m.id) mismatched += 1;
        }
        let maxJaw = 0;
        const deadline = performance.now() + 15_000;
        while (c.conversationState !== 'idle' && performance.now() < deadline) {
          await wait(40);
          maxJaw = Math.max(maxJaw, view.view.getMorphInfluence('jawOpen') ?? 0);
        }
        const peak = ear?.peak() ?? 0;
        ear?.stop();
        return {
          ids: [...ids],
          mismatched,
          maxJaw,
          peak,
          state: c.conversationState,
          events: [...ad.events],
        };
      },
      { id: AVATAR, relayed },
    );
    expect(result.ids).toEqual([relayed[0]!.id]);
    expect(result.mismatched).toBe(0);
    expect(result.state).toBe('idle');
    expect(result.maxJaw).toBeGreaterThan(0.1);
    expect(result.peak).toBeGreaterThan(0.02);
    // Host mode: no connection events; playing per audio message, then idle.
    expect(result.events[0]).toBe('view:firstRendering');
    expect(result.events.at(-1)).toBe('conversation:idle');
    expect(new Set(result.events.slice(1, -1))).toEqual(new Set(['conversation:playing']));
    await page.close();
  });
});
