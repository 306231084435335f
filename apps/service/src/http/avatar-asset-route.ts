/**
 * GET /v1/console/avatars/:id/assets/:sha256/:name: an avatar's file. The URL carries the content
 * hash, so it is served with a strong ETag and `immutable` caching, and answers conditional
 * (If-None-Match) and range requests.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AvatarView } from '../avatars/avatar-directory.js';
import { httpError } from '../errors.js';
import { type AvatarRouteDeps, authQuery, headerValue, readerApp } from './avatar-access.js';
import { notModified, requestedRange } from './conditional-range.js';
import { withStore } from './store-errors.js';

export const avatarAssetRoute: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
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
      const appId = await readerApp(request, deps);
      const { id, sha256, name } = request.params as { id: string; sha256: string; name: string };
      const avatar = await withStore('read the avatar records', () => deps.directory.resolve(appId, id));
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
};

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
