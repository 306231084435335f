// @vitest-environment node
/**
 * Real Chromium, Host mode: relay messages built with core's encoder are yielded to the page's
 * controller; the page measures sound (AnalyserNode) and the mesh's morph influences.
 */
import { RelayEncoder } from '@avatar-drive/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';
import { burstUtterance } from './relay-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

let server: PageServer;
let chrome: BrowserSession;

beforeAll(async () => {
  server = await startPageServer();
  chrome = await launchChromium();
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
});

const warnings = new WeakMap<Page, string[]>();

async function hostPage(): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  const pageWarnings: string[] = [];
  warnings.set(page, pageWarnings);
  page.on('console', (message) => {
    if (message.type() === 'warning') pageWarnings.push(message.text());
  });
  await page.goto(server.origin);
  await page.waitForFunction(() => document.title === 'ready');
  await page.evaluate(async () => {
    const { AvatarSDK, AvatarView, makeTestAvatar, record } = (window as PageWindow).ad;
    AvatarSDK.initialize('app-test', {
      drivingServiceMode: 'host',
      audioFormat: { channelCount: 1, sampleRate: 16000 },
      logLevel: 'warn',
    });
    const avatar = await makeTestAvatar();
    const view = new AvatarView(avatar, document.getElementById('a'), {
      antialias: false,
      environmentLighting: false,
    });
    let firstRenderings = 0;
    view.onFirstRendering = () => (firstRenderings += 1);
    await view.ready;
    await view.controller.initializeAudioContext();
    const events = record(view.controller);
    Object.assign(window, { view, events, firstRenderings: () => firstRenderings });
  });
  return page;
}

