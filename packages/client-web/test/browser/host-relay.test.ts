// @vitest-environment node
/**
 * Real Chromium, Host mode end to end: the real service, server-sdk's AvatarSession and relay,
 * and client-web in the page fed by RelayClient. What a user hears and sees after an interrupt:
 * nothing more of that turn — no sound on the controller's output, no mouth movement — both
 * through examples/host-relay (its WebSocket) and from a voice agent whose TTS stream keeps
 * running after the barge-in (server-sdk drops the rest of the interrupted turn).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { AvatarSession, type RelayEvent } from '@avatar-drive/server-sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSession,
  launchChromium,
  openReadyPage,
  type PageServer,
  startExample,
  startPageServer,
  writeTestAvatar,
} from './harness.js';
import { type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const AVATAR = 'test-head';
const RATE = 16000;
let server: PageServer;
let chrome: BrowserSession;
let service: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };
let example: ChildProcess | undefined;

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  server = await startPageServer();
  chrome = await launchChromium();
  workDir = await mkdtemp(join(tmpdir(), 'client-web-relay-'));
  await writeTestAvatar(chrome, server, join(workDir, 'avatars'), AVATAR);
  service = await startService('ap-northeast', [
    '--dev-credentials',
    join(workDir, 'dev.json'),
    '--avatars-dir',
    join(workDir, 'avatars'),
  ]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
}, 90_000);

afterAll(async () => {
  example?.kill('SIGTERM');
  await chrome?.close();
  await server?.close();
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/**
 * A Host-mode page with a RelayClient on its controller. Every animation frame it records the
 * output's peak level, the mouth (jawOpen + mouthFunnel + mouthClose) and the conversation
 * state; the RelayClient records when the interrupt control arrived.
 */
