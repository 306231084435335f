// @vitest-environment node
/**
 * `detectRenderer()` in real Chromium. The test browser has no GPU and rasterises WebGL with
 * SwiftShader (packages/test-chromium), which is exactly what the detection is for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';

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

describe('detectRenderer', () => {
  it('names SwiftShader as software rendering, and leaves no WebGL context behind', async () => {
    const page = await chrome.context.newPage();
    // Chromium keeps at most 16 live WebGL contexts and drops the oldest with a console warning:
    // asking 40 times proves each answer released its context.
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    await page.goto(server.origin);
    await page.waitForFunction(() => document.title === 'ready');
    const result = await page.evaluate(() => {
      const { detectRenderer, LOW_END_VIEW_OPTIONS } = (window as PageWindow).ad.sdk;
      let info: { webgl: boolean; renderer: string; software: boolean } | undefined;
      for (let i = 0; i < 40; i++) info = detectRenderer();
      return { info, options: LOW_END_VIEW_OPTIONS, frozen: Object.isFrozen(LOW_END_VIEW_OPTIONS) };
    });
    await page.close();
    expect(console.filter((line) => /too many active webgl contexts/i.test(line))).toEqual([]);
    expect(result.info).toMatchObject({ webgl: true, software: true });
    expect(result.info!.renderer).toMatch(/swiftshader/i);
    expect(result.options).toEqual({ maxPixelRatio: 1, antialias: false, environmentLighting: false });
    expect(result.frozen).toBe(true);
  });
});
