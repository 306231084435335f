/**
 * Avatar manifests and assets. Asset URLs carry the content hash, so they are served with a strong
 * ETag and `immutable` caching, and answer conditional (If-None-Match) and range requests. Readable with an API key, a session token (checked, not consumed)
 * or an app id.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Avatar, AvatarCatalog } from '../avatars/avatar-catalog.js';
import type { AppRegistry } from '../credentials/app-registry.js';
import { httpError } from '../errors.js';
import type { SessionTokens } from '../tokens.js';
import { notModified, requestedRange } from './conditional-range.js';
import { browserReadable, type CorsOrigins, DEFAULT_CORS_ORIGINS } from './cors.js';

export interface AvatarRouteDeps {
  avatars: AvatarCatalog;
  apps: AppRegistry;
  tokens: SessionTokens;
  /** Origin used in asset URLs; the request's own origin when unset. */
  publicUrl?: string;
  /** Origins whose pages may read these routes (default any: {@link DEFAULT_CORS_ORIGINS}). */
  corsOrigins?: CorsOrigins;
}

const authQuery = {
  type: 'object',
  properties: {
    appId: { type: 'string', description: 'App id (alternative to the X-App-ID header).' },
    sessionKey: { type: 'string', description: 'Session token (alternative to X-Session-Key).' },
  },
} as const;

const assetSchema = {
  type: 'object',
  required: ['kind', 'name', 'url', 'contentType', 'sha256', 'size'],
  properties: {
    kind: { type: 'string' },
    name: { type: 'string' },
    url: { type: 'string' },
    contentType: { type: 'string' },
    sha256: { type: 'string' },
    size: { type: 'integer' },
  },
} as const;

const manifestSchema = {
  $id: 'AvatarManifest',
  type: 'object',
  required: ['id', 'name', 'rig', 'morphTargets', 'assets'],
  additionalProperties: true,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    rig: { type: 'string' },
    morphTargets: {
      type: 'object',
      properties: { arkit: { type: 'integer' }, visemes: { type: 'integer' } },
    },
    assets: { type: 'array', items: assetSchema },
  },
} as const;

