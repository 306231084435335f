// @vitest-environment node
/**
 * Without a DOM: importing the package (source and build) does not throw, a server render
 * outputs the view's div and the initial states without setting up the SDK; and
 * `sessionTokenFrom` against a real HTTP server.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AvatarSDK } from '@avatar-drive/client-web';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AvatarProvider,
  AvatarView,
  sessionTokenFrom,
  useAvatarController,
  useAvatarError,
  useConnectionState,
  useConversationState,
} from '../src/index.js';

const run = promisify(execFile);
const PACKAGE = join(import.meta.dirname, '..');

/** The states as text. */
function Status(): ReactNode {
  const { controller } = useAvatarController();
  return (
    <p>
      {useConnectionState()}/{useConversationState()}/{useAvatarError()?.code ?? 'ok'}/
      {controller ? 'controller' : 'none'}
    </p>
  );
}

describe('server side (no DOM)', () => {
  it('runs with no window or document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('the built package imports in plain Node', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@avatar-drive/react'); console.log(Object.keys(m).sort().join(','));",
      ],
      { cwd: PACKAGE },
    );
    expect(stdout.trim().split(',')).toEqual(
      expect.arrayContaining(['AvatarProvider', 'AvatarView', 'useAvatarController', 'useMicrophone']),
    );
  });

  it('a server render shows the view div and initial states, and sets up nothing', () => {
    const html = renderToString(
      <AvatarProvider appId="app_ssr" options={{ drivingServiceMode: 'sdk' }} tokenUrl="/token">
        <AvatarView avatarId="mika" className="avatar" />
        <Status />
      </AvatarProvider>,
    );
    expect(html).toContain('class="avatar"');
    expect(html.replace(/<!-- -->/g, '')).toContain('<p>disconnected/idle/ok/none</p>');
    expect(AvatarSDK.isInitialized).toBe(false);
  });

  it('a hook outside a provider throws a typed error naming the provider', () => {
    expect(() => renderToString(<Status />)).toThrow(
      expect.objectContaining({ code: 'invalidState', message: expect.stringContaining('<AvatarProvider>') }),
    );
  });
});

describe('sessionTokenFrom', () => {
  let server: Server;
  let base: string;
  const bodies: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
        if (req.url === '/json')
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"sessionToken":"t.json"}');
        else if (req.url === '/text') res.writeHead(200, { 'content-type': 'text/plain' }).end('t.text\n');
        else if (req.url === '/empty')
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"x"}');
        else if (req.url === '/busy') res.writeHead(429).end();
        else res.writeHead(500).end('{"error":"boom"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('POSTs {} and reads the token from JSON or text', async () => {
    expect(await sessionTokenFrom(`${base}/json`)()).toBe('t.json');
    expect(await sessionTokenFrom(`${base}/text`)()).toBe('t.text');
    expect(bodies[0]).toBe('POST /json application/json {}');
  });

  it('fails with typed errors that say what to fix', async () => {
    await expect(sessionTokenFrom(`${base}/empty`)()).rejects.toMatchObject({
      code: 'invalidRequest',
      message: expect.stringContaining('sessionToken'),
    });
    await expect(sessionTokenFrom(`${base}/busy`)()).rejects.toMatchObject({
      code: 'concurrencyLimit',
      httpStatus: 429,
      retryable: true,
    });
    await expect(sessionTokenFrom(`${base}/fail`)()).rejects.toMatchObject({
      code: 'connectionFailed',
      httpStatus: 500,
    });
    await expect(sessionTokenFrom('http://127.0.0.1:9/none')()).rejects.toMatchObject({
      code: 'connectionFailed',
      message: expect.stringContaining('CORS'),
    });
  });
});