describe('client-web in Chromium, Host mode', () => {
  it('keeps the animation within one frame of the audio it hears', async () => {
    const page = await hostPage();
    const utterance = burstUtterance(new RelayEncoder(), 'sync-1', {
      seconds: 2.6,
      starts: [10, 30, 50],
      burstFrames: 12, // the drop back to 0 starts 3 frames after the ramp: never mistaken for it
      rampFrames: 8,
    });
    const result = await page.evaluate(async ({ audio, frames }) => {
      const { measureSync, b64 } = (window as PageWindow).ad;
      const view = (window as PageWindow).view;
      const measuring = measureSync(view, 3000, 8);
      let id = '';
      for (const a of audio) id = view.controller.yieldAudioData(b64(a));
      view.controller.yieldFramesData(frames.map(b64), id);
      return measuring;
    }, utterance);
    const offsets: number[] = result.offsetsMs;
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    const perBurst = [0, 1, 2].map((b) => mean(offsets.filter((_, i) => result.burstOf[i] === b)));
    const worst = Math.max(...offsets.map(Math.abs));
    console.log(
      `audio-to-animation offset: mean ${mean(offsets).toFixed(1)} ms (per burst ${perBurst.map((m) => m.toFixed(1)).join(', ')}), worst sample ${worst.toFixed(1)} ms over ${offsets.length} samples (${result.ticks} animation frames, output latency ${result.outputLatencyMs.toFixed(1)} ms)`,
    );
    expect(result.onsets).toBe(3);
    expect(offsets.length).toBeGreaterThanOrEqual(6);
    // Each burst's offset within one frame (40 ms). Single samples also carry the time since the
    // last render (the page's animation-frame rate), so they are printed, not bounded.
    for (const m of perBurst) expect(Math.abs(m)).toBeLessThanOrEqual(40);
    await page.close();
  });

  it('follows the conversation-id rules and plays a conversation without animation audio-only', async () => {
    const page = await hostPage();
    const encoder = new RelayEncoder();
    const a = burstUtterance(encoder, 'conv-a', {
      seconds: 1.6,
      starts: [0],
      burstFrames: 40,
      rampFrames: 1,
    });
    const b = burstUtterance(encoder, 'conv-b', {
      seconds: 0.8,
      starts: [0],
      burstFrames: 20,
      rampFrames: 1,
    });
    const result = await page.evaluate(
      async ({ a, b }) => {
        const { b64 } = (window as PageWindow).ad;
        const view = (window as PageWindow).view;
        const c = view.controller;
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const ids: string[] = [];
        for (const m of a.audio) ids.push(c.yieldAudioData(b64(m)));
        c.yieldFramesData(a.frames.slice(0, 2).map(b64), 'conv-a');
        await wait(400);
        const jawA = view.getMorphInfluence('jawOpen');
        // conv-b replaces conv-a; its animation never comes (empty list = audio-only).
        for (const m of b.audio) ids.push(c.yieldAudioData(b64(m)));
        const current = c.getCurrentConversationId();
        c.yieldFramesData([], 'conv-b');
        c.yieldFramesData(a.frames.slice(2).map(b64), 'conv-a'); // stale: dropped silently
        c.yieldFramesData(b.frames.map(b64), 'conv-a'); // named for another conversation: dropped
        await wait(500);
        const stats = c.getSyncStats();
        const jawB = view.getMorphInfluence('jawOpen');
        const stateDuringB = c.conversationState;
        await wait(600);
        return {
          ids,
          current,
          jawA,
          jawB,
          stats,
          stateDuringB,
          events: (window as PageWindow).events,
          after: c.getCurrentConversationId(),
        };
      },
      { a, b },
    );
    expect(new Set(result.ids)).toEqual(new Set(['conv-a', 'conv-b']));
    expect(result.current).toBe('conv-b');
    expect(result.jawA).toBeGreaterThan(0.9);
    // Audio-only: conv-b plays (its audio position advances) with no speech frame; the mouth has closed.
    expect(result.stateDuringB).toBe('playing');
    expect(result.stats).toMatchObject({ framePosition: undefined });
    expect(result.stats.audioPosition).toBeGreaterThan(0.2);
    expect(result.jawB).toBeLessThan(0.9);
    expect(result.events.at(-1)).toBe('conversation:idle');
    expect(result.events.filter((e: string) => e === 'conversation:playing')).toHaveLength(
      a.audio.length + b.audio.length,
    );
    expect(result.events.some((e: string) => e.startsWith('NESTED'))).toBe(false);
    expect(result.after).toBeUndefined();
    await page.close();
  });

  it('pauses and resumes audio and animation together, and interrupt stops both at once', async () => {
    const page = await hostPage();
    const encoder = new RelayEncoder();
    const u1 = burstUtterance(encoder, 'p-1', { seconds: 1.2, starts: [0], burstFrames: 30, rampFrames: 30 });
    const u2 = burstUtterance(encoder, 'p-2', { seconds: 2, starts: [0], burstFrames: 50, rampFrames: 1 });
    const result = await page.evaluate(
      async ({ u1, u2 }) => {
        const { b64 } = (window as PageWindow).ad;
        const view = (window as PageWindow).view;
        const c = view.controller;
        const ctx = c.outputNode.context as AudioContext;
        const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
        for (const m of u1.audio) c.yieldAudioData(b64(m));
        c.yieldFramesData(u1.frames.map(b64), 'p-1');
        await wait(500);
        await c.pause();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const pausedAt = { time: ctx.currentTime, jaw: view.getMorphInfluence('jawOpen') };
        await wait(400);
        const stillPaused = {
          time: ctx.currentTime,
          jaw: view.getMorphInfluence('jawOpen'),
          state: c.conversationState,
        };
        await c.resume();
        await wait(300);
        const resumed = { jaw: view.getMorphInfluence('jawOpen') };
        await wait(900);
        const afterFirst = c.conversationState;
        // Second utterance: interrupt in the middle.
        for (const m of u2.audio) c.yieldAudioData(b64(m));
        c.yieldFramesData(u2.frames.map(b64), 'p-2');
        await wait(600);
        const before = view.getMorphInfluence('jawOpen');
        const analyser = ctx.createAnalyser();
        analyser.fftSize = 256;
        c.outputNode.connect(analyser);
        c.interrupt();
        const state = c.conversationState;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await wait(30);
        const buffer = new Float32Array(256);
        analyser.getFloatTimeDomainData(buffer);
        const peak = Math.max(...buffer.map(Math.abs));
        return {
          pausedAt,
          stillPaused,
          resumed,
          afterFirst,
          before,
          afterInterrupt: view.getMorphInfluence('jawOpen'),
          state,
          peak,
          events: (window as PageWindow).events,
          current: c.getCurrentConversationId(),
        };
      },
      { u1, u2 },
    );
    expect(result.pausedAt.jaw).toBeGreaterThan(0.1);
    expect(result.stillPaused.state).toBe('paused');
    expect(result.stillPaused.time).toBeCloseTo(result.pausedAt.time, 2); // audio clock stopped
    expect(result.stillPaused.jaw).toBeCloseTo(result.pausedAt.jaw, 2); // animation held
    expect(result.resumed.jaw).toBeGreaterThan(result.stillPaused.jaw); // ramp continues after resume
    expect(result.afterFirst).toBe('idle');
    expect(result.before).toBeGreaterThan(0.9);
    expect(result.state).toBe('idle');
    expect(result.afterInterrupt).toBe(0);
    expect(result.peak).toBeLessThan(0.01);
    expect(result.current).toBeUndefined();
    const seq = result.events.filter((e: string, i: number, all: string[]) => e !== all[i - 1]);
    expect(seq).toEqual([
      'conversation:playing',
      'conversation:paused',
      'conversation:playing',
      'conversation:idle',
      'conversation:playing',
      'conversation:idle',
    ]);
    await page.close();
  });

  it('runs several views independently and frees one on dispose()', async () => {
    const page = await hostPage();
    const u = burstUtterance(new RelayEncoder(), 'v-1', {
      seconds: 1,
      starts: [0],
      burstFrames: 25,
      rampFrames: 1,
    });
    const result = await page.evaluate(async ({ audio, frames }) => {
      const { AvatarView, makeTestAvatar, b64 } = (window as PageWindow).ad;
      const a = (window as PageWindow).view;
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const b = new AvatarView(await makeTestAvatar('second'), document.getElementById('b'), {
        antialias: false,
        environmentLighting: false,
      });
      let bFirst = 0;
      b.onFirstRendering = () => (bFirst += 1);
      await b.ready;
      await wait(100);
      const canvas = b.canvas as HTMLCanvasElement;
      const size = { w: canvas.width, h: canvas.height, dpr: devicePixelRatio };
      for (const m of audio) a.controller.yieldAudioData(b64(m));
      a.controller.yieldFramesData(frames.map(b64), 'v-1');
      await wait(400);
      const jaws = {
        a: a.getMorphInfluence('jawOpen'),
        b: b.getMorphInfluence('jawOpen'),
        stats: a.controller.getSyncStats(),
        state: a.controller.conversationState,
        events: (window as PageWindow).events,
      };
      a.dispose();
      const disposed = { inDom: document.getElementById('a')!.querySelector('canvas') !== null };
      const frameBefore = b.lastFrame?.rotation[0];
      await wait(300);
      const frameAfter = b.lastFrame?.rotation[0];
      let reuse = '';
      try {
        a.controller.yieldAudioData(b64(audio[0]));
      } catch (e) {
        reuse = (e as { code: string }).code;
      }
      return {
        size,
        jaws,
        disposed,
        bMoves: frameBefore !== frameAfter,
        bFirst,
        aFirst: (window as PageWindow).firstRenderings(),
        reuse,
      };
    }, u);
    expect(result.size).toEqual({ w: 200, h: 200, dpr: 1 });
    expect(result.jaws.a, JSON.stringify(result.jaws)).toBeGreaterThan(0.9);
    expect(result.jaws.b).toBe(0);
    expect(result.disposed.inDom).toBe(false);
    expect(result.bMoves).toBe(true); // idle breathing goes on in the other view
    expect(result.aFirst).toBe(1);
    expect(result.bFirst).toBe(1);
    expect(result.reuse).toBe('invalidState');
    // The test head has 5 of the 52 ARKit targets: one coverage warning per view, naming what is missing.
    const skipped = warnings
      .get(page)!
      .filter((w) => w.includes('5/52 ARKit shapes') && w.includes('missing (') && w.includes('browInnerUp'));
    expect(skipped).toHaveLength(2);
    await page.close();
  });
});
