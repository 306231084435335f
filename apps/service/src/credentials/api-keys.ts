/**
 * API keys: generated with 32 random bytes, stored only as `sha256:<hex>` digests, compared in
 * constant time. A high-entropy key needs no slow hash; a digest never reveals the key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'adk_';
const HASH_PREFIX = 'sha256:';

/** A new random API key (`adk_` + 43 base64url characters, 256 bits). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** A new random app id (public). */
export function generateAppId(): string {
  return `app_${randomBytes(9).toString('base64url')}`;
}

/** The stored form of an API key. */
export function hashApiKey(apiKey: string): string {
  return HASH_PREFIX + createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Decodes a stored hash to its 32 digest bytes; throws on a malformed value. */
export function parseApiKeyHash(stored: string): Buffer {
  if (!stored.startsWith(HASH_PREFIX) || !/^[0-9a-f]{64}$/.test(stored.slice(HASH_PREFIX.length))) {
    throw new Error(
      `API key hash must look like "sha256:<64 hex digits>" (make one with: avatar-drive-service hash-key)`,
    );
  }
  return Buffer.from(stored.slice(HASH_PREFIX.length), 'hex');
}

/** Constant-time check of a presented key against one stored digest. */
export function apiKeyMatches(apiKey: string, digest: Buffer): boolean {
  const presented = createHash('sha256').update(apiKey, 'utf8').digest();
  return timingSafeEqual(presented, digest);
}
