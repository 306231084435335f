/**
 * Reads the expiry a session token carries, so a refused connection can be told apart as
 * "expired" (mint a new token) without a round trip. Session tokens are JWTs with an `exp` claim
 * (seconds); anything else reads as unknown. The service still decides: this only names an error.
 */

/** The token's `exp` claim in epoch seconds, or `undefined` when it cannot be read. */
export function tokenExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(decodeBase64Url(parts[1]!)) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url → text (UTF-8), by hand: not every runtime this package targets has atob or Buffer. */
function decodeBase64Url(text: string): string {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of text.replace(/=+$/, '')) {
    const value = ALPHABET.indexOf(ch === '+' ? '-' : ch === '/' ? '_' : ch);
    if (value < 0) throw new Error('not base64url');
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
