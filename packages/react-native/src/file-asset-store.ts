/**
 * Avatar assets cached by content hash on the device's file system (expo-file-system), so an app
 * relaunch skips the download whatever URL or region served them. Layout under the app's cache
 * directory (the OS may purge it when storage runs low; the next load downloads again):
 *
 *   avatar-drive-assets-v1/asset/<sha256>   the bytes
 *   avatar-drive-assets-v1/index/<avatarId>.json   the hashes an avatar uses (for `clear(id)`)
 */
import { type AssetStore, logger, MemoryAssetStore } from '@avatar-drive/client-core';
import { Directory, File, Paths } from 'expo-file-system';

const ROOT_NAME = 'avatar-drive-assets-v1';

/** An {@link AssetStore} in a directory of the device file system. */
export class FileAssetStore implements AssetStore {
  readonly persistent = true;
  readonly #root: Directory;
  readonly #assets: Directory;
  readonly #index: Directory;

  /** @param root the directory to cache in; default `<cache>/avatar-drive-assets-v1`. */
  constructor(root: Directory = new Directory(Paths.cache, ROOT_NAME)) {
    this.#root = root;
    this.#assets = new Directory(root, 'asset');
    this.#index = new Directory(root, 'index');
    this.#ensureDirs();
  }

  async get(hash: string): Promise<ArrayBuffer | undefined> {
    const file = new File(this.#assets, safeName(hash));
    if (!file.exists) return undefined;
    const bytes = await file.bytes();
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.slice().buffer;
  }

  async put(hash: string, bytes: ArrayBuffer): Promise<void> {
    this.#ensureDirs();
    // Written under a temporary name and moved, so a crash never leaves a truncated asset behind a valid name.
    const partial = new File(this.#assets, `${safeName(hash)}.partial`);
    if (partial.exists) partial.delete();
    partial.write(new Uint8Array(bytes));
    const target = new File(this.#assets, safeName(hash));
    if (target.exists) target.delete();
    partial.moveSync(target);
  }

  async setIndex(avatarId: string, hashes: readonly string[]): Promise<void> {
    this.#ensureDirs();
    const file = new File(this.#index, `${encodeURIComponent(avatarId)}.json`);
    file.write(JSON.stringify(hashes));
  }

  async clear(avatarId: string): Promise<void> {
    const indexFile = new File(this.#index, `${encodeURIComponent(avatarId)}.json`);
    const mine = readIndex(indexFile);
    if (indexFile.exists) indexFile.delete();
    const keep = new Set<string>();
    if (this.#index.exists) {
      for (const entry of this.#index.list())
        if (entry instanceof File) for (const h of readIndex(entry)) keep.add(h);
    }
    for (const hash of mine) {
      if (keep.has(hash)) continue;
      const file = new File(this.#assets, safeName(hash));
      if (file.exists) file.delete();
    }
  }

  async clearAll(): Promise<void> {
    if (this.#root.exists) this.#root.delete();
    this.#ensureDirs();
  }

  #ensureDirs(): void {
    for (const dir of [this.#root, this.#assets, this.#index]) {
      if (!dir.exists) dir.create({ intermediates: true, idempotent: true });
    }
  }
}

/**
 * The store AvatarManager uses: the device file system, or memory where expo-file-system is not
 * available (react-native-web, where the library has no implementation, or a missing native module).
 */
export async function openFileAssetStore(): Promise<AssetStore> {
  try {
    return new FileAssetStore();
  } catch (error) {
    logger.info('expo-file-system unavailable, caching avatars in memory only:', error);
    return memoryStore;
  }
}

const memoryStore = new MemoryAssetStore();

function readIndex(file: File): string[] {
  if (!file.exists) return [];
  try {
    const parsed = JSON.parse(file.textSync()) as unknown;
    return Array.isArray(parsed) ? parsed.filter((h): h is string => typeof h === 'string') : [];
  } catch {
    return [];
  }
}

/** Hashes are lowercase hex from the manifest; anything else is made file-name safe. */
function safeName(hash: string): string {
  return /^[0-9a-f]{16,128}$/.test(hash) ? hash : encodeURIComponent(hash);
}
