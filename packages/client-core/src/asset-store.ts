/**
 * Where a platform caches avatar assets by content hash (Cache Storage on the web, the device
 * file system on React Native), and the in-memory store every platform falls back to.
 */

/** Where cached bytes live. */
export interface AssetStore {
  /** True when assets survive a restart (a reload, an app relaunch); downloads then bypass the HTTP cache. */
  readonly persistent: boolean;
  get(hash: string): Promise<ArrayBuffer | undefined>;
  put(hash: string, bytes: ArrayBuffer, contentType?: string): Promise<void>;
  /** Remembers which hashes an avatar uses, for `clear(id)`. */
  setIndex(avatarId: string, hashes: readonly string[]): Promise<void>;
  /** Deletes an avatar's assets (those no other indexed avatar uses) and its index. */
  clear(avatarId: string): Promise<void>;
  clearAll(): Promise<void>;
}

/** An {@link AssetStore} in memory: lives as long as the page or app process. */
export class MemoryAssetStore implements AssetStore {
  readonly persistent = false;
  readonly #assets = new Map<string, ArrayBuffer>();
  readonly #index = new Map<string, readonly string[]>();

  async get(hash: string): Promise<ArrayBuffer | undefined> {
    return this.#assets.get(hash);
  }

  async put(hash: string, bytes: ArrayBuffer): Promise<void> {
    this.#assets.set(hash, bytes);
  }

  async setIndex(avatarId: string, hashes: readonly string[]): Promise<void> {
    this.#index.set(avatarId, hashes);
  }

  async clear(avatarId: string): Promise<void> {
    const mine = this.#index.get(avatarId) ?? [];
    this.#index.delete(avatarId);
    const keep = new Set([...this.#index.values()].flat());
    for (const hash of mine) if (!keep.has(hash)) this.#assets.delete(hash);
  }

  async clearAll(): Promise<void> {
    this.#assets.clear();
    this.#index.clear();
  }
}
