/**
 * The published packages as a user gets them: packed with `pnpm pack`, installed with plain npm
 * into a scratch project outside the workspace (third-party dependencies from the npm registry,
 * or npm's cache when offline), then used there against the real service from the workspace build:
 * a Node script mints a token through the installed token server and streams a WAV with the
 * installed server-sdk; two pages built from the installed client-web (one bundled by esbuild from
 * the scratch node_modules, one plain `<script type="module">` importing the standalone browser
 * bundle, no import map) and a React page on the installed @avatar-drive/react (strict mode)
 * make the avatar speak in Chromium; @avatar-drive/react also imports in plain Node.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { type ChromiumSession, launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClosure, packPackages, REPO_ROOT } from '../src/pack.js';
import {
  type RunningProcess,
  startNode,
  startWorkspaceService,
  type TestService,
} from './support/processes.js';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, 'fixtures');
const INSTALLED = [
  '@avatar-drive/core',
  '@avatar-drive/engine',
  '@avatar-drive/client-web',
  '@avatar-drive/server-sdk',
  '@avatar-drive/token-server',
  '@avatar-drive/react',
];

let work: string;
let project: string;
let service: TestService;
let tokenServer: RunningProcess & { url: string };
let pages: Server;
let pagesOrigin: string;
let chromium: ChromiumSession;

async function sessionToken(): Promise<string> {
  const response = await fetch(`${tokenServer.url}/session-token`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.pcm': 'application/octet-stream',
};

/** Serves the scratch project's files (the pages and their node_modules) on a free port. */
function servePages(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'avd-install-'));
  project = join(work, 'my-app');
  await mkdir(project);
  // Nothing of the workspace is reachable from here: /tmp is outside it.
  expect(project.startsWith(REPO_ROOT)).toBe(false);
  const closure = installClosure(INSTALLED);
  const [tarballs, started] = await Promise.all([
    packPackages(join(work, 'packs'), closure),
    startWorkspaceService(work),
  ]);
  service = started;
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'my-app', private: true, type: 'module' }),
  );
  // Plain npm, the tarballs named on the command line (their @avatar-drive dependencies are
  // satisfied by each other), everything else from the registry (npm's cache first).
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...tarballs.values(),
      // @avatar-drive/react's app side: react is its peer (npm adds it), react-dom the app's own.
      'react@19.2.3',
      'react-dom@19.2.3',
    ],
    { cwd: project, timeout: 150_000, env: { ...process.env, npm_config_workspaces: '' } },
  );

  // The token server from the bin npm linked (the committed shim), holding the API key.
  const bin = join(project, 'node_modules/.bin/avatar-drive-token-server');
  const token = await startNode([bin, '--port', '0', '--rate-limit', '0', '--log-level', 'info'], {
    cwd: project,
    env: {
      AVATAR_DRIVE_API_KEY: service.apiKey,
      AVATAR_DRIVE_APP_ID: service.appId,
      AVATAR_DRIVE_CONSOLE_URL: service.url,
    },
    ready: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  });
  tokenServer = { ...token, url: token.match[1]! };

  // Speech audio: espeak-ng, as a WAV for the Node script and raw 16 kHz PCM for the pages.
  const wav = execFileSync('espeak-ng', [
    '--stdout',
    '-s',
    '160',
    'Hello from a package installed with npm.',
  ]);
  await writeFile(join(project, 'speech.wav'), wav);
  const { samples } = wavToSendablePcm(parseWav(new Uint8Array(wav)), 16000);
  await writeFile(
    join(project, 'speech.pcm'),
    new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength),
  );
  for (const file of [
    'speak.mjs',
    'page-logic.js',
    'page-bundled.js',
    'page-bundled.html',
    'page-standalone.html',
    'page-react.js',
    'page-react.html',
  ]) {
    await copyFile(join(FIXTURES, file), join(project, file));
  }
  pages = await servePages(project);
  pagesOrigin = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
}, 240_000);

