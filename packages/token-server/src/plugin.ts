/**
 * The token server as a fastify plugin: mount it in your existing server (under a prefix if you
 * like) or run the bin. Routes:
 *
 * - `POST /token {room?, identity?}` → `{token, url, room, identity}`: a LiveKit access token
 *   (1 h) for the browser, after creating the room and dispatching the configured agent. The
 *   room and identity are the mounting app's decision (`participant` hook); reserved identities
 *   (the avatar's) are never issued. Put the app's own user authentication in front of it.
 * - `POST /session-token {}` → `{sessionToken, expireAt, appId}`: a driving-service session
 *   token, minted with this server's API key (which never leaves the server).
 * - `GET /health` → `{status: 'ok', livekit, avatarDrive}`.
 *
 * Every body is validated by a JSON schema; errors are `{error}`; CORS and rate limiting are
 * configured per plugin instance.
 */
import { isAvatarError } from '@avatar-drive/core';
import { mintSessionToken } from '@avatar-drive/server-sdk';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AccessToken, AgentDispatchClient, RoomServiceClient } from 'livekit-server-sdk';
import {
  checkParticipant,
  DEFAULT_RESERVED_IDENTITIES,
  DEFAULT_ROOM,
  generatedParticipant,
  type ParticipantHook,
  type TokenRequestBody,
} from './participant.js';

/** LiveKit settings for POST /token. */
export interface LiveKitSettings {
  /** LiveKit URL the browser connects to (ws:// or wss://); also used for the server API. */
  url: string;
  apiKey: string;
  apiSecret: string;
  /** URL of the LiveKit server API when it differs from `url` (e.g. an internal address). */
  apiUrl?: string;
  /** Room used when the request names none (default `avatar-drive`). */
  defaultRoom?: string;
  /** Agent dispatched into the room (LiveKit Agents `agentName`); none when unset. */
  agentName?: string;
  /** Metadata passed with the agent dispatch. */
  agentMetadata?: string;
}

/** Driving-service settings for POST /session-token. */
export interface AvatarDriveSettings {
  /** This server's Avatar Drive API key. Never sent anywhere but the console. */
  apiKey: string;
  /** Your app ID (public), returned with the token so the browser can connect. */
  appId: string;
  region?: string;
  backupRegion?: string | null;
  /** Explicit console URL (wins over `region`). */
  consoleUrl?: string;
  /** Token lifetime in seconds (default 300). */
  ttlSeconds?: number;
}

/** The LiveKit server API the plugin uses (replaceable for unit tests). */
export interface LiveKitServerApi {
  createRoom(name: string): Promise<void>;
  dispatchAgent(room: string, agentName: string, metadata?: string): Promise<void>;
}

/** Options of {@link tokenServerPlugin}. */
export interface TokenServerOptions {
  /** LiveKit credentials; POST /token answers 500 without them. */
  livekit?: Partial<LiveKitSettings>;
  /** Driving-service credentials; POST /session-token answers 500 without them. */
  avatarDrive?: Partial<AvatarDriveSettings>;
  /**
   * CORS: `origin` as @fastify/cors takes it (a string, a list, a RegExp, or `true` to reflect
   * any origin). Default: no CORS headers (same-origin only). `false` disables.
   */
  cors?: { origin: string | boolean | RegExp | (string | RegExp)[] } | false;
  /** Requests per client IP per window on the token routes (default 30 per minute); `false` disables. */
  rateLimit?: { max: number; timeWindowMs: number } | false;
  /** Replaces the LiveKit server API calls (tests). */
  livekitApi?: (settings: LiveKitSettings) => LiveKitServerApi;
  /**
   * Decides the room and identity of each POST /token request, from the request (your session,
   * your user). Default: {@link generatedParticipant} — the body's room and a generated
   * `browser-<8 hex>` identity; a body naming an identity is refused (403), since nothing binds
   * it to the caller. {@link referenceParticipant} (the body's identity, for unauthenticated
   * demos) must be chosen explicitly.
   */
  participant?: ParticipantHook;
  /**
   * Identities never issued, whatever the hook returns (exact, case-insensitive; `x*` = prefix).
   * Default {@link DEFAULT_RESERVED_IDENTITIES}: the avatar's and LiveKit agents'.
   */
  reservedIdentities?: readonly string[];
}

/** Lifetime of the LiveKit access tokens POST /token issues. */
export const LIVEKIT_TOKEN_TTL_SECONDS = 3600;
type TokenBody = TokenRequestBody;

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' } },
} as const;

const tokenRouteSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    properties: {
      room: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:=@-]+$' },
      identity: { type: 'string', maxLength: 128 },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['token', 'url', 'room', 'identity'],
      properties: {
        token: { type: 'string' },
        url: { type: 'string' },
        room: { type: 'string' },
        identity: { type: 'string' },
      },
    },
    '4xx': errorSchema,
    '5xx': errorSchema,
  },
} as const;

const sessionTokenRouteSchema = {
  body: { type: 'object', additionalProperties: false, properties: {} },
  response: {
    200: {
      type: 'object',
      required: ['sessionToken', 'expireAt', 'appId'],
      properties: {
        sessionToken: { type: 'string' },
        expireAt: { type: 'integer' },
        appId: { type: 'string' },
      },
    },
    '4xx': errorSchema,
    '5xx': errorSchema,
  },
} as const;

/** A LiveKit server API over livekit-server-sdk's RoomServiceClient and AgentDispatchClient. */
export function livekitServerApi(settings: LiveKitSettings): LiveKitServerApi {
  const host = (settings.apiUrl ?? settings.url).replace(/^ws(s?):\/\//, 'http$1://');
  const rooms = new RoomServiceClient(host, settings.apiKey, settings.apiSecret);
  const dispatch = new AgentDispatchClient(host, settings.apiKey, settings.apiSecret);
  return {
    async createRoom(name) {
      try {
        await rooms.createRoom({ name });
      } catch (error) {
        // Another request (or LiveKit's auto-create) got there first: the room is there.
        if (isAlreadyExists(error)) return;
        throw error;
      }
    },
    async dispatchAgent(room, agentName, metadata) {
      await dispatch.createDispatch(room, agentName, metadata === undefined ? {} : { metadata });
    },
  };
}

function isAlreadyExists(error: unknown): boolean {
  const e = error as { code?: unknown; status?: unknown; message?: unknown };
  return (
    e?.code === 'already_exists' || e?.status === 409 || /already exists/i.test(String(e?.message ?? ''))
  );
}

function completeLiveKit(settings: Partial<LiveKitSettings> | undefined): LiveKitSettings | undefined {
  if (!settings?.url || !settings.apiKey || !settings.apiSecret) return undefined;
  return settings as LiveKitSettings;
}

function completeAvatarDrive(
  settings: Partial<AvatarDriveSettings> | undefined,
): AvatarDriveSettings | undefined {
  if (!settings?.apiKey || !settings.appId) return undefined;
  return settings as AvatarDriveSettings;
}

/**
 * The token routes as a fastify plugin.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { tokenServerPlugin } from '@avatar-drive/token-server';
 *
 * const app = Fastify({ logger: true });
 * await app.register(tokenServerPlugin, {
 *   prefix: '/api',
 *   livekit: { url: process.env.LIVEKIT_URL, apiKey: process.env.LIVEKIT_API_KEY, apiSecret: process.env.LIVEKIT_API_SECRET, agentName: 'avatar-agent' },
 *   avatarDrive: { apiKey: process.env.AVATAR_DRIVE_API_KEY, appId: process.env.AVATAR_DRIVE_APP_ID, region: 'us-west' },
 *   cors: { origin: ['https://app.example.com'] },
 * });
 * ```
 */
export const tokenServerPlugin: FastifyPluginAsync<TokenServerOptions> = async (
  app: FastifyInstance,
  options: TokenServerOptions,
) => {
  const livekit = completeLiveKit(options.livekit);
  const avatarDrive = completeAvatarDrive(options.avatarDrive);
  const api = livekit ? (options.livekitApi ?? livekitServerApi)(livekit) : undefined;
  const decide = options.participant ?? generatedParticipant(livekit?.defaultRoom ?? DEFAULT_ROOM);
  const reserved = options.reservedIdentities ?? DEFAULT_RESERVED_IDENTITIES;

  if (options.cors) {
    await app.register(cors, { origin: options.cors.origin, methods: ['GET', 'POST'], maxAge: 600 });
  }
  const limit = options.rateLimit === undefined ? { max: 30, timeWindowMs: 60_000 } : options.rateLimit;
  if (limit) {
    await app.register(rateLimit, {
      global: false,
      max: limit.max,
      timeWindow: limit.timeWindowMs,
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        error: `Too many requests: at most ${context.max} per ${context.after}. Retry in ${context.after}.`,
      }),
    });
  }
  const rateLimitConfig: { rateLimit: { max: number; timeWindow: number } | false } = {
    rateLimit: limit ? { max: limit.max, timeWindow: limit.timeWindowMs } : false,
  };

  // A POST without a body is the same as `{}` (every field is optional).
  app.addHook('preValidation', async (request) => {
    if (request.method === 'POST' && request.body === undefined) request.body = {};
  });

  // Errors as data: `{error}` with a message that says what to do.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.status(400).send({
        error: `Invalid request body: ${error.message}. Send JSON like {"room": "my-room", "identity": "alice"}.`,
      });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'token server error');
    const message =
      status === 429
        ? ((error as unknown as { error?: string }).error ?? error.message)
        : status >= 500
          ? 'The token server failed; see its log.'
          : error.message;
    return reply.status(status).send({ error: message });
  });

  app.get(
    '/health',
    { schema: { response: { 200: { type: 'object', additionalProperties: true } } } },
    async () => ({
      status: 'ok',
      livekit: livekit !== undefined,
      avatarDrive: avatarDrive !== undefined,
    }),
  );

  app.post<{ Body: TokenBody }>(
    '/token',
    { schema: tokenRouteSchema, config: rateLimitConfig },
    async (request, reply) => {
      if (!livekit || !api) {
        return reply.status(500).send({
          error:
            'LiveKit credentials are not configured on the token server: set LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET.',
        });
      }
      const { room, identity, name } = checkParticipant(await decide(request), reserved);

      const accessToken = new AccessToken(livekit.apiKey, livekit.apiSecret, {
        identity,
        name,
        ttl: LIVEKIT_TOKEN_TTL_SECONDS,
      });
      accessToken.addGrant({
        roomJoin: true,
        room,
        canPublish: true,
        canSubscribe: true,
        canPublishData: true,
      });
      const token = await accessToken.toJwt();

      try {
        await api.createRoom(room);
      } catch (error) {
        request.log.error({ room, err: describe(error) }, 'LiveKit room creation failed');
        return reply.status(502).send({
          error: `Could not create LiveKit room "${room}": ${describe(error)}. Check LIVEKIT_URL and that the LiveKit server is up.`,
        });
      }
      if (livekit.agentName) {
        try {
          await api.dispatchAgent(room, livekit.agentName, livekit.agentMetadata);
          request.log.info({ room, agentName: livekit.agentName }, 'agent dispatched');
        } catch (error) {
          // The browser can still join; the agent may be dispatched again on the next request.
          request.log.warn(
            { room, agentName: livekit.agentName, err: describe(error) },
            'agent dispatch failed',
          );
        }
      }
      return { token, url: livekit.url, room, identity };
    },
  );

  app.post(
    '/session-token',
    { schema: sessionTokenRouteSchema, config: rateLimitConfig },
    async (request, reply) => {
      if (!avatarDrive) {
        return reply.status(500).send({
          error:
            'Avatar Drive credentials are not configured on the token server: set AVATAR_DRIVE_API_KEY and AVATAR_DRIVE_APP_ID.',
        });
      }
      try {
        const minted = await mintSessionToken({
          apiKey: avatarDrive.apiKey,
          ttlSeconds: avatarDrive.ttlSeconds ?? 300,
          ...(avatarDrive.consoleUrl !== undefined && { consoleUrl: avatarDrive.consoleUrl }),
          ...(avatarDrive.region !== undefined && { region: avatarDrive.region }),
          ...(avatarDrive.backupRegion !== undefined && { backupRegion: avatarDrive.backupRegion }),
        });
        reply.header('cache-control', 'no-store');
        return { sessionToken: minted.sessionToken, expireAt: minted.expireAt, appId: avatarDrive.appId };
      } catch (error) {
        if (!isAvatarError(error)) throw error;
        // The messages never contain the API key (server-sdk redacts it); log the detail for the operator.
        request.log.error(
          { code: error.code, httpStatus: error.httpStatus, msg: error.message },
          'session token mint failed',
        );
        if (error.code === 'concurrencyLimit') {
          const after = Number(error.details?.retryAfterSeconds ?? 1);
          reply.header('retry-after', String(Math.max(1, Math.ceil(after))));
          return reply.status(429).send({ error: 'Too many session tokens right now; retry shortly.' });
        }
        if (error.retryable) {
          return reply.status(503).send({ error: 'The driving service is unavailable; retry shortly.' });
        }
        // Bad API key, bad config: the operator's problem, not the browser's; no detail leaks.
        return reply
          .status(500)
          .send({ error: 'The token server could not mint a session token; see its log.' });
      }
    },
  );
};

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
