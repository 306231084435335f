// @vitest-environment node
/**
 * The built-in noa through `<AvatarView>` in react-native-web, with the browser's image decoders
 * taken away (no `createImageBitmap`, no `Image`, `<img>` refused — as on React Native): its
 * embedded JPEG/PNG textures are decoded by the package's JavaScript decoder. The face's pixels
 * are compared with the same avatar whose textures were stripped (base colours only): they must
 * differ clearly. A model with an image declaring 8192 × 8192 fails with a typed error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGlb, stripTextures, writeGlb } from '../support/glb-images.js';
import { pageBundle } from './bundle.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const NOA_DIR = join(import.meta.dirname, '../../../avatars/dist/noa');
const built = existsSync(join(NOA_DIR, 'avatar.glb'));
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>react-native-web textures</title>
<style>html,body{margin:0;background:#20242c}#root{width:320px;height:320px;display:flex}</style></head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>`;
/** Mean absolute difference per channel (0–255) the textured face must exceed over the plain one. */
const MIN_DIFFERENCE = 6;

let server: Server;
let origin: string;
let chrome: ChromiumSession;

/** An 8192 × 8192 claim written into noa's PNG header (the bytes after it are unchanged). */
function hostileNoa(noa: Uint8Array): Uint8Array {
  const glb = readGlb(noa);
  const png = glb.json.images!.findIndex((i) => i.mimeType === 'image/png');
  const view = glb.json.bufferViews[glb.json.images![png]!.bufferView!]!;
  const bin = glb.bin.slice();
  const ihdr = new DataView(bin.buffer, (view.byteOffset ?? 0) + 16, 8);
  ihdr.setUint32(0, 8192);
  ihdr.setUint32(4, 8192);
  return writeGlb({ json: glb.json, bin });
}

beforeAll(async () => {
  if (!built) return;
  const noa = new Uint8Array(readFileSync(join(NOA_DIR, 'avatar.glb')));
  const files: Record<string, { body: string | Uint8Array; type: string }> = {
    '/': { body: HTML, type: 'text/html' },
    '/page.js': { body: await pageBundle(), type: 'text/javascript' },
    '/noa.glb': { body: noa, type: 'model/gltf-binary' },
    '/noa-plain.glb': { body: stripTextures(noa), type: 'model/gltf-binary' },
    '/noa-hostile.glb': { body: hostileNoa(noa), type: 'model/gltf-binary' },
    '/manifest.json': {
      body: readFileSync(join(NOA_DIR, 'manifest.json'), 'utf8'),
      type: 'application/json',
    },
  };
  server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 404, {
      'content-type': file?.type ?? 'text/plain',
      'cache-control': 'no-store',
    });
    res.end(file?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chrome = await launchChromium({
    viewport: { width: 400, height: 400 },
    profilePrefix: 'rn-textures-chromium-',
  });
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function openPage(): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(origin);
  await page.waitForFunction(() => document.title === 'ready');
  await page.evaluate(() => {
    const ad = (window as PageWindow).ad;
    ad.hideDomImageDecoders();
    // Views need an initialized SDK; nothing here connects.
    ad.AvatarSDK.initialize('rn-textures', {
      region: 'us-west',
      backupRegion: null,
      regions: { 'us-west': { consoleUrl: 'http://127.0.0.1:9', ingressUrl: 'ws://127.0.0.1:9' } },
      drivingServiceMode: 'sdk',
      audioFormat: { channelCount: 1, sampleRate: 16000 },
      logLevel: 'error',
    });
  });
  return page;
}

describe.skipIf(!built)('the built-in noa on React Native (react-native-web, no DOM image decoding)', () => {
  it('draws its textures: the face differs clearly from the same avatar without them', async () => {
    const page = await openPage();
    const result = await page.evaluate(async () => {
      const ad = (window as PageWindow).ad;
      const manifest = await (await fetch('/manifest.json')).json();
      const show = async (file: string) => {
        const bytes = await (await fetch(file)).arrayBuffer();
        const avatar = new ad.Avatar(
          {
            ...manifest,
            assets: [{ kind: 'model', name: 'avatar.glb', url: file, size: bytes.byteLength }],
          },
          new Map([['avatar.glb', bytes]]),
          0,
        );
        const started = performance.now();
        const handle = await ad.mount(avatar, {
          options: {
            idleMotion: false,
            antialias: false,
            environmentLighting: false,
            preserveDrawingBuffer: true,
            background: '#dfe4ea',
          },
        });
        const loadMs = performance.now() - started;
        await new Promise((r) => setTimeout(r, 300));
        const pixels: Uint8Array = ad.centrePixels(96);
        handle.view.dispose();
        await ad.unmount();
        return { pixels: Array.from(pixels), loadMs };
      };
      const textured = await show('/noa.glb');
      const plain = await show('/noa-plain.glb');
      return { textured, plain };
    });
    const a = result.textured.pixels;
    const b = result.plain.pixels;
    expect(a.length).toBe(b.length);
    let sum = 0;
    let background = 0;
    for (let i = 0; i < a.length; i += 4) {
      for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c]! - b[i + c]!);
      if (Math.abs(a[i]! - 0xdf) + Math.abs(a[i + 1]! - 0xe4) + Math.abs(a[i + 2]! - 0xea) < 6)
        background += 1;
    }
    const difference = sum / ((a.length / 4) * 3);
    console.log(
      `noa's face, textured vs base colours: mean |Δ| ${difference.toFixed(1)} per channel ` +
        `(threshold ${MIN_DIFFERENCE}, margin ${(difference - MIN_DIFFERENCE).toFixed(1)}); ` +
        `load + first frame ${result.textured.loadMs.toFixed(0)} ms textured, ${result.plain.loadMs.toFixed(0)} ms plain`,
    );
    // The square is the face, not the background.
    expect(background / (a.length / 4)).toBeLessThan(0.1);
    expect(difference).toBeGreaterThan(MIN_DIFFERENCE);
    await page.close();
  }, 180_000);

  it('refuses a model whose image declares 8192 × 8192: ready rejects with assetDownloadFailed / tooLarge', async () => {
    const page = await openPage();
    const result = await page.evaluate(async () => {
      const ad = (window as PageWindow).ad;
      const manifest = await (await fetch('/manifest.json')).json();
      const bytes = await (await fetch('/noa-hostile.glb')).arrayBuffer();
      const avatar = new ad.Avatar(
        {
          ...manifest,
          assets: [{ kind: 'model', name: 'avatar.glb', url: '/noa-hostile.glb', size: bytes.byteLength }],
        },
        new Map([['avatar.glb', bytes]]),
        0,
      );
      const surface = new ad.AvatarSurface(avatar, { antialias: false, environmentLighting: false });
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const gl = canvas.getContext('webgl2') as WebGL2RenderingContext & { endFrameEXP?: () => void };
      gl.endFrameEXP = () => undefined;
      surface.attach(gl);
      const error = await surface.ready.then(
        () => undefined,
        (e: { code: string; message: string; details?: Record<string, unknown> }) => ({
          code: e.code,
          message: e.message,
          details: e.details,
        }),
      );
      surface.dispose();
      return error;
    });
    expect(result?.code).toBe('assetDownloadFailed');
    expect(result?.details).toMatchObject({ problem: 'tooLarge', width: 8192, height: 8192 });
    expect(result?.message).toMatch(/Avatar noa's image \d+ is 8192 × 8192 pixels/);
    await page.close();
  }, 120_000);
});
