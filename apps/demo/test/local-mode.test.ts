/**
 * The demo's Local mode in real Chromium: the whole stack on free ports (the page needs the
 * service only for the avatar list and assets), the Local switch, a bundled WAV spoken with the
 * engine in the page's Worker: the mouth moves in sync, and no network request is made once the
 * page, the avatar, the samples and the engine have loaded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../server/stack.js';
import { startStack } from '../server/stack.js';
import type { DemoHook } from '../src/hook.js';

let stack: Stack;
let chrome: ChromiumSession;
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'demo-local-'));
  stack = await startStack({ devCredentials: join(workDir, 'dev.json') });
  chrome = await launchChromium({ viewport: { width: 640, height: 420 }, profilePrefix: 'demo-local-' });
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await stack?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('demo: Local mode', () => {
  it('speaks a sample with the engine in the page, the mouth in sync, without the network', {
    timeout: 150_000,
  }, async () => {
    const page = await chrome.context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    // The mode switch keeps its choice in the URL (?mode=local); the first frames compile shaders,
    // slow without a GPU.
    await page.goto(`${stack.url}?mode=local`);
    await page.waitForFunction(
      () => {
        const demo = (window as unknown as { __demo: DemoHook }).__demo;
        return demo.mode === 'local' && demo.firstRendering && demo.localReady;
      },
      undefined,
      { timeout: 100_000 },
    );
    expect(await page.getAttribute('[data-testid=mode-local]', 'aria-pressed')).toBe('true');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('blob:')) requests.push(request.url());
    });
    page.on('websocket', (ws) => requests.push(ws.url()));
    await page.evaluate(() => (window as unknown as { __demo: DemoHook }).__demo.resetPeak());
    // A click from the page itself: no waiting for actionability on a main thread busy drawing.
    await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid^=sample-]')!.click());
    const offsets: number[] = [];
    let played = false;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const now = await page.evaluate(() => {
        const demo = (window as unknown as { __demo: DemoHook }).__demo;
        return {
          conversation: demo.conversationStates.at(-1),
          offset: demo.syncOffsetMs,
          peakJaw: demo.peakJaw,
          peakLevel: demo.peakLevel,
        };
      });
      if (now.conversation === 'playing') {
        played = true;
        if (now.offset !== undefined) offsets.push(now.offset);
      } else if (played && now.conversation === 'idle') break;
      await page.waitForTimeout(50);
    }
    const state = await page.evaluate(() => {
      const demo = (window as unknown as { __demo: DemoHook }).__demo;
      return {
        peakJaw: demo.peakJaw,
        peakLevel: demo.peakLevel,
        timeline: [...demo.timeline],
        errors: [...demo.errors],
        connection: document.querySelector('[data-testid=connection-state]')?.textContent,
      };
    });
    expect(played, JSON.stringify(state)).toBe(true);
    expect(state.errors).toEqual([]);
    expect(state.connection).toBe('connected');
    expect(state.timeline.slice(0, 2)).toEqual(['connection:connecting', 'connection:connected']);
    expect(state.timeline).toContain('conversation:playing');
    expect(state.timeline.at(-1)).toBe('conversation:idle');
    expect(state.peakLevel).toBeGreaterThan(0.01); // the voice played
    expect(state.peakJaw).toBeGreaterThan(0.1); // the mouth moved (rest: 0; sampled at the page's slow frame rate)
    // The page's own sync readout (controller.getSyncStats()) while it played, within one frame;
    // client-web's local-mode browser test measures the offset from outside the SDK.
    expect(offsets.length).toBeGreaterThan(0);
    expect(Math.max(...offsets.map(Math.abs))).toBeLessThanOrEqual(40);
    expect(requests).toEqual([]);
    await page.close();
  });
});
