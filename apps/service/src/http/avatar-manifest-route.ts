/** GET /v1/console/avatars/:id: one avatar's manifest. */
import type { FastifyPluginAsync } from 'fastify';
import {
  type AvatarRouteDeps,
  authQuery,
  avatarNotFound,
  idParams,
  publicOrigin,
  readerApp,
} from './avatar-access.js';
import { servedManifest } from './avatar-manifest.js';
import { withStore } from './store-errors.js';

export const avatarManifestRoute: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
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
      const appId = await readerApp(request, deps);
      const { id } = request.params as { id: string };
      const avatar = await withStore('read the avatar records', () => deps.directory.resolve(appId, id));
      if (!avatar) throw avatarNotFound(id);
      return servedManifest(avatar, publicOrigin(request, deps));
    },
  );
};