afterAll(async () => {
  await chromium?.close();
  await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
  await tokenServer?.stop();
  await service?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('tarballs installed with npm outside the workspace', () => {
  it('installs every package from its tarball, with no workspace: range left', async () => {
    for (const name of installClosure(INSTALLED)) {
      const manifest = JSON.parse(
        await readFile(join(project, 'node_modules', name, 'package.json'), 'utf8'),
      );
      expect(manifest.license).toBe('Apache-2.0');
      expect(existsSync(join(project, 'node_modules', name, 'LICENSE'))).toBe(true);
      for (const range of Object.values({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        expect(range).not.toMatch(/^workspace:/);
      }
    }
  });

  it('links each command, and each prints its package version', async () => {
    for (const [command, name] of [
      ['avatar-drive', '@avatar-drive/engine'],
      ['avatar-drive-token-server', '@avatar-drive/token-server'],
    ]) {
      const manifest = JSON.parse(
        await readFile(join(project, 'node_modules', name!, 'package.json'), 'utf8'),
      );
      const { stdout } = await run(join(project, 'node_modules/.bin', command!), ['--version'], {
        cwd: project,
      });
      expect(stdout.trim()).toBe(manifest.version);
    }
  });

  it('a Node script mints a token (token server) and streams a WAV to the service (server-sdk)', async () => {
    const { stdout } = await run(process.execPath, ['speak.mjs', 'speech.wav'], {
      cwd: project,
      timeout: 60_000,
      env: {
        ...process.env,
        SERVICE_URL: service.url,
        TOKEN_SERVER_URL: tokenServer.url,
        APP_ID: service.appId,
      },
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    // One frame per 40 ms of audio, give or take the last partial frame.
    const expected = Math.ceil(result.audioMs / 40);
    expect(result.lastSeen).toBe(true);
    expect(Math.abs(result.serviceFrames - expected)).toBeLessThanOrEqual(1);
    expect(result.serviceJawMax).toBeGreaterThan(0.2);
    expect(Math.abs(result.engineFrames - expected)).toBeLessThanOrEqual(1);
    expect(result.engineJawMax).toBeGreaterThan(0.2);
    expect(result.cjs).toEqual({
      core: 'function',
      serverSdk: 'function',
      engine: 'function',
      tokenServer: 'function',
    });
  }, 90_000);

  it('@avatar-drive/react imports in plain Node (no DOM: server rendering)', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@avatar-drive/react'); console.log(typeof m.AvatarProvider, typeof m.useMicrophone);",
      ],
      { cwd: project, timeout: 30_000 },
    );
    expect(stdout.trim()).toBe('function function');
  });

  describe('client-web and react in Chromium', () => {
    beforeAll(async () => {
      for (const page of ['page-bundled', 'page-react']) {
        await build({
          entryPoints: [join(project, `${page}.js`)],
          outfile: join(project, `${page}.out.js`),
          absWorkingDir: project,
          bundle: true,
          format: 'esm',
          platform: 'browser',
          target: 'es2022',
          logLevel: 'error',
        });
      }
      chromium = await launchChromium({ viewport: { width: 400, height: 400 } });
    }, 60_000);

    for (const page of ['page-bundled.html', 'page-standalone.html', 'page-react.html']) {
      it(`${page}: the avatar speaks (the mouth opens)`, async () => {
        const tab = await chromium.context.newPage();
        const errors: string[] = [];
        tab.on('pageerror', (error) => errors.push(error.message));
        // Console errors (a missing favicon is one) only explain a page that never reports.
        const consoleErrors: string[] = [];
        tab.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        const query = new URLSearchParams({
          appId: service.appId,
          console: service.url,
          token: await sessionToken(),
        });
        await tab.goto(`${pagesOrigin}/${page}?${query}`);
        await tab
          .waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
            timeout: 45_000,
          })
          .catch((error: Error) => {
            const seen = [...errors, ...consoleErrors].join(' | ') || 'none';
            throw new Error(`${error.message} (page errors: ${seen})`);
          });
        const result = await tab.evaluate(() => (window as { __result?: Record<string, unknown> }).__result);
        await tab.close();
        expect(errors).toEqual([]);
        expect(result).toMatchObject({ ok: true, played: true, connection: 'connected' });
        // At rest the jaw is closed (0); speech opens it.
        expect(result!.jawMax as number).toBeGreaterThan(0.1);
        // The React page runs in strict mode: its double mount left one view.
        if (page === 'page-react.html') expect(result!.canvases).toBe(1);
      }, 60_000);
    }
  });
});
