/**
 * Avatar assets cached by content hash in Cache Storage, so a reload skips the download
 * whatever URL or region served them. Falls back to an in-memory map where Cache Storage is
 * missing (insecure origins, some private modes) or fails.
 */
import { type AssetStore, logger, MemoryAssetStore } from '@avatar-drive/client-core';

const CACHE_NAME = 'avatar-drive-assets-v1';
// Synthetic keys: Cache Storage needs URLs, and hashing them keeps one entry per content.
const KEY_BASE = 'https://avatar-drive.invalid/';

export type { AssetStore } from '@avatar-drive/client-core';

/** The store to use here: Cache Storage when it works, else memory. */
export async function openAssetStore(): Promise<AssetStore> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (storage) {
    try {
      const cache = await storage.open(CACHE_NAME);
      return new CacheStorageStore(storage, cache);
    } catch (error) {
      logger.info('Cache Storage unavailable, caching avatars in memory only:', error);
    }
  }
  return memoryStore;
}

class CacheStorageStore implements AssetStore {
  readonly persistent = true;
  readonly #storage: CacheStorage;
  #cache: Cache;

  constructor(storage: CacheStorage, cache: Cache) {
    this.#storage = storage;
    this.#cache = cache;
  }

  async get(hash: string): Promise<ArrayBuffer | undefined> {
    const response = await this.#cache.match(`${KEY_BASE}asset/${hash}`);
    return response ? response.arrayBuffer() : undefined;
  }

  async put(hash: string, bytes: ArrayBuffer, contentType = 'application/octet-stream'): Promise<void> {
    await this.#cache.put(
      `${KEY_BASE}asset/${hash}`,
      new Response(bytes, {
        headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
      }),
    );
  }

  async setIndex(avatarId: string, hashes: readonly string[]): Promise<void> {
    await this.#cache.put(
      `${KEY_BASE}index/${encodeURIComponent(avatarId)}`,
      new Response(JSON.stringify(hashes), { headers: { 'content-type': 'application/json' } }),
    );
  }

  async clear(avatarId: string): Promise<void> {
    const indexKey = `${KEY_BASE}index/${encodeURIComponent(avatarId)}`;
    const mine = await this.#readIndex(indexKey);
    await this.#cache.delete(indexKey);
    const keep = new Set<string>();
    for (const request of await this.#cache.keys()) {
      if (request.url.startsWith(`${KEY_BASE}index/`))
        for (const h of await this.#readIndex(request.url)) keep.add(h);
    }
    for (const hash of mine) if (!keep.has(hash)) await this.#cache.delete(`${KEY_BASE}asset/${hash}`);
  }

  async clearAll(): Promise<void> {
    await this.#storage.delete(CACHE_NAME);
    this.#cache = await this.#storage.open(CACHE_NAME);
  }

  async #readIndex(key: string): Promise<string[]> {
    const response = await this.#cache.match(key);
    if (!response) return [];
    try {
      const parsed = (await response.json()) as unknown;
      return Array.isArray(parsed) ? parsed.filter((h): h is string => typeof h === 'string') : [];
    } catch {
      return [];
    }
  }
}

const memoryStore = new MemoryAssetStore();
