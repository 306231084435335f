/**
 * Browser side of the e2e tests: a test page bundled with esbuild, served on 127.0.0.1:0, and
 * Chromium (Debian's, through playwright-core) with the project's flags and a fresh profile.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { assertChromiumInstalled, type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

// The LiveKit server offers loopback ICE candidates only (scripts/livekit.sh); Chromium skips
// the loopback interface unless told otherwise.
// Fake capture device and an auto-accepted permission prompt: the RTC page's microphone
// (AvatarPlayer.startPublishing) is Chromium's generated beep.
const EXTRA_ARGS = [
  '--allow-loopback-in-peer-connection',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>loading</title>
<style>body{margin:0;background:#20242c} #view{width:240px;height:240px}</style></head>
<body><div id="view"></div><script type="module" src="/page.js"></script></body></html>`;

/** A served page in a fresh Chromium profile. */
export interface TestBrowser {
  page: Page;
  origin: string;
  close(): Promise<void>;
}

/** Bundles `test/pages/<name>.ts` and opens it in Chromium. */
export async function openPage(name: string): Promise<TestBrowser> {
  assertChromiumInstalled();
  const entry = fileURLToPath(new URL(`../pages/${name}.ts`, import.meta.url));
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]!.text;
  const server: Server = createServer((req, res) => {
    const body = req.url === '/page.js' ? js : req.url === '/' ? HTML : undefined;
    res.writeHead(body === undefined ? 404 : 200, {
      'content-type': req.url === '/page.js' ? 'text/javascript' : 'text/html',
      'cache-control': 'no-store',
    });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let browser: ChromiumSession | undefined;
  try {
    browser = await launchChromium({
      extraArgs: EXTRA_ARGS,
      viewport: { width: 320, height: 320 },
      profilePrefix: 'avatar-drive-e2e-',
    });
    const context = browser.context;
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin);
    await page
      .waitForFunction(() => document.title === 'rtc-ready', undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`The test page did not load: ${errors.join('; ') || 'no page error'}`);
      });
    const opened = browser;
    return {
      page,
      origin,
      close: async () => {
        await opened.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}
