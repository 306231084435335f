// @vitest-environment node
/**
 * AvatarPlayer in real Chromium with the real livekit-client: a connect() that cannot reach the
 * room server leaves the connection state `failed` (not `disconnected`), reconnect() may follow,
 * and the spec's log level names are accepted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
let server: Server;
let origin: string;
let chrome: ChromiumSession;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(here, 'page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(js);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>loading</title><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chrome = await launchChromium({ profilePrefix: 'rtc-player-chromium-' });
}, 90_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('AvatarPlayer connection state', () => {
  it("reports 'failed' after a connect that cannot reach the server; accepts logLevel 'none' and 'warning'", async () => {
    const page = await chrome.context.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => document.title === 'ready');
    const port = await closedPort();
    const result = await page.evaluate(async (port) => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
      const { AvatarSDK, AvatarPlayer, LiveKitProvider } = (window as any).rtc;
      AvatarSDK.initialize('app', { drivingServiceMode: 'host', logLevel: 'none' });
      // The player only needs the view's frame-source hook for this test.
      const view = { setFrameSource: () => undefined };
      const levels: Record<string, string> = {};
      for (const logLevel of ['none', 'warning', 'warn', 'silent', 'loud']) {
        try {
          void new AvatarPlayer(new LiveKitProvider(), view, { logLevel }).dispose();
          levels[logLevel] = 'ok';
        } catch (error) {
          levels[logLevel] = (error as { code: string }).code;
        }
      }
      const provider = new LiveKitProvider();
      const player = new AvatarPlayer(provider, view, { logLevel: 'none' });
      const states: string[] = [];
      provider.on('connectionStateChanged', (s: string) => states.push(s));
      // A well-formed (unsigned) join token: the failure is the unreachable server, not the token.
      const token = `${btoa('{"alg":"HS256"}')}.${btoa('{"sub":"x"}')}.c2ln`;
      const config = { url: `ws://127.0.0.1:${port}`, token };
      const first = await player.connect(config).then(
        () => 'connected',
        (e: { code: string; message: string }) => e.code,
      );
      const afterFirst = player.getConnectionState();
      const second = await player.reconnect().then(
        () => 'connected',
        (e: { code: string }) => e.code,
      );
      return { levels, first, afterFirst, second, afterSecond: player.getConnectionState(), states };
    }, port);
    expect(result.levels).toEqual({
      none: 'ok',
      warning: 'ok',
      warn: 'ok',
      silent: 'ok',
      loud: 'invalidRequest',
    });
    expect(result.first).toBe('connectionFailed');
    expect(result.afterFirst).toBe('failed');
    expect(result.second).toBe('connectionFailed');
    expect(result.afterSecond).toBe('failed');
    expect(result.states).toEqual(['connecting', 'failed', 'connecting', 'failed']);
    await page.close();
  });
});
