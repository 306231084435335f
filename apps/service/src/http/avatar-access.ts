/**
 * What every avatar route shares: its dependencies, who the reader is (API key, session token or
 * app id), the public origin of asset URLs, and the answers they give alike.
 */
import type { AvatarError } from '@avatar-drive/core';
import type { FastifyRequest } from 'fastify';
import type { AvatarDirectory } from '../avatars/avatar-directory.js';
import type { AvatarUploads } from '../avatars/avatar-uploads.js';
import { requestOrigin, type TrustedProxies } from '../client-address.js';
import type { AppRegistry } from '../credentials/app-registry.js';
import type { SessionTokens } from '../credentials/session-tokens.js';
import { httpError } from '../errors.js';
import { apiKeyOf, appOfApiKey } from './api-key-auth.js';
import type { CorsOrigins } from './cors.js';

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
  /** Origins whose pages may read these routes (default any: `DEFAULT_CORS_ORIGINS`). */
  corsOrigins?: CorsOrigins;
}

/** The reading routes' query: the app id or a session token instead of headers. */
export const authQuery = {
  type: 'object',
  properties: {
    appId: { type: 'string', description: 'App id (alternative to the X-App-ID header).' },
    sessionKey: { type: 'string', description: 'Session token (alternative to X-Session-Key).' },
  },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 128 } },
} as const;

/**
 * The app a reader belongs to: the API key's (servers), a session token's (verified, not
 * consumed), or a known app id.
 * @throws 401 saying which of the three to send, or why the one sent was refused.
 */
export async function readerApp(request: FastifyRequest, deps: AvatarRouteDeps): Promise<string> {
  const query = request.query as { appId?: string; sessionKey?: string };
  if (apiKeyOf(request) !== undefined) return appOfApiKey(request, deps.apps).appId;
  const sessionKey = headerValue(request, 'x-session-key') ?? query.sessionKey;
  if (sessionKey) {
    try {
      return (await deps.tokens.verify(sessionKey)).appId;
    } catch (error) {
      const e = error as AvatarError;
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
}

/** The origin of the asset URLs in the answer to `request`. */
export function publicOrigin(request: FastifyRequest, deps: AvatarRouteDeps): string {
  return deps.publicUrl ?? requestOrigin(request.raw, deps.trustedProxies).origin;
}

export function avatarNotFound(id: string) {
  return httpError(
    404,
    'avatarNotFound',
    `Avatar "${id}" does not exist for this app. GET /v1/console/avatars lists them.`,
  );
}

/** A header's value when it is one non-empty string. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}
