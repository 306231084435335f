/**
 * What every package knows about a session token without verifying it: how long one may live
 * (the service refuses longer, the server SDK checks before asking), and the expiry it carries,
 * so a refused connection can be named "expired" without a round trip. Session tokens are JWTs
 * with an `exp` claim in seconds; the service still decides, this only names an error.
 */
import { utf8DecodeStrict } from './wire/fast/utf8.js';

/** The longest a session token may live: its `expireAt` must lie strictly before now + this (24 h). */
export const MAX_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * The token's `exp` claim in epoch seconds, or `undefined` when it cannot be read (not a JWT,
 * bad base64url, no numeric `exp`).
 *
 * @example
 * ```ts
 * const exp = tokenExpiry(token);
 * const expired = exp !== undefined && exp <= Date.now() / 1000;
 * ```
 */
export function tokenExpiry(token: string): number | undefined {
  if (typeof token !== 'string') return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const bytes = decodeBase64Url(parts[1]!);
  const text = bytes && utf8DecodeStrict(bytes);
  if (text === undefined) return undefined;
  try {
    const claims = JSON.parse(text) as { exp?: unknown } | null;
    const exp = claims?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url (or base64) → bytes, by hand: not every runtime core targets has atob or Buffer. */
function decodeBase64Url(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of text.replace(/=+$/, '')) {
    const value = ALPHABET.indexOf(ch === '+' ? '-' : ch === '/' ? '_' : ch);
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return new Uint8Array(bytes);
}