export async function avatarRoutes(app: FastifyInstance, deps: AvatarRouteDeps): Promise<void> {
  app.addSchema(manifestSchema);
  browserReadable(app, deps.corsOrigins ?? DEFAULT_CORS_ORIGINS, [
    '/v1/console/avatars',
    '/v1/console/avatars/:id',
    '/v1/console/avatars/:id/assets/:sha256/:name',
  ]);

  const authenticate = async (request: FastifyRequest): Promise<string> => {
    const query = request.query as { appId?: string; sessionKey?: string };
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey) {
      const found = deps.apps.byApiKey(apiKey);
      if (!found) throw httpError(401, 'appIDUnrecognized', 'The API key is not recognized.');
      return found.appId;
    }
    const sessionKey = headerValue(request, 'x-session-key') ?? query.sessionKey;
    if (sessionKey) {
      try {
        return (await deps.tokens.verify(sessionKey)).appId;
      } catch (error) {
        const e = error as import('@avatar-drive/core').AvatarError;
        throw httpError(401, e.code, e.message);
      }
    }
    const appId = headerValue(request, 'x-app-id') ?? query.appId;
    if (appId) {
      if (!deps.apps.byId(appId)) {
        throw httpError(401, 'appIDUnrecognized', `App id "${appId}" is not recognized. Check your app id.`);
      }
      return appId;
    }
    throw httpError(
      401,
      'appIDUnrecognized',
      'Identify your app: X-App-ID (or ?appId=), a session token (X-Session-Key or ?sessionKey=), or X-Api-Key from a server.',
    );
  };

  const origin = (request: FastifyRequest) => deps.publicUrl ?? `${request.protocol}://${request.host}`;
  const manifest = (avatar: Avatar, base: string) => {
    const url = `${base}/v1/console/avatars/${encodeURIComponent(avatar.id)}/assets/${avatar.model.sha256}/${avatar.model.name}`;
    return {
      ...avatar.extra,
      id: avatar.id,
      name: avatar.name,
      rig: avatar.rig,
      morphTargets: avatar.morphTargets,
      // The @avatar-drive/avatars manifest shape, with the model's URI made absolute.
      model: { uri: url, format: 'glb', bytes: avatar.model.size, sha256: avatar.model.sha256 },
      assets: [
        {
          kind: 'model',
          name: avatar.model.name,
          url,
          contentType: avatar.model.contentType,
          sha256: avatar.model.sha256,
          size: avatar.model.size,
        },
      ],
    };
  };

  app.get(
    '/v1/console/avatars',
    {
      schema: {
        summary: 'List the avatars this service serves',
        tags: ['avatars'],
        querystring: authQuery,
        response: {
          200: {
            type: 'object',
            required: ['avatars'],
            properties: { avatars: { type: 'array', items: { $ref: 'AvatarManifest#' } } },
          },
          '4xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request) => {
      await authenticate(request);
      const base = origin(request);
      return { avatars: deps.avatars.list().map((a) => manifest(a, base)) };
    },
  );

  app.get(
    '/v1/console/avatars/:id',
    {
      schema: {
        summary: "One avatar's manifest",
        tags: ['avatars'],
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        querystring: authQuery,
        response: { 200: { $ref: 'AvatarManifest#' }, '4xx': { $ref: 'ErrorBody#' } },
      },
    },
    async (request) => {
      await authenticate(request);
      const { id } = request.params as { id: string };
      const avatar = deps.avatars.get(id);
      if (!avatar)
        throw httpError(
          404,
          'avatarNotFound',
          `Avatar "${id}" does not exist here. GET /v1/console/avatars lists them.`,
        );
      return manifest(avatar, origin(request));
    },
  );

  app.get(
    '/v1/console/avatars/:id/assets/:sha256/:name',
    {
      schema: {
        summary: 'Download an avatar asset (immutable, content-addressed)',
        tags: ['avatars'],
        params: {
          type: 'object',
          required: ['id', 'sha256', 'name'],
          properties: { id: { type: 'string' }, sha256: { type: 'string' }, name: { type: 'string' } },
        },
        querystring: authQuery,
        response: {
          200: { description: 'The asset bytes.', type: 'string', format: 'binary' },
          206: { description: 'The requested byte range.', type: 'string', format: 'binary' },
          304: { description: 'Not modified.', type: 'null' },
          416: { description: 'The range lies outside the asset.', type: 'null' },
          '4xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      await authenticate(request);
      const { id, sha256, name } = request.params as { id: string; sha256: string; name: string };
      const avatar = deps.avatars.get(id);
      const asset = avatar?.model;
      if (!asset || asset.name !== name || asset.sha256 !== sha256) {
        throw httpError(
          404,
          'avatarNotFound',
          `No asset ${name} with hash ${sha256} for avatar "${id}". Re-read the avatar manifest for current URLs.`,
        );
      }
      const etag = `"sha256-${asset.sha256}"`;
      reply.header('etag', etag);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('accept-ranges', 'bytes');
      if (notModified(headerValue(request, 'if-none-match'), etag)) {
        return reply.code(304).send();
      }
      const range = requestedRange(
        headerValue(request, 'range'),
        headerValue(request, 'if-range'),
        asset.size,
        etag,
      );
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${asset.size}`);
        return reply.code(416).send();
      }
      reply.header('content-type', asset.contentType);
      if (range) {
        reply.code(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${asset.size}`);
        reply.header('content-length', String(range.end - range.start + 1));
        return reply.send(createReadStream(asset.path, { start: range.start, end: range.end }));
      }
      reply.header('content-length', String(asset.size));
      return reply.send(createReadStream(asset.path));
    },
  );
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}
