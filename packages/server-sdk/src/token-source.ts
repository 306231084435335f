/**
 * Where an AvatarSession's session tokens come from, one per connection attempt (tokens are
 * single-use): minted with the API key, returned by your function, or the one string you gave.
 */
import { AvatarError, type ResolvedEndpoint } from '@avatar-drive/core';
import { DEFAULT_TOKEN_TTL_SECONDS, requestSessionToken, resolveExpiry } from './session-token.js';
import type { AvatarSessionOptions } from './session-types.js';

type TokenOptions = Pick<
  AvatarSessionOptions,
  'apiKey' | 'sessionToken' | 'tokenTtlSeconds' | 'connectTimeoutMs'
>;

/** @throws AvatarError `invalidRequest` when neither credential is usable or the TTL is out of range. */
export function checkTokenOptions(options: TokenOptions): void {
  if (options.apiKey === undefined && options.sessionToken === undefined) {
    throw new AvatarError(
      'invalidRequest',
      'Pass apiKey (your server mints a token per connection) or sessionToken (a token, or a function returning one).',
      { phase: 'initialize' },
    );
  }
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || options.apiKey.trim() === '')) {
    throw new AvatarError('invalidRequest', 'apiKey must be a non-empty string.', { phase: 'initialize' });
  }
  const tokenType = typeof options.sessionToken;
  if (options.sessionToken !== undefined && tokenType !== 'string' && tokenType !== 'function') {
    throw new AvatarError('invalidRequest', 'sessionToken must be a string or a function returning one.', {
      phase: 'initialize',
    });
  }
  if (options.tokenTtlSeconds !== undefined) resolveExpiry({ ttlSeconds: options.tokenTtlSeconds });
}

/** Hands out the token for each connection attempt. */
export class TokenSource {
  readonly #options: TokenOptions;

  /** `options` must have passed {@link checkTokenOptions}. */
  constructor(options: TokenOptions) {
    this.#options = options;
  }

  /**
   * The token for an attempt at `endpoint`: your function's, your string, or one minted at the
   * endpoint's console with the API key.
   * @throws AvatarError when your function returns no token, or minting fails.
   */
  async next(endpoint: ResolvedEndpoint): Promise<string> {
    const { apiKey, sessionToken } = this.#options;
    if (typeof sessionToken === 'function') {
      const token = await sessionToken();
      if (typeof token !== 'string' || token === '') {
        throw new AvatarError(
          'invalidRequest',
          'The sessionToken function returned no token; return the token string.',
          { phase: 'connect' },
        );
      }
      return token;
    }
    if (typeof sessionToken === 'string') return sessionToken;
    const expireAt = resolveExpiry({
      ttlSeconds: this.#options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    });
    return requestSessionToken(endpoint.consoleUrl, apiKey!, expireAt, {
      timeoutMs: this.#options.connectTimeoutMs ?? 10_000,
    });
  }
}
