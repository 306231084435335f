/** The fastify app: error format, OpenAPI document, and every HTTP route. */

import { isAvatarError } from '@avatar-drive/core';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { httpServerTimeouts } from '../capacity/connection-guard.js';
import { clientAddress } from '../client-address.js';
import { errorBody, errorBodySchema } from '../errors.js';
import type { ServiceMetrics } from '../metrics.js';
import type { TlsPair } from '../tls-files.js';
import { decorateApiKeyApp } from './api-key-auth.js';
import { type AvatarRouteDeps, avatarRoutes } from './avatar-routes.js';
import { type ConsoleRouteDeps, consoleRoutes } from './console-routes.js';
import { type HealthRouteDeps, healthRoutes } from './health-routes.js';

export interface HttpAppDeps extends ConsoleRouteDeps, AvatarRouteDeps, HealthRouteDeps {
  logger: Logger;
  metrics: ServiceMetrics;
  /** Serve https (and wss) with this pair; plain http without. */
  tls?: TlsPair;
}

export async function buildHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  // Node's header timeout is passed explicitly (Fastify's default would switch it off); the
  // request timeout is the ConnectionGuard's, per request (uploads are timed by their progress).
  const timeouts = httpServerTimeouts(deps.limits);
  // With `https`, fastify's types name a different server type; the routes do not care.
  const app = Fastify({
    ...(deps.tls ? { https: { cert: deps.tls.cert, key: deps.tls.key, ...timeouts } } : { http: timeouts }),
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: deps.limits.connectionIdleTimeoutMs,
    loggerInstance: deps.logger as unknown as import('fastify').FastifyBaseLogger,
    // Requests are logged by the hook below, without query strings (they can carry session tokens).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  }) as unknown as FastifyInstance;

  app.addSchema(errorBodySchema);
  decorateApiKeyApp(app);
  // JSON only: any other body type is a 415.
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Avatar Drive service',
        version: deps.version,
        description:
          'Console API (session tokens, avatars) and operations endpoints. The ingress WebSocket is ' +
          'GET /v2/driveningress (driveningress.v2 protobuf frames; see docs/protocol.md).',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          appId: { type: 'apiKey', in: 'header', name: 'X-App-ID' },
          sessionKey: { type: 'apiKey', in: 'header', name: 'X-Session-Key' },
        },
      },
    },
  });

  app.setErrorHandler((error, request, reply) => {
    let status = 500;
    let code: import('@avatar-drive/core').AvatarErrorCode = 'serverError';
    let detail = 'The server failed. Retry; if it keeps failing, report it with the time of the request.';
    let problem: string | undefined;
    if (isAvatarError(error)) {
      status = error.httpStatus ?? 400;
      code = error.code;
      detail = error.message;
      if (typeof error.details?.problem === 'string') problem = error.details.problem;
      const headers = error.details?.headers as Record<string, string> | undefined;
      if (headers) reply.headers(headers);
    } else if ((error as { validation?: unknown }).validation) {
      status = 400;
      code = 'invalidRequest';
      detail = `Invalid request: ${(error as Error).message}. See /v1/console/openapi.json for the schema.`;
    } else if ((error as { statusCode?: number }).statusCode === 415) {
      status = 415;
      code = 'invalidRequest';
      detail = 'Unsupported content type. Send the body as application/json.';
    } else if (
      typeof (error as { statusCode?: number }).statusCode === 'number' &&
      (error as { statusCode: number }).statusCode < 500
    ) {
      status = (error as { statusCode: number }).statusCode;
      code = 'invalidRequest';
      detail = `Invalid request: ${(error as Error).message}.`;
    } else {
      request.log.error({ err: error }, 'request failed');
    }
    deps.metrics.recordError(code);
    reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(errorBody(status, code, detail, problem));
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        // The proxy-aware client address (X-Forwarded-For only from trusted proxies).
        client: clientAddress(request.raw, deps.trustedProxies),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        errorBody(
          404,
          'invalidRequest',
          `No route ${request.method} ${request.url.split('?')[0]}. See /v1/console/openapi.json.`,
        ),
      );
  });

  await app.register(async (scope) => consoleRoutes(scope, deps));
  await app.register(avatarRoutes, deps);
  await app.register(async (scope) => healthRoutes(scope, deps));

  app.get(
    '/v1/console/openapi.json',
    { schema: { hide: true, response: { 200: { type: 'object', additionalProperties: true } } } },
    async () => app.swagger(),
  );
  return app;
}
