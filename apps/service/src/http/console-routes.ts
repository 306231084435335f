/** POST /v1/console/session-tokens (and the alias /v1/auth/session-token some SDKs call). */
import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../credentials/app-registry.js';
import { httpError } from '../errors.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { type SharedStore, StoreUnavailableError } from '../store/shared-store.js';
import { MAX_TOKEN_TTL_SECONDS, type SessionTokens } from '../tokens.js';
import { serverOnly } from './cors.js';

export interface ConsoleRouteDeps {
  apps: AppRegistry;
  tokens: SessionTokens;
  store: SharedStore;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
}

interface TokenBody {
  expireAt: number;
  modelVersion?: string;
}

const tokenSchema = {
  summary: 'Mint a single-use session token',
  description:
    'Exchanges the app API key (header X-Api-Key, server-side only) for a session token a client uses once ' +
    'to open an ingress WebSocket in any region. expireAt is in epoch seconds, now < expireAt < now + 24 h (both strict).',
  tags: ['console'],
  headers: {
    type: 'object',
    properties: { 'x-api-key': { type: 'string', description: 'The app API key.' } },
  },
  body: {
    type: 'object',
    required: ['expireAt'],
    properties: {
      expireAt: { type: 'integer', description: 'Expiry, seconds since the epoch.' },
      modelVersion: { type: 'string', description: 'Reserved; ignored.' },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['sessionToken', 'session_token', 'expireAt'],
      properties: {
        sessionToken: { type: 'string' },
        session_token: { type: 'string', description: 'The same token, for SDKs that read snake_case.' },
        expireAt: { type: 'integer' },
      },
    },
    '4xx': { $ref: 'ErrorBody#' },
    '5xx': { $ref: 'ErrorBody#' },
  },
} as const;

export async function consoleRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): Promise<void> {
  const handler = async (
    request: import('fastify').FastifyRequest<{ Body: TokenBody }>,
    reply: import('fastify').FastifyReply,
  ) => {
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string' || apiKey === '') {
      throw httpError(
        401,
        'appIDUnrecognized',
        'Missing API key. Send it in the X-Api-Key header (from your server, never a browser).',
      );
    }
    const appRecord = deps.apps.byApiKey(apiKey);
    if (!appRecord) {
      throw httpError(
        401,
        'appIDUnrecognized',
        'The API key is not recognized. Check the key configured for your app.',
      );
    }
    const now = Math.floor(Date.now() / 1000);
    const { expireAt } = request.body;
    // Both bounds strict, as the contract says: now < expireAt < now + 24 h.
    if (!(expireAt > now && expireAt < now + MAX_TOKEN_TTL_SECONDS)) {
      throw httpError(
        400,
        'invalidRequest',
        `expireAt must be an epoch time in seconds after now (${now}) and less than 24 h ahead (< ${now + MAX_TOKEN_TTL_SECONDS}); got ${expireAt}.`,
      );
    }
    let limit: Awaited<ReturnType<SharedStore['hit']>>;
    try {
      limit = await deps.store.hit(
        `tokens:${appRecord.appId}`,
        deps.limits.tokenRateLimit,
        deps.limits.tokenRateWindowMs,
      );
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      throw httpError(
        503,
        'upstreamError',
        'The service cannot mint tokens right now (shared store unavailable). Retry with backoff.',
        {
          'retry-after': '1',
        },
      );
    }
    if (!limit.allowed) {
      const seconds = Math.max(1, Math.ceil(limit.retryAfterMs / 1000));
      throw httpError(
        429,
        'concurrencyLimit',
        `Too many session tokens for this app (${deps.limits.tokenRateLimit} per ${deps.limits.tokenRateWindowMs / 1000} s). Retry after ${seconds} s.`,
        { 'retry-after': String(seconds) },
      );
    }
    const { token } = await deps.tokens.mint(appRecord.appId, expireAt);
    deps.metrics.tokensIssued.inc();
    reply.header('cache-control', 'no-store');
    return { sessionToken: token, session_token: token, expireAt };
  };
  app.post('/v1/console/session-tokens', { schema: tokenSchema }, handler);
  app.post(
    '/v1/auth/session-token',
    { schema: { ...tokenSchema, summary: 'Alias of POST /v1/console/session-tokens' } },
    handler,
  );
  // The API key never reaches a browser: no CORS here, and a preflight is refused with the reason.
  serverOnly(app, ['/v1/console/session-tokens', '/v1/auth/session-token']);
}
