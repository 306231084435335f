/**
 * Node side of the render test: bundles the page with esbuild, serves it and the avatar files on
 * 127.0.0.1 (port 0), and drives Debian's Chromium with playwright-core.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));

export interface RenderHarness {
  page: Page;
  baseUrl: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.glb': 'model/gltf-binary',
  '.js': 'text/javascript',
  '.html': 'text/html',
};

/**
 * Starts the server and the browser, opens the page and waits until it is ready. `assetsDir` is
 * served under /avatars/, `extraDir` (optional: fixtures unpacked for one test) under /extra/.
 */
export async function startRenderHarness(assetsDir: string, extraDir?: string): Promise<RenderHarness> {
  const bundle = await build({
    entryPoints: [join(here, 'page.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.contents;
  const html =
    '<!doctype html><meta charset="utf-8"><style>body{margin:0}</style><script type="module" src="/page.js"></script>';
  const root = resolve(assetsDir) + sep;
  const extra = extraDir ? resolve(extraDir) + sep : null;

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const send = (status: number, type: string, body: Uint8Array | string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') return send(200, TYPES['.html']!, html);
    if (path === '/page.js') return send(200, TYPES['.js']!, script);
    const mount = path.startsWith('/avatars/')
      ? { dir: root, rest: path.slice('/avatars/'.length) }
      : extra && path.startsWith('/extra/')
        ? { dir: extra, rest: path.slice('/extra/'.length) }
        : null;
    if (mount) {
      const file = normalize(join(mount.dir, mount.rest));
      if (!file.startsWith(mount.dir)) return send(403, 'text/plain', 'forbidden');
      readFile(file).then(
        (body) => send(200, TYPES[extname(file)] ?? 'application/octet-stream', body),
        () => send(404, 'text/plain', 'not found'),
      );
      return;
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  let browser: ChromiumSession | null = null;
  try {
    browser = await launchChromium({
      viewport: { width: 480, height: 600 },
      profilePrefix: 'avatars-render-',
    });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const response = await page.goto(baseUrl);
    if (!response?.ok()) throw new Error(`render page: HTTP ${response?.status()}`);
    const deadline = Date.now() + 60_000;
    while (!(await page.evaluate(() => 'avatarPage' in window))) {
      if (errors.length > 0 || Date.now() > deadline) {
        throw new Error(`render page did not start at ${page.url()}: ${errors.join('; ') || 'timeout'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const opened = browser;
    return {
      page,
      baseUrl,
      async close() {
        await opened.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}
