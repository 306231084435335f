/**
 * Avatar manifests and assets, and an app's own avatars: one fastify plugin per route, under one
 * scope that holds what they share (the `AvatarManifest#` schema, the CORS rule of the reading
 * routes). Reading: an API key, a session token (checked, not consumed) or an app id; each app
 * sees the built-ins and its own uploads only. Uploading and deleting: the API key only (servers;
 * browsers are refused at the preflight).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AvatarRouteDeps } from './avatar-access.js';
import { avatarAssetRoute } from './avatar-asset-route.js';
import { avatarDeleteRoute } from './avatar-delete-route.js';
import { avatarListRoute } from './avatar-list-route.js';
import { manifestSchema } from './avatar-manifest.js';
import { avatarManifestRoute } from './avatar-manifest-route.js';
import { avatarUploadRoute } from './avatar-upload-route.js';
import { browserReadable, DEFAULT_CORS_ORIGINS } from './cors.js';

export type { AvatarRouteDeps } from './avatar-access.js';

export const avatarRoutes: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
  app.addSchema(manifestSchema);
  browserReadable(app, deps.corsOrigins ?? DEFAULT_CORS_ORIGINS, [
    '/v1/console/avatars',
    '/v1/console/avatars/:id',
    '/v1/console/avatars/:id/assets/:sha256/:name',
  ]);
  await app.register(avatarListRoute, deps);
  await app.register(avatarUploadRoute, deps);
  await app.register(avatarDeleteRoute, deps);
  await app.register(avatarManifestRoute, deps);
  await app.register(avatarAssetRoute, deps);
};
