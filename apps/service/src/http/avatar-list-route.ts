/** GET /v1/console/avatars: the built-ins and the app's own uploads (with the API key, also skipped files). */
import type { FastifyPluginAsync } from 'fastify';
import { type AvatarRouteDeps, authQuery, publicOrigin, readerApp } from './avatar-access.js';
import { servedManifest } from './avatar-manifest.js';
import { withStore } from './store-errors.js';

export const avatarListRoute: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
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
      const appId = await readerApp(request, deps);
      const base = publicOrigin(request, deps);
      const avatars = await withStore('read the avatar records', () => deps.directory.list(appId));
      const operator = typeof request.headers['x-api-key'] === 'string';
      return {
        avatars: avatars.map((a) => servedManifest(a, base)),
        ...(operator && {
          skipped: deps.directory.builtIns.problems.map((p) => ({ file: p.file, reason: p.reason })),
        }),
      };
    },
  );
};
