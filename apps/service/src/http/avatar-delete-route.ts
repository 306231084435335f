/** DELETE /v1/console/avatars/:id: removes one of the app's uploads (API key only). */
import type { FastifyPluginAsync } from 'fastify';
import { httpError } from '../errors.js';
import { apiKeyHeaders, requireApiKey } from './api-key-auth.js';
import { type AvatarRouteDeps, avatarNotFound, idParams } from './avatar-access.js';
import { withStore } from './store-errors.js';

export const avatarDeleteRoute: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
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
      preHandler: requireApiKey(deps.apps),
    },
    async (request, reply) => {
      const { appId } = request.apiKeyApp!;
      const { id } = request.params as { id: string };
      const outcome = await withStore('delete the avatar', () => deps.uploads.remove(appId, id));
      if (outcome === 'builtin') {
        throw httpError(
          403,
          'invalidRequest',
          `"${id}" is a built-in avatar (from the service's avatars directory); only an app's own uploads can be deleted.`,
        );
      }
      if (outcome === 'missing') throw avatarNotFound(id);
      return reply.code(204).send();
    },
  );
};
