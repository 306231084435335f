/**
 * The demo's web server: the built page, its run-time config, and the console's avatar routes
 * proxied onto the page's origin (client-web fetches manifests and assets from the console URL,
 * so a browser needs it same-origin or behind CORS; a reverse proxy is what a real app does).
 * Avatar reads go to the primary region's console and fall over to the backup when it is down.
 * `POST /demo/avatars` uploads the visitor's own .glb / .vrm / LAM .zip to the primary region with the app's
 * API key, which stays in this process: the page never sees it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

/** What the page reads from `/demo-config.json`. */
export interface DemoConfig {
  /** Public app id (never the API key). */
  appId: string;
  primaryRegion: string;
  backupRegion: string;
  /** Ingress WebSocket URL per region; the console is this page's origin (proxied). */
  ingress: Record<string, string>;
  /** The token server's POST /session-token. */
  tokenUrl: string;
  /** The Host-mode relay example's WebSocket. */
  relayUrl: string;
}

export interface DemoServerOptions {
  /** The built page (`apps/demo/dist`). */
  root: string;
  host?: string;
  port: number;
  config: DemoConfig;
  /** Console base URLs to proxy avatar reads to, primary first. */
  consoles: readonly string[];
  /**
   * The app's API key, for `POST /demo/avatars` (uploads) only; never sent to the page. Without
   * it the upload route answers 503.
   */
  apiKey?: string;
  /** Largest upload accepted before forwarding (bytes); default 32 MiB. */
  maxUploadBytes?: number;
}

/** Where the page uploads an avatar file (the body) to; `?name=` sets its display name. */
export const UPLOAD_PATH = '/demo/avatars';
/** The types the upload route forwards (the console's: glTF binary, VRM, LAM zip). */
const UPLOAD_TYPES = new Set([
  'model/gltf-binary',
  'model/vrm',
  'application/zip',
  'application/octet-stream',
]);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wav': 'audio/wav',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Starts the server; resolves once it listens. */
export async function startDemoServer(options: DemoServerOptions): Promise<Server> {
  const root = resolve(options.root);
  const server = createServer((req, res) => {
    handle(req, res, root, options).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`demo server error: ${error.message}`);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', () => ok());
  });
  return server;
}

/** The port a started server listens on. */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

async function handle(req: IncomingMessage, res: ServerResponse, root: string, options: DemoServerOptions) {
  const url = new URL(req.url ?? '/', 'http://demo.invalid');
  if (url.pathname === '/demo-config.json') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(options.config));
    return;
  }
  if (url.pathname === UPLOAD_PATH) {
    await upload(req, res, url, options);
    return;
  }
  if (url.pathname.startsWith('/v1/console/avatars')) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    await proxy(req, res, options.consoles);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  await serveFile(res, root, url.pathname);
}

async function serveFile(res: ServerResponse, root: string, pathname: string) {
  let file = normalize(join(root, decodeURIComponent(pathname)));
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    file = join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info) {
    // A single page: unknown paths get the page (but not missing files with an extension).
    if (extname(pathname)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    file = join(root, 'index.html');
    info = await stat(file);
  }
  const hashed = file.includes(`${join(root, 'assets')}`);
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(file).pipe(res);
}

/**
 * Forwards the request to the first console that answers, as a reverse proxy does: with
 * X-Forwarded-Host/-Proto naming this page's origin, so the asset URLs in manifests point back
 * here (the stack starts the services with this server as a trusted proxy; docs/deploy.md).
 */
async function proxy(req: IncomingMessage, res: ServerResponse, consoles: readonly string[]) {
  const headers = {
    ...req.headers,
    'x-forwarded-host': req.headers.host ?? '',
    'x-forwarded-proto': 'http',
    'x-forwarded-for': req.socket.remoteAddress ?? '',
  };
  for (const base of consoles) {
    const target = new URL(req.url ?? '/', base);
    const upstream = await new Promise<IncomingMessage | undefined>((ok) => {
      const out = httpRequest(target, { method: req.method, headers, timeout: 5000 }, ok);
      out.on('error', () => ok(undefined));
      out.on('timeout', () => out.destroy());
      out.end();
    });
    if (!upstream) continue;
    res.writeHead(upstream.statusCode ?? 502, upstream.headers);
    upstream.pipe(res);
    return;
  }
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      errors: [
        {
          status: 502,
          code: 'upstreamError',
          title: 'No region reachable',
          detail: 'No Avatar Drive console answered; start the service (pnpm start) and reload.',
        },
      ],
    }),
  );
}

/**
 * The upload route: checks the request (method, type, size), then forwards the file to the
 * console's `POST /v1/console/avatars` with the API key added here, and passes the answer (the
 * avatar's manifest and coverage report, or the typed refusal) back unchanged.
 */
async function upload(req: IncomingMessage, res: ServerResponse, url: URL, options: DemoServerOptions) {
  const fail = (status: number, code: string, detail: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ errors: [{ status, code, title: 'Upload refused', detail }] }));
  };
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  if (!options.apiKey) {
    fail(503, 'upstreamError', 'This demo server has no API key configured, so it cannot upload avatars.');
    return;
  }
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!UPLOAD_TYPES.has(type)) {
    fail(
      415,
      'invalidRequest',
      'Send the .glb or .vrm file itself as the body (Content-Type: model/gltf-binary), or a LAM avatar zip (Content-Type: application/zip).',
    );
    return;
  }
  const limit = options.maxUploadBytes ?? 32 * 1024 * 1024;
  const body = await readBody(req, limit);
  if (!body) {
    fail(413, 'invalidRequest', `The file is larger than this demo accepts (${limit} bytes).`);
    return;
  }
  const name = url.searchParams.get('name');
  const query = name ? `?name=${encodeURIComponent(name.slice(0, 100))}` : '';
  for (const base of options.consoles.slice(0, 1)) {
    const upstream = await new Promise<IncomingMessage | undefined>((ok) => {
      const out = httpRequest(
        new URL(`/v1/console/avatars${query}`, base),
        {
          method: 'POST',
          headers: {
            // The console reads the format from the bytes; the type only has to be one it takes.
            'content-type': type,
            'content-length': String(body.byteLength),
            'x-api-key': options.apiKey!,
            // Asset URLs in the answer point back to this origin, like every proxied read.
            'x-forwarded-host': req.headers.host ?? '',
            'x-forwarded-proto': 'http',
            'x-forwarded-for': req.socket.remoteAddress ?? '',
          },
          timeout: 60_000,
        },
        ok,
      );
      out.on('error', () => ok(undefined));
      out.on('timeout', () => out.destroy());
      out.end(body);
    });
    if (!upstream) break;
    res.writeHead(upstream.statusCode ?? 502, {
      'content-type': upstream.headers['content-type'] ?? 'application/json',
      'cache-control': 'no-store',
    });
    upstream.pipe(res);
    return;
  }
  fail(502, 'upstreamError', "The primary region's console did not answer; start the service (pnpm start).");
}

/** The request body, or `undefined` once it passes `limit` bytes (the rest is discarded). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length']) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
