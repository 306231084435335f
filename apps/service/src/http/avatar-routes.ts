/**
 * Avatar manifests and assets, and an app's own avatars. Asset URLs carry the content hash, so they
 * are served with a strong ETag and `immutable` caching, and answer conditional (If-None-Match) and
 * range requests. Reading: an API key, a session token (checked, not consumed) or an app id; each
 * app sees the built-ins and its own uploads only. Uploading and deleting: the API key only
 * (servers; browsers are refused at the preflight).
 */
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AvatarDirectory, AvatarView } from '../avatars/avatar-directory.js';
import { type AvatarUploads, cleanName } from '../avatars/avatar-uploads.js';
import { fileProblem } from '../avatars/file-problem.js';
import { requestOrigin, type TrustedProxies } from '../client-address.js';
import type { AppRegistry } from '../credentials/app-registry.js';
import type { SessionTokens } from '../credentials/session-tokens.js';
import { httpError } from '../errors.js';
import { StoreUnavailableError } from '../store/shared-store.js';
import { notModified, requestedRange } from './conditional-range.js';
import { browserReadable, type CorsOrigins, DEFAULT_CORS_ORIGINS } from './cors.js';

export interface AvatarRouteDeps {
  /** Built-ins and every app's uploads. */
  directory: AvatarDirectory;
  uploads: AvatarUploads;
  apps: AppRegistry;
  tokens: SessionTokens;
  /**
   * Origin used in asset URLs. Unset: X-Forwarded-Proto/-Host from a trusted proxy, else the local
   * address the request arrived on — never the client's Host header (those URLs go to other clients).
   */
  publicUrl?: string;
  /** Peers whose X-Forwarded-* headers are believed. */
  trustedProxies: TrustedProxies;
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
  required: ['id', 'name', 'rig', 'owner', 'format', 'assets'],
  additionalProperties: true,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    rig: { type: 'string' },
    owner: {
      type: 'string',
      enum: ['builtin', 'app'],
      description: '`builtin`: served to every app; `app`: uploaded by this app, seen by it only.',
    },
    format: {
      type: 'string',
      enum: ['glb', 'vrm', 'lam'],
      description:
        '`lam`: a LAM Gaussian-splat avatar (the asset is its zip: skin.glb, offset.ply, vertex_order.json, animation.glb).',
    },
    splats: { type: 'integer', description: '`lam`: how many Gaussians the head has (one per mesh vertex).' },
    vrmVersion: { type: 'integer', description: 'VRM major version (0 or 1) of a `vrm`.' },
    morphTargets: {
      type: 'object',
      properties: { arkit: { type: 'integer' }, visemes: { type: 'integer' } },
    },
    coverage: {
      type: 'object',
      additionalProperties: true,
      description:
        'Which drive channels the avatar binds (format, mouth, counts, missing, fallbacks, warnings; the upload response has the full report).',
    },
    createdAt: { type: 'string', description: 'Uploads: when, ISO 8601.' },
    assets: { type: 'array', items: assetSchema },
  },
} as const;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 128 } },
} as const;

// Not `required`: a missing key is a 401 with the reason (from the handler), not a schema 400.
const apiKeyHeaders = {
  type: 'object',
  properties: { 'x-api-key': { type: 'string', description: 'The app API key (servers only).' } },
} as const;

