// @vitest-environment node
/**
 * drivingServiceMode 'local' in real Chromium, through the built standalone module
 * (dist/browser/avatar-drive.js, its lazy engine chunk and the inline Worker), against the real
 * service for reference:
 * - the frames the controller gets from the on-device engine equal, value for value, the frames
 *   it gets from the service for the same audio and the same session history (two utterances,
 *   an interrupted one, another), also with the worker loaded from a file (`workerUrl`);
 * - a WAV spoken locally, streamed in real time, moves the mouth in sync with the audio heard,
 *   the states and callbacks fire, and no network request is made once the page, the avatar
 *   and the engine have loaded;
 * - a worker that cannot load fails start() with a typed error and the `failed` state.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARKIT_INDEX, parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchChromium, startPageServer, writeTestAvatar } from './harness.js';
import { mintSessionToken, type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const here = dirname(fileURLToPath(import.meta.url));
const DIST = join(here, '../../dist');
const RATE = 16000;
const AVATAR = 'test-head';

let service: RunningService;
let chrome: BrowserSession;
let server: Server;
let origin: string;
let workDir: string;
let credentials: { appId: string; apiKey: string };
let pcm: Int16Array;

/** The page: local-page.ts's helpers; the SDK is imported from /browser/avatar-drive.js. */
async function startServer(consoleUrl: string): Promise<void> {
  const helpers = (
    await build({
      entryPoints: [join(here, 'local-page.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    })
  ).outputFiles[0]!.text;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>local mode</title></head>' +
    '<body style="margin:0"><div id="a" style="width:240px;height:240px"></div>' +
    // loadSdk: the SDK module as users load it (out of the evaluate()d functions, which vitest rewrites).
    '<script>window.loadSdk = () => import("/browser/avatar-drive.js");</script>' +
    '<script type="module" src="/local-page.js"></script></body></html>';
  server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    if (url === '/') return send(res, 200, 'text/html', html);
    if (url === '/local-page.js') return send(res, 200, 'text/javascript', helpers);
    if (url === '/engine-worker.js') return sendFile(res, join(DIST, 'engine-worker.js'));
    if (url.startsWith('/browser/')) return sendFile(res, join(DIST, normalize(url).replace(/^\/+/, '')));
    if (url.startsWith('/v1/')) return forward(req, res, consoleUrl);
    send(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function sendFile(res: ServerResponse, file: string): void {
  if (file.startsWith(DIST) && existsSync(file)) send(res, 200, 'text/javascript', readFileSync(file));
  else send(res, 404, 'text/plain', 'not found');
}

/** Console reads go to the service, as through a reverse proxy on the page's origin. */
function forward(req: IncomingMessage, res: ServerResponse, target: string): void {
  const upstream = request(
    `${target}${req.url}`,
    {
      method: req.method,
      headers: { ...req.headers, 'x-forwarded-host': req.headers.host ?? '', 'x-forwarded-proto': 'http' },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => send(res, 502, 'text/plain', 'upstream unavailable'));
  req.pipe(upstream);
}

async function openPage(): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(origin);
  await page.waitForFunction(() => document.title === 'ready');
  return page;
}

function base64(samples: Int16Array): string {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
}

beforeAll(async () => {
  if (!serviceBuilt || !existsSync(join(DIST, 'browser/avatar-drive.js')))
    throw new Error(
      'apps/service/dist and client-web/dist are missing: run pnpm build (scripts/setup.sh does).',
    );
  workDir = await mkdtemp(join(tmpdir(), 'client-web-local-'));
  chrome = await launchChromium();
  // A small head with ARKit mouth targets (built by the other browser tests' page): cheap to
  // draw on a software GPU, so the sync measure gets many frames.
  const harness = await startPageServer();
  await writeTestAvatar(chrome, harness, join(workDir, 'avatars'), AVATAR, {
    name: 'Test head',
    camera: { position: [0, 0, 0.6], target: [0, 0, 0], fov: 30 },
  });
  await harness.close();
  // The service is the reference the local frames must equal.
  service = await startService('us-west', [
    '--dev-credentials',
    join(workDir, 'dev.json'),
    '--avatars-dir',
    join(workDir, 'avatars'),
  ]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
  await startServer(service.consoleUrl);
  const wav = execFileSync('espeak-ng', [
    '-v',
    'en-us',
    '-s',
    '165',
    '--stdout',
    'Hello there, how are you today?',
  ]);
  pcm = wavToSendablePcm(parseWav(new Uint8Array(wav)), RATE).samples;
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("drivingServiceMode 'local' in Chromium", () => {
  it('gives the controller the same frames, bit for bit, as the service does for the same audio', async () => {
    const page = await openPage();
    const token = await mintSessionToken(service.consoleUrl, credentials.apiKey);
    const result = await page.evaluate(
      async ({ pcmB64, appId, origin, ingressUrl, token }) => {
        const sdk = await (window as PageWindow).loadSdk();
        const { lt } = window as PageWindow;
        const pcm: Int16Array = lt.b64ToInt16(pcmB64);
        // The same session history in each mode: two utterances (adaptation carries over), one
        // interrupted half-way (the driver is reset), one more.
        const script = async (controller: PageWindow, log: PageWindow) => {
          const speak = (samples: Int16Array, end: boolean): string => {
            let id = '';
            for (let i = 0; i < samples.length; i += 1600)
              id = controller.send(samples.subarray(i, i + 1600));
            if (end) id = controller.send(new Int16Array(0), true);
            return id;
          };
          const ids: string[] = [];
          for (let n = 0; n < 2; n++) {
            ids.push(speak(pcm, true));
            await log.ended(ids.at(-1));
          }
          const cut = speak(pcm.subarray(0, pcm.length >> 1), false);
          await new Promise((r) => setTimeout(r, 300));
          controller.interrupt();
          ids.push(speak(pcm, true));
          await log.ended(ids.at(-1));
          return { utterances: ids.map((id) => log.get(id)), cut: log.get(cut) };
        };
        const container = document.getElementById('a');
        const viewOptions = { antialias: false, environmentLighting: false };
        sdk.AvatarSDK.initialize(appId, {
          region: 'us-west',
          backupRegion: null,
          regions: { 'us-west': { consoleUrl: origin, ingressUrl } },
          drivingServiceMode: 'sdk',
          logLevel: 'error',
        });
        const avatar = await sdk.AvatarManager.load('test-head');
        const serviceLog = lt.frameLog();
        let view = new sdk.AvatarView(avatar, container, {
          ...viewOptions,
          webSocket: lt.tapWebSocket(serviceLog),
        });
        sdk.AvatarSDK.setSessionToken(token);
        await view.controller.start();
        const service = await script(view.controller, serviceLog);
        view.dispose();

        sdk.AvatarSDK.reset();
        sdk.AvatarSDK.initialize(appId, { drivingServiceMode: 'local', logLevel: 'error' });
        const runLocal = async (localEngine: object) => {
          const log = lt.frameLog();
          view = new sdk.AvatarView(avatar, container, {
            ...viewOptions,
            createLocalEngine: () => lt.tapEngine(new sdk.WorkerEngine(localEngine), log),
          });
          await view.controller.start();
          const out = await script(view.controller, log);
          view.dispose();
          return out;
        };
        const inline = await runLocal({});
        const fromFile = await runLocal({ workerUrl: `${origin}/engine-worker.js` });
        return { service, inline, fromFile };
      },
      { pcmB64: base64(pcm), appId: credentials.appId, origin, ingressUrl: service.ingressUrl, token },
    );
    const frames = Math.ceil((pcm.length * 25) / RATE);
    expect(result.service.utterances.map((u: number[][]) => u.length)).toEqual([frames, frames, frames]);
    expect(result.service.cut.length).toBeGreaterThan(0);
    // Adaptation carried over: the second utterance differs from the first (so comparing it means something).
    expect(result.service.utterances[1]).not.toEqual(result.service.utterances[0]);
    for (const local of [result.inline, result.fromFile]) {
      // toEqual on numbers: float32 values read back as doubles, compared exactly.
      expect(local.utterances).toEqual(result.service.utterances);
      expect(local.cut).toEqual(result.service.cut);
    }
    await page.close();
  }, 90_000);

  it('speaks a WAV streamed in real time with the mouth in sync, and makes no network request once loaded', async () => {
    // The mouth curve the engine gives this audio (the same frames in Node, bit for bit).
    const driver = createDriver({ sampleRate: RATE });
    const jaw = [...driver.push(pcm), ...driver.end()].map((f) => f.expression[ARKIT_INDEX.jawOpen]!);
    const onsetS = pcm.findIndex((s) => Math.abs(s) / 32768 > 0.02) / RATE;
    const page = await openPage();
    const requests: string[] = [];
    let recording = false;
    page.on('request', (r) => {
      if (recording) requests.push(`page ${r.url()}`);
    });
    page.on('websocket', (ws) => {
      if (recording) requests.push(`websocket ${ws.url()}`);
    });
    chrome.context.on('request', (r) => {
      if (recording) requests.push(`context ${r.url()}`);
    });
    await page.evaluate(
      async ({ appId, origin }) => {
        const sdk = await (window as PageWindow).loadSdk();
        sdk.AvatarSDK.initialize(appId, {
          region: 'us-west',
          backupRegion: null,
          regions: { 'us-west': { consoleUrl: origin, ingressUrl: 'ws://127.0.0.1:9' } },
          drivingServiceMode: 'local',
          audioFormat: { channelCount: 1, sampleRate: 16000 },
          logLevel: 'error',
        });
        const avatar = await sdk.AvatarManager.load('test-head');
        // Speech as it comes (no idle motion, no fade-in), so the mesh shows the frames' values.
        const view = new sdk.AvatarView(avatar, document.getElementById('a'), {
          antialias: false,
          environmentLighting: false,
          idleMotion: false,
          transitionInFrames: 0,
        });
        const drawn = new Promise((resolve) => {
          view.onFirstRendering = resolve;
        });
        await view.ready;
        await drawn;
        await sdk.WorkerEngine.preload();
        (window as PageWindow).sdk = sdk;
        (window as PageWindow).view = view;
      },
      { appId: credentials.appId, origin },
    );
    recording = true;
    const result = await page.evaluate(
      async ({ pcmB64, jaw, onsetS }) => {
        const { lt, view } = window as PageWindow;
        const controller = view.controller;
        const events: string[] = [];
        controller.onConnectionState = (s: string) => events.push(`connection:${s}`);
        controller.onConversationState = (s: string) => events.push(`conversation:${s}`);
        controller.onError = (e: { code: string }) => events.push(`error:${e.code}`);
        const pcm: Int16Array = lt.b64ToInt16(pcmB64);
        await controller.initializeAudioContext();
        await controller.start();
        const seconds = pcm.length / 16000;
        const measuring = lt.measureSync(view, jaw, onsetS, (seconds + 1.2) * 1000);
        // 100 ms chunks at the pace a microphone or a streaming TTS gives them.
        const t0 = performance.now();
        for (let i = 0, k = 0; i < pcm.length; i += 1600, k++) {
          const due = t0 + k * 100;
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
          controller.send(pcm.subarray(i, i + 1600));
        }
        controller.send(new Int16Array(0), true);
        const sync = await measuring;
        for (let n = 0; controller.conversationState !== 'idle' && n < 100; n++)
          await new Promise((r) => setTimeout(r, 50));
        const session = controller.session;
        controller.close();
        await new Promise((r) => setTimeout(r, 50));
        return { events, sync, session: session ?? null, stats: controller.getSyncStats() ?? null };
      },
      { pcmB64: base64(pcm), jaw, onsetS },
    );
    recording = false;
    const offsets: number[] = result.sync.offsetsMs;
    const mean = offsets.reduce((a, b) => a + b, 0) / Math.max(1, offsets.length);
    const sorted = [...offsets].sort((a, b) => a - b);
    console.log(
      `local mode audio-to-animation offset: mean ${mean.toFixed(1)} ms, median ${sorted[sorted.length >> 1]?.toFixed(1)} ms over ${offsets.length} samples (${result.sync.ticks} animation frames); jawOpen max ${result.sync.maxJaw.toFixed(2)}`,
    );
    // The engine's Worker starts from a blob: URL of the chunk already loaded: memory, not network.
    expect(requests.filter((r) => !r.includes(` blob:${origin}/`))).toEqual([]);
    // The callbacks of SDK mode: connected, then idle (the session is ready), playing per chunk, idle.
    expect(result.events).toEqual([
      'connection:connecting',
      'connection:connected',
      'conversation:idle',
      ...result.events.slice(3, -2).map(() => 'conversation:playing'),
      'conversation:idle',
      'connection:disconnected',
    ]);
    expect(result.events.filter((e: string) => e === 'conversation:playing').length).toBeGreaterThan(0);
    expect(result.session).toBeNull(); // no service session in local mode
    expect(result.sync.onsetFound).toBe(true);
    expect(result.sync.maxJaw).toBeGreaterThan(0.2);
    expect(offsets.length).toBeGreaterThanOrEqual(10);
    // In sync: on average within one frame (40 ms) of the audio heard.
    expect(Math.abs(mean)).toBeLessThanOrEqual(40);
    await page.close();
  }, 90_000);

  it('fails start() with a typed error and the failed state when the worker cannot load', async () => {
    const page = await openPage();
    const result = await page.evaluate(async (origin) => {
      const sdk = await (window as PageWindow).loadSdk();
      sdk.AvatarSDK.initialize('app_local', { drivingServiceMode: 'local', logLevel: 'none' });
      const controller = new sdk.AvatarController(
        { avatarId: 'test-head', cutSpeech: () => {} },
        { localEngine: { workerUrl: `${origin}/no-such-worker.js` } },
      );
      const events: string[] = [];
      controller.onConnectionState = (s: string) => events.push(`connection:${s}`);
      controller.onError = (e: { code: string }) => events.push(`error:${e.code}`);
      let thrown = '';
      await controller.start().catch((e: { code: string }) => (thrown = e.code));
      let sendError = '';
      try {
        controller.send(new Int16Array(160));
      } catch (e) {
        sendError = (e as { code: string }).code;
      }
      const seen = [...events];
      controller.dispose();
      return { events: seen, thrown, sendError };
    }, origin);
    expect(result.thrown).toBe('invalidState');
    expect(result.events).toEqual(['connection:connecting', 'connection:failed', 'error:invalidState']);
    expect(result.sendError).toBe('invalidState');
    await page.close();
  }, 60_000);
});
