/**
 * CORS for the browser-facing console routes only: the avatar list, manifests and asset downloads,
 * which a page reads with its app id or session token. Everything else (session-token minting,
 * which takes the API key; health and metrics) sends no CORS headers, so a browser page on another
 * origin can never read it, and the preflight of a token request is refused with a reason.
 *
 * No cookies or other ambient credentials are involved (`Access-Control-Allow-Credentials` is never
 * sent): a page can only read what the app id or token it holds allows.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';

/** Origins allowed to read the browser-facing routes: any (`*`), a list, or none (empty list). */
export type CorsOrigins = '*' | readonly string[];

/** The default: any origin (see the module comment for why that is safe for these routes). */
export const DEFAULT_CORS_ORIGINS: CorsOrigins = '*';

/** Request headers a browser page may send to the browser-facing routes. */
const ALLOWED_HEADERS = ['x-app-id', 'x-session-key', 'if-none-match'];
/** Response headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'ETag, Retry-After, Content-Range, Accept-Ranges';
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Parses `--cors-origin` / AVATAR_DRIVE_CORS_ORIGIN: `*`, `none`, or comma-separated origins
 * (`scheme://host[:port]`, nothing after).
 * @throws Error naming the first entry that is not an origin.
 */
export function parseCorsOrigins(text: string): CorsOrigins {
  const trimmed = text.trim();
  if (trimmed === '*') return '*';
  if (trimmed === '' || trimmed === 'none') return [];
  return trimmed.split(',').map((entry) => {
    const value = entry.trim().replace(/\/+$/, '');
    let origin: string | undefined;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // reported below
    }
    if (!origin || origin !== value.toLowerCase()) {
      throw new Error(
        `--cors-origin: "${entry.trim()}" is not an origin. Use scheme://host[:port] (e.g. https://app.example.com), a comma-separated list of them, * for any origin, or none.`,
      );
    }
    return origin;
  });
}

function allowedOrigin(origins: CorsOrigins, origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  if (origins === '*') return '*';
  return origins.includes(origin.toLowerCase()) ? origin : undefined;
}

function preflightSchema(summary: string) {
  return {
    summary,
    tags: ['cors'],
    headers: {
      type: 'object',
      properties: {
        origin: { type: 'string' },
        'access-control-request-method': { type: 'string' },
        'access-control-request-headers': { type: 'string' },
      },
    },
    response: {
      204: { description: 'Preflight accepted.', type: 'null' },
      '4xx': { $ref: 'ErrorBody#' },
    },
  } as const;
}

/**
 * Makes the routes of `app` (one encapsulated scope) readable cross-origin by the allowed origins,
 * and answers CORS preflights for `paths` (GET/HEAD with X-App-ID, X-Session-Key, If-None-Match).
 */
export function browserReadable(app: FastifyInstance, origins: CorsOrigins, paths: readonly string[]): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'OPTIONS') return payload;
    const allow = allowedOrigin(origins, request.headers.origin);
    if (origins !== '*') reply.header('vary', 'Origin');
    if (allow) {
      reply.header('access-control-allow-origin', allow);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    return payload;
  });

  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    const method = String(request.headers['access-control-request-method'] ?? '').toUpperCase();
    const requested = String(request.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    if (origins !== '*') reply.header('vary', 'Origin, Access-Control-Request-Headers');
    const refuse = (detail: string) =>
      reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send(errorBody(403, 'invalidRequest', detail));
    if (!origin || !method) {
      return refuse('Not a CORS preflight: send Origin and Access-Control-Request-Method.');
    }
    const allow = allowedOrigin(origins, origin);
    if (!allow) {
      return refuse(
        `Origin ${origin} may not read this service from a browser. The operator allows it with --cors-origin (AVATAR_DRIVE_CORS_ORIGIN).`,
      );
    }
    if (method !== 'GET' && method !== 'HEAD') {
      return refuse(`${method} is not allowed here from a browser; these routes are read-only (GET).`);
    }
    if (requested.includes('x-api-key')) {
      return refuse(
        'X-Api-Key must never be sent from a browser. Identify the page with X-App-ID or a session token (X-Session-Key) minted on your server.',
      );
    }
    const unknown = requested.filter((h) => !ALLOWED_HEADERS.includes(h));
    if (unknown.length > 0) {
      return refuse(
        `Request header(s) ${unknown.join(', ')} are not allowed from a browser. Allowed: X-App-ID, X-Session-Key, If-None-Match.`,
      );
    }
    reply
      .code(204)
      .header('access-control-allow-origin', allow)
      .header('access-control-allow-methods', 'GET, HEAD')
      .header('access-control-allow-headers', 'X-App-ID, X-Session-Key, If-None-Match')
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S))
      .send();
  };
  for (const path of paths) {
    app.options(path, { schema: preflightSchema('CORS preflight of a browser-readable route') }, preflight);
  }
}

/**
 * Refuses CORS preflights for routes a browser must never call (session-token minting takes the
 * API key), with a reason a developer sees in the browser's network panel. No CORS headers.
 */
export function serverOnly(app: FastifyInstance, paths: readonly string[]): void {
  for (const path of paths) {
    app.options(path, { schema: preflightSchema('Refused: a server-only route') }, async (_request, reply) =>
      reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send(
          errorBody(
            403,
            'invalidRequest',
            'This route takes the API key and is not callable from a browser. Mint session tokens on your server (e.g. @avatar-drive/token-server) and hand the page only the token.',
          ),
        ),
    );
  }
}
