/**
 * Session tokens: HS256 JWTs signed with the one key every node and region shares, carrying the
 * app id (`sub`), a unique id (`jti`) and the expiry (`exp`). Verification never consumes a token;
 * the single-use ledger in the shared store does that at upgrade time.
 */
import { randomUUID } from 'node:crypto';
import { AvatarError, CloseCode } from '@avatar-drive/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'avatar-drive';
const AUDIENCE = 'driveningress';

/** Tokens may live at most 24 h (the bound is core's, shared with the server SDK). */
export { MAX_TOKEN_TTL_SECONDS } from '@avatar-drive/core';

/** What a verified session token says. */
export interface SessionTokenClaims {
  appId: string;
  jti: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** Decodes a signing key given as base64url/base64 text (at least 32 bytes). */
export function decodeSigningKey(text: string): Uint8Array {
  const bytes = Buffer.from(text.trim(), text.includes('+') || text.includes('/') ? 'base64' : 'base64url');
  if (bytes.length < 32) {
    throw new Error(
      'The token signing key must be at least 32 bytes, base64url-encoded (e.g. `openssl rand -base64 32`).',
    );
  }
  return new Uint8Array(bytes);
}

/** Mints and verifies session tokens with one shared key. */
export class SessionTokens {
  readonly #key: Uint8Array;

  constructor(key: Uint8Array) {
    this.#key = key;
  }

  /** Signs a token for `appId` expiring at `expiresAt` (epoch seconds). */
  async mint(appId: string, expiresAt: number): Promise<{ token: string; jti: string }> {
    const jti = randomUUID();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(appId)
      .setJti(jti)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(this.#key);
    return { token, jti };
  }

  /**
   * Verifies signature and expiry. Throws AvatarError sessionTokenExpired or sessionTokenInvalid
   * (httpStatus 401).
   */
  async verify(token: string): Promise<SessionTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'jti', 'exp'],
      });
      return { appId: payload.sub!, jti: payload.jti!, expiresAt: payload.exp! };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new AvatarError(
          'sessionTokenExpired',
          'The session token has expired. Mint a new one (POST /v1/console/session-tokens) and connect again.',
          { httpStatus: 401, closeCode: CloseCode.AuthFailed, phase: 'connect' },
        );
      }
      throw new AvatarError(
        'sessionTokenInvalid',
        'The session token is not valid for this service. Mint a new one with your API key (POST /v1/console/session-tokens).',
        { httpStatus: 401, closeCode: CloseCode.AuthFailed, phase: 'connect' },
      );
    }
  }
}
