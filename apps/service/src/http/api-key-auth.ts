/**
 * The API-key check, once for every route that takes `X-Api-Key`: a fastify `preHandler` that
 * finds the app owning the key (compared in constant time against every configured digest, by
 * {@link AppRegistry.byApiKey}) and puts it on `request.apiKeyApp`, or answers 401 with the
 * reason. The key itself never reaches a log line or an error message.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppRecord, AppRegistry } from '../credentials/app-registry.js';
import { httpError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The app whose API key the request carries; set by the {@link requireApiKey} hook. */
    apiKeyApp: AppRecord | null;
  }
}

/** Schema of the header (not `required`: a missing key is a 401 with the reason, not a schema 400). */
export const apiKeyHeaders = {
  type: 'object',
  properties: { 'x-api-key': { type: 'string', description: 'The app API key (servers only).' } },
} as const;

/** Declares `request.apiKeyApp` on `app` (once, on the root, before the routes). */
export function decorateApiKeyApp(app: FastifyInstance): void {
  app.decorateRequest('apiKeyApp', null);
}

/** The X-Api-Key header, when the request carries a non-empty one. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}

/**
 * The app owning the request's API key.
 * @throws 401 `appIDUnrecognized` when the key is missing or no app has it.
 */
export function appOfApiKey(request: FastifyRequest, apps: AppRegistry): AppRecord {
  const apiKey = apiKeyOf(request);
  if (apiKey === undefined) {
    throw httpError(
      401,
      'appIDUnrecognized',
      'Missing API key. Send it in the X-Api-Key header (from your server, never a browser).',
    );
  }
  const app = apps.byApiKey(apiKey);
  if (!app) {
    throw httpError(
      401,
      'appIDUnrecognized',
      'The API key is not recognized. Check the key configured for your app.',
    );
  }
  return app;
}

/**
 * The `preHandler` of a route that needs the API key: after the body is read and validated (a
 * schema 400 comes first, as it would from the handler), before the handler runs.
 */
export function requireApiKey(apps: AppRegistry): preHandlerAsyncHookHandler {
  return async (request) => {
    request.apiKeyApp = appOfApiKey(request, apps);
  };
}
