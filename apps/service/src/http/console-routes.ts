/**
 * POST /v1/console/session-tokens (and the alias /v1/auth/session-token some SDKs call), and the
 * app's token-use policy: GET/PUT /v1/console/token-policy.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../credentials/app-registry.js';
import { MAX_TOKEN_TTL_SECONDS, type SessionTokens } from '../credentials/session-tokens.js';
import { httpError } from '../errors.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { type SharedStore, TOKEN_USE_POLICIES, type TokenUsePolicy } from '../store/shared-store.js';
import { apiKeyHeaders, requireApiKey } from './api-key-auth.js';
import { serverOnly } from './cors.js';
import { withStore } from './store-errors.js';

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
  headers: apiKeyHeaders,
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

const policyBody = {
  type: 'object',
  required: ['tokenUse'],
  additionalProperties: false,
  properties: {
    tokenUse: {
      type: 'string',
      enum: TOKEN_USE_POLICIES,
      description:
        '`single` (default): a token opens one session, ever. `sequential`: a token opens a new session only after the previous one it opened closed, until it expires.',
    },
  },
} as const;

const policyResponse = {
  200: {
    type: 'object',
    required: ['appId', 'tokenUse'],
    properties: { appId: { type: 'string' }, tokenUse: { type: 'string', enum: TOKEN_USE_POLICIES } },
  },
  '4xx': { $ref: 'ErrorBody#' },
  '5xx': { $ref: 'ErrorBody#' },
} as const;

export async function consoleRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): Promise<void> {
  const preHandler = requireApiKey(deps.apps);
  app.get(
    '/v1/console/token-policy',
    {
      schema: {
        summary: "The app's token-use policy",
        tags: ['console'],
        headers: apiKeyHeaders,
        response: policyResponse,
      },
      preHandler,
    },
    async (request, reply) => {
      const { appId } = request.apiKeyApp!;
      const tokenUse = await withStore('read the token policy', () => deps.store.tokenPolicy(appId));
      reply.header('cache-control', 'no-store');
      return { appId, tokenUse };
    },
  );
  app.put<{ Body: { tokenUse: TokenUsePolicy } }>(
    '/v1/console/token-policy',
    {
      schema: {
        summary: "Sets the app's token-use policy",
        description:
          'For every node and region sharing the store. Applies to tokens when they open a session, so a change also applies to tokens already minted.',
        tags: ['console'],
        headers: apiKeyHeaders,
        body: policyBody,
        response: policyResponse,
      },
      preHandler,
    },
    async (request, reply) => {
      const { appId } = request.apiKeyApp!;
      const { tokenUse } = request.body;
      await withStore('set the token policy', () => deps.store.setTokenPolicy(appId, tokenUse));
      reply.header('cache-control', 'no-store');
      return { appId, tokenUse };
    },
  );
  const handler = async (request: FastifyRequest<{ Body: TokenBody }>, reply: FastifyReply) => {
    const appRecord = request.apiKeyApp!;
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
    const limit = await withStore('mint tokens', () =>
      deps.store.hit(`tokens:${appRecord.appId}`, deps.limits.tokenRateLimit, deps.limits.tokenRateWindowMs),
    );
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
  app.post<{ Body: TokenBody }>('/v1/console/session-tokens', { schema: tokenSchema, preHandler }, handler);
  app.post<{ Body: TokenBody }>(
    '/v1/auth/session-token',
    { schema: { ...tokenSchema, summary: 'Alias of POST /v1/console/session-tokens' }, preHandler },
    handler,
  );
  // The API key never reaches a browser: no CORS here, and a preflight is refused with the reason.
  serverOnly(app, ['/v1/console/session-tokens', '/v1/auth/session-token', '/v1/console/token-policy']);
}