async function relayPage(): Promise<Page> {
  const page = await openReadyPage(chrome, server);
  await page.evaluate(async (rate) => {
    const { AvatarSDK, AvatarView, makeTestAvatar, RelayClient } = (window as PageWindow).ad;
    AvatarSDK.initialize('app-test', {
      drivingServiceMode: 'host',
      audioFormat: { channelCount: 1, sampleRate: rate },
      logLevel: 'warn',
    });
    const view = new AvatarView(await makeTestAvatar(), document.getElementById('a'), {
      antialias: false,
      environmentLighting: false,
    });
    await view.ready;
    await view.controller.initializeAudioContext();
    const c = view.controller;
    const ctx = c.outputNode.context as AudioContext;
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 512;
    c.outputNode.connect(analyser);
    const buffer = new Float32Array(analyser.fftSize);
    const samples: { t: number; peak: number; mouth: number; state: string }[] = [];
    const marks: { interruptAt?: number; playingAt: number[] } = { playingAt: [] };
    c.onConversationState = (state: string) => {
      if (state === 'playing') marks.playingAt.push(performance.now());
    };
    const tick = () => {
      analyser.getFloatTimeDomainData(buffer);
      let peak = 0;
      for (const v of buffer) peak = Math.max(peak, Math.abs(v));
      const mouth = ['jawOpen', 'mouthFunnel', 'mouthClose'].reduce(
        (sum, name) => sum + (view.getMorphInfluence(name) ?? 0),
        0,
      );
      samples.push({ t: performance.now(), peak, mouth, state: c.conversationState });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const relay = new RelayClient(c, {
      onError: (e: { code: string; message: string }) => console.error('relay error', e.code, e.message),
      onControl: (control: { type: string }) => {
        if (control.type === 'interrupt') marks.interruptAt ??= performance.now();
      },
    });
    Object.assign(window, { view, relay, samples, marks });
  }, RATE);
  return page;
}

interface Heard {
  before: { peak: number; mouth: number };
  after: { peak: number; mouth: number; samples: number; playing: number };
}

/** Loudest sound and widest mouth before the interrupt, and after it (past a 150 ms grace). */
async function heard(page: Page): Promise<Heard> {
  return page.evaluate(() => {
    const { samples, marks } = window as PageWindow;
    const at: number = marks.interruptAt;
    const max = (list: { peak: number; mouth: number }[], key: 'peak' | 'mouth') =>
      list.reduce((m, s) => Math.max(m, s[key]), 0);
    type S = { t: number; peak: number; mouth: number };
    const before = (samples as S[]).filter((s) => s.t < at);
    const after = (samples as S[]).filter((s) => s.t > at + 150);
    return {
      before: { peak: max(before, 'peak'), mouth: max(before, 'mouth') },
      after: {
        peak: max(after, 'peak'),
        mouth: max(after, 'mouth'),
        samples: after.length,
        playing: (marks.playingAt as number[]).filter((t) => t > at).length,
      },
    };
  });
}

function expectSilentAndStill(result: Heard) {
  // The turn did play before the interrupt: sound and mouth movement were measurable.
  expect(result.before.peak).toBeGreaterThan(0.02);
  expect(result.before.mouth).toBeGreaterThan(0.05);
  // Then nothing: no sound, the mouth closed, no conversation started again.
  expect(result.after.samples).toBeGreaterThan(20);
  expect(result.after.peak).toBeLessThan(0.005);
  expect(result.after.mouth).toBeLessThan(0.02);
  expect(result.after.playing).toBe(0);
}

describe('Host mode in Chromium: after an interrupt, nothing more of that turn', () => {
  it('through examples/host-relay', async () => {
    const started = await startExample(
      join(repoRoot, 'examples/host-relay'),
      'server.mjs',
      /listening on (ws:\/\/\S+)/,
      { avatarId: AVATAR, credentials, service },
    );
    example = started.process;
    const relayUrl = started.url;
    const page = await relayPage();
    // The page speaks to the relay as the demo does; the example's espeak-ng sentence is 2.8 s, in real time.
    await page.evaluate(async (url) => {
      const w = window as PageWindow;
      const ws = new WebSocket(url);
      ws.binaryType = 'arraybuffer';
      ws.onmessage = (event) => w.relay.receive(event.data);
      await new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
      w.ws = ws;
      ws.send(JSON.stringify({ type: 'speak' }));
    }, relayUrl);
    await page.waitForFunction(() => (window as PageWindow).marks.playingAt.length > 0, undefined, {
      timeout: 15_000,
    });
    await page.waitForTimeout(700);
    await page.evaluate(() => (window as PageWindow).ws.send(JSON.stringify({ type: 'interrupt' })));
    await page.waitForFunction(() => (window as PageWindow).marks.interruptAt !== undefined);
    await page.waitForTimeout(3000); // past where the 2.8 s utterance would have ended
    expectSilentAndStill(await heard(page));
    await page.close();
  });

  it('from a voice agent whose TTS keeps streaming after the interrupt', async () => {
    const page = await relayPage();
    const session = new AvatarSession({
      avatarId: AVATAR,
      appId: credentials.appId,
      apiKey: credentials.apiKey,
      consoleUrl: service.consoleUrl,
      ingressUrl: service.ingressUrl,
      sampleRate: RATE,
      reconnect: false,
    });
    // The transport: relay events into the page in order (binary as base64, control as text).
    let delivering = Promise.resolve();
    session.relay().on('event', (event: RelayEvent) => {
      const data = typeof event.data === 'string' ? event.data : Buffer.from(event.data).toString('base64');
      const binary = typeof event.data !== 'string';
      delivering = delivering.then(() =>
        page.evaluate(
          ({ data, binary }) => {
            const { relay, ad } = window as PageWindow;
            relay.receive(binary ? ad.b64(data) : data);
          },
          { data, binary },
        ),
      );
    });
    await session.start();
    session.startTurn();
    // Speech, not a tone: the engine reads a steady hum as background and keeps the mouth shut.
    const wav = execFileSync('espeak-ng', [
      '--stdout',
      'This turn keeps streaming after the user barges in.',
    ]);
    const pcm = wavToSendablePcm(parseWav(new Uint8Array(wav)), RATE).samples;
    const step = RATE / 10;
    for (let i = 0; i < pcm.length; i += step) {
      // 100 ms chunks in real time; the stream does not stop when the user barges in.
      session.sendAudio(pcm.subarray(i, i + step), i + step >= pcm.length);
      if (i === step * 7) session.interrupt();
      await new Promise((r) => setTimeout(r, 100));
    }
    await delivering;
    await page.waitForTimeout(1200);
    expectSilentAndStill(await heard(page));
    await session.close();
    await page.close();
  });
});