/** Content types an upload may be sent as (the bytes of a .glb or .vrm file, or a LAM avatar .zip). */
const UPLOAD_TYPES = ['model/gltf-binary', 'model/vrm', 'application/zip', 'application/octet-stream'];

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

  const apiKeyApp = (request: FastifyRequest): string => {
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string' || apiKey === '') {
      throw httpError(
        401,
        'appIDUnrecognized',
        'Missing API key. Send it in the X-Api-Key header (from your server, never a browser).',
      );
    }
    const found = deps.apps.byApiKey(apiKey);
    if (!found)
      throw httpError(
        401,
        'appIDUnrecognized',
        'The API key is not recognized. Check the key configured for your app.',
      );
    return found.appId;
  };

  const origin = (request: FastifyRequest) =>
    deps.publicUrl ?? requestOrigin(request.raw, deps.trustedProxies).origin;
  const manifest = (avatar: AvatarView, base: string) => {
    const url = `${base}/v1/console/avatars/${encodeURIComponent(avatar.id)}/assets/${avatar.model.sha256}/${avatar.model.name}`;
    const upload = avatar.upload;
    return {
      ...avatar.extra,
      id: avatar.id,
      name: avatar.name,
      rig: avatar.rig,
      owner: avatar.owner,
      format: avatar.format,
      ...(upload?.vrmVersion !== undefined && { vrmVersion: upload.vrmVersion }),
      ...(upload?.splats !== undefined && { splats: upload.splats }),
      ...(avatar.morphTargets && { morphTargets: avatar.morphTargets }),
      coverage: avatar.coverage,
      ...(upload && { createdAt: upload.createdAt }),
      // The @avatar-drive/avatars manifest shape, with the model's URI made absolute.
      model: { uri: url, format: avatar.format, bytes: avatar.model.size, sha256: avatar.model.sha256 },
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
  const notFound = (id: string) =>
    httpError(
      404,
      'avatarNotFound',
      `Avatar "${id}" does not exist for this app. GET /v1/console/avatars lists them.`,
    );

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
            properties: {
              avatars: { type: 'array', items: { $ref: 'AvatarManifest#' } },
              skipped: {
                type: 'array',
                description:
                  'With X-Api-Key: files of the avatars directory that were not served, and why (missing model file, sha256 mismatch, failed checks).',
                items: {
                  type: 'object',
                  required: ['file', 'reason'],
                  properties: { file: { type: 'string' }, reason: { type: 'string' } },
                },
              },
            },
          },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request) => {
      const appId = await authenticate(request);
      const base = origin(request);
      const avatars = await withStore(() => deps.directory.list(appId));
      const operator = typeof request.headers['x-api-key'] === 'string';
      return {
        avatars: avatars.map((a) => manifest(a, base)),
        ...(operator && {
          skipped: deps.directory.builtIns.problems.map((p) => ({ file: p.file, reason: p.reason })),
        }),
      };
    },
  );

  app.register(async (scope) => {
    // The upload body is the file itself; only this route reads these content types.
    scope.addContentTypeParser(
      UPLOAD_TYPES,
      { parseAs: 'buffer', bodyLimit: deps.uploads.limits.maxBytes + 1 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/v1/console/avatars',
      {
        bodyLimit: deps.uploads.limits.maxBytes + 1,
        schema: {
          summary: "Upload one of the app's own avatars (.glb, .vrm, or a LAM Gaussian-splat .zip)",
          description:
            'The body is the file (Content-Type: model/gltf-binary; application/zip for a LAM "arkitWithBSData" zip, ' +
            'whose archive, offset.ply, vertex_order.json and counts are checked, then its skin.glb like any GLB). It is checked (GLB structure, sizes, ' +
            'URIs, VRM extension), validated with the Khronos glTF validator, stored by its SHA-256 and ' +
            "recorded for this app in the region's shared store. The answer carries the avatar's manifest " +
            'and its full coverage report. Refusals: 413 avatarTooLarge, 422 avatarInvalid ' +
            '(the detail says what to fix; `problem` in the error names the kind), 409 when the app has too many avatars.',
          tags: ['avatars'],
          security: [{ apiKey: [] }],
          headers: apiKeyHeaders,
          querystring: {
            type: 'object',
            properties: {
              name: {
                type: 'string',
                minLength: 1,
                maxLength: 100,
                description: 'Display name (default: the VRM title, else "Uploaded avatar").',
              },
            },
            additionalProperties: false,
          },
          // The bytes are checked by the upload pipeline, not by JSON schema: the schemas only
          // document the content types (an untyped schema accepts the Buffer the parser makes).
          body: {
            content: Object.fromEntries(
              UPLOAD_TYPES.map((type) => [
                type,
                { schema: { description: 'The .glb or .vrm file, or the LAM avatar .zip (binary).' } },
              ]),
            ),
          },
          response: {
            201: {
              type: 'object',
              required: ['avatar', 'coverage', 'validation'],
              properties: {
                avatar: { $ref: 'AvatarManifest#' },
                coverage: {
                  type: 'object',
                  additionalProperties: true,
                  description: "@avatar-drive/core's AvatarCoverage of the file.",
                },
                validation: {
                  type: 'object',
                  properties: {
                    validatorVersion: { type: 'string' },
                    warnings: { type: 'integer' },
                    warningIssues: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          code: { type: 'string' },
                          message: { type: 'string' },
                          pointer: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
            '4xx': { $ref: 'ErrorBody#' },
            '5xx': { $ref: 'ErrorBody#' },
          },
        },
        onRequest: async (request) => {
          const type = String(request.headers['content-type'] ?? '')
            .split(';')[0]!
            .trim()
            .toLowerCase();
          if (!UPLOAD_TYPES.includes(type)) {
            throw httpError(
              415,
              'invalidRequest',
              'Send the .glb/.vrm file (or LAM .zip) itself as the body with Content-Type: model/gltf-binary or application/zip (curl: --data-binary @avatar.vrm -H "Content-Type: model/gltf-binary").',
            );
          }
          const declared = Number(request.headers['content-length']);
          if (declared > deps.uploads.limits.maxBytes)
            throw tooLarge(deps.uploads.limits.maxBytes, `${declared} bytes`);
        },
        // A body without Content-Length (chunked) is counted as it arrives and cut off at the limit.
        preParsing: async (_request, _reply, payload) =>
          payload.pipe(byteLimit(deps.uploads.limits.maxBytes)),
      },
      async (request, reply) => {
        const appId = apiKeyApp(request);
        const { name } = request.query as { name?: string };
        const body = request.body as Buffer;
        const result = await withStore(() =>
          deps.uploads.upload(appId, body, name === undefined ? undefined : cleanName(name) || undefined),
        );
        reply.code(201).header('cache-control', 'no-store');
        return {
          avatar: manifest(deps.directory.uploadView(result.record), origin(request)),
          coverage: result.coverage,
          validation: {
            validatorVersion: result.validation.validatorVersion,
            warnings: result.validation.warnings,
            warningIssues: result.validation.warningIssues,
          },
        };
      },
    );
  });

  app.delete(
    '/v1/console/avatars/:id',
    {
      schema: {
        summary: "Delete one of the app's own avatars",
        description: 'Built-in avatars cannot be deleted (403). Sessions already open with it keep running.',
        tags: ['avatars'],
        security: [{ apiKey: [] }],
        headers: apiKeyHeaders,
        params: idParams,
        response: {
          204: { description: 'Deleted.', type: 'null' },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      const appId = apiKeyApp(request);
      const { id } = request.params as { id: string };
      const outcome = await withStore(() => deps.uploads.remove(appId, id));
      if (outcome === 'builtin') {
        throw httpError(
          403,
          'invalidRequest',
          `"${id}" is a built-in avatar (from the service's avatars directory); only an app's own uploads can be deleted.`,
        );
      }
      if (outcome === 'missing') throw notFound(id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v1/console/avatars/:id',
    {
      schema: {
        summary: "One avatar's manifest",
        tags: ['avatars'],
        params: idParams,
        querystring: authQuery,
        response: {
          200: { $ref: 'AvatarManifest#' },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request) => {
      const appId = await authenticate(request);
      const { id } = request.params as { id: string };
      const avatar = await withStore(() => deps.directory.resolve(appId, id));
      if (!avatar) throw notFound(id);
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
      const appId = await authenticate(request);
      const { id, sha256, name } = request.params as { id: string; sha256: string; name: string };
      const avatar = await withStore(() => deps.directory.resolve(appId, id));
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
      const stream = await openAsset(avatar, range ?? undefined, reply);
      if (range) {
        reply.code(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${asset.size}`);
        reply.header('content-length', String(range.end - range.start + 1));
        return reply.send(stream);
      }
      reply.header('content-length', String(asset.size));
      return reply.send(stream);
    },
  );
}

/** Opens the asset; a file missing from the blob store is a 404 that says so (and a log line). */
async function openAsset(
  avatar: AvatarView,
  range: { start: number; end: number } | undefined,
  reply: FastifyReply,
) {
  try {
    return await avatar.model.open(range);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    reply.log.error(
      { avatarId: avatar.id, sha256: avatar.model.sha256 },
      'avatar file missing from the store',
    );
    throw httpError(
      404,
      'avatarNotFound',
      `The file of avatar "${avatar.id}" is missing from this service's avatar store. Upload it again.`,
    );
  }
}

/** Runs a store operation; an unreachable shared store is a 503 the client retries. */
async function withStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    throw httpError(
      503,
      'upstreamError',
      'The avatar records cannot be reached right now (shared store unavailable). Retry with backoff.',
      { 'retry-after': '1' },
    );
  }
}

function tooLarge(max: number, got: string) {
  return fileProblem(
    'tooLarge',
    `The upload is ${got}; this service accepts avatars up to ${max} bytes. Reduce textures or polygons and upload again.`,
  );
}

/** Passes bytes through until more than `max` arrived, then fails with avatarTooLarge. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(tooLarge(max, `over ${max} bytes`));
      else callback(null, chunk);
    },
  });
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}
