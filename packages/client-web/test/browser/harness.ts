/**
 * Browser-test harness: an esbuild bundle of the test page served by a small HTTP server on
 * 127.0.0.1:0 (which also forwards console requests to the service, so the page talks to it
 * same-origin), and Chromium launched through playwright-core.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChromiumSession, launchChromium as launchTestChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));

/** Where console requests under `/r/<name>/…` (and plain `/v1/…`, to the first) are forwarded. */
export type ProxyTargets = Map<string, string>;

/** The built-in avatars' build output (packages/avatars/dist), served under `/built-in/<id>/`. */
export const BUILT_IN_AVATARS_DIR = join(here, '../../../avatars/dist');

export interface PageServer {
  origin: string;
  targets: ProxyTargets;
  /** Requests the server handled, by path (for download counting). */
  requests: string[];
  close(): Promise<void>;
}

/** three's Basis Universal transcoder (what the package build copies to dist/basis/). */
const BASIS_DIR = join(
  dirname(createRequire(import.meta.url).resolve('three')),
  '../examples/jsm/libs/basis',
);

let bundlePromise: Promise<string> | undefined;

/** Bundles test/browser/page.ts (client-web source, three, core) once per process. */
export function pageBundle(): Promise<string> {
  bundlePromise ??= build({
    entryPoints: [join(here, 'page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    sourcemap: 'inline',
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return bundlePromise;
}

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>client-web test</title>
<style>body{margin:0;background:#20242c} .view{width:200px;height:200px;display:inline-block}</style></head>
<body><div id="a" class="view"></div><div id="b" class="view"></div><script type="module" src="/page.js"></script></body></html>`;

/** Serves the test page and forwards `/v1/…` and `/r/<name>/v1/…` to the service. */
export async function startPageServer(): Promise<PageServer> {
  const js = await pageBundle();
  const targets: ProxyTargets = new Map();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    if (url === '/' || url.startsWith('/?')) return send(res, 200, 'text/html', HTML);
    if (url === '/page.js') return send(res, 200, 'text/javascript', js);
    const builtIn = /^\/built-in\/([a-z0-9_-]+)\/(avatar\.glb|manifest\.json)$/.exec(url);
    if (builtIn) {
      const file = join(here, '../../../avatars/dist', builtIn[1]!, builtIn[2]!);
      if (!existsSync(file)) return send(res, 404, 'text/plain', 'not built');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(readFileSync(file));
      return;
    }
    // The Basis transcoder where AvatarView looks by default: basis/ next to the module (page.js).
    const basis = /^\/basis\/(basis_transcoder\.(?:js|wasm))$/.exec(url);
    if (basis) {
      res.writeHead(200, {
        'content-type': basis[1]!.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
      });
      res.end(readFileSync(join(BASIS_DIR, basis[1]!)));
      return;
    }
    const routed = /^\/r\/([^/]+)(\/v1\/.*)$/.exec(url);
    const target = routed ? targets.get(routed[1]!) : targets.values().next().value;
    const path = routed ? routed[2]! : url;
    if (target && path.startsWith('/v1/')) return forward(req, res, target, path);
    send(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    targets,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, target: string, path: string): void {
  const upstream = request(
    `${target}${path}`,
    // As a reverse proxy: the page's origin in X-Forwarded-Host, so the service (which trusts this
    // loopback proxy, see service.ts) writes asset URLs on the page's origin.
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

/** A Chromium context in a fresh profile; `close()` deletes the profile. */
export type BrowserSession = ChromiumSession;

/** Launches Chromium with the project's flags (plus `extraArgs`) and a fresh profile. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<BrowserSession> {
  return launchTestChromium({
    viewport: { width: 700, height: 400 },
    profilePrefix: 'client-web-chromium-',
    extraArgs,
  });
}

/** A new page on the test page server, once its bundle has loaded (page errors go to stderr). */
export async function openReadyPage(chrome: BrowserSession, server: PageServer): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(server.origin);
  await page.waitForFunction(() => document.title === 'ready');
  return page;
}

/** The manifest written next to the test avatar unless a test gives its own. */
const TEST_AVATAR_MANIFEST = { name: 'Test head' };

/**
 * Writes the page's test avatar (a small glTF head that three's GLTFExporter builds in Chromium)
 * into `avatarsDir/<id>/` as the service's `--avatars-dir` reads it: `avatar.glb` + `manifest.json`.
 */
export async function writeTestAvatar(
  chrome: BrowserSession,
  server: PageServer,
  avatarsDir: string,
  id = 'test-head',
  manifest: object = TEST_AVATAR_MANIFEST,
): Promise<void> {
  const page = await openReadyPage(chrome, server);
  const glb = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
    const avatar = await (window as any).ad.makeTestAvatar();
    return Array.from(new Uint8Array(avatar.model));
  });
  await page.close();
  await mkdir(join(avatarsDir, id), { recursive: true });
  await writeFile(join(avatarsDir, id, 'avatar.glb'), Uint8Array.from(glb));
  await writeFile(join(avatarsDir, id, 'manifest.json'), JSON.stringify(manifest));
}

/** An example app's server started as a user would (`node server.mjs`), with the URL it printed. */
export interface RunningExample {
  process: ChildProcess;
  /** The first capture group of `urlPattern` in what the server printed. */
  url: string;
}

/**
 * Starts `node <script>` in `cwd` on a free port (`PORT=0`) against a running service, with the
 * app credentials and the avatar id in its environment as the examples' READMEs set them, and
 * resolves once its output matches `urlPattern` (rejects with that output if it exits first).
 */
export async function startExample(
  cwd: string,
  script: string,
  urlPattern: RegExp,
  env: {
    avatarId: string;
    credentials: { appId: string; apiKey: string };
    service: { consoleUrl: string; ingressUrl: string };
  },
): Promise<RunningExample> {
  const child = spawn(process.execPath, [script], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      AVATAR_ID: env.avatarId,
      AVATAR_DRIVE_APP_ID: env.credentials.appId,
      AVATAR_DRIVE_API_KEY: env.credentials.apiKey,
      AVATAR_DRIVE_CONSOLE_URL: env.service.consoleUrl,
      AVATAR_DRIVE_INGRESS_URL: env.service.ingressUrl,
    },
  });
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = urlPattern.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`example exited ${code}: ${out}`));
    });
  });
  return { process: child, url };
}
