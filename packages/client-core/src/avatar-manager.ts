/**
 * AvatarManager: fetches an avatar's manifest and assets with byte progress, shares one download
 * between concurrent loads of the same id, and caches assets by content hash in the platform's
 * {@link AssetStore} (Cache Storage on the web, the device's file system on React Native).
 */

import {
  type AvatarCamera,
  AvatarError,
  type AvatarErrorCode,
  type AvatarManifest as ServedAvatarManifest,
} from '@avatar-drive/core';
import type { AssetStore } from './asset-store.js';
import { download, sha256Hex } from './download.js';
import { logger } from './logger.js';
import { requireConfig } from './sdk.js';

/** One downloadable file of an avatar. */
export interface AvatarAsset {
  /** `model` for the glTF binary. */
  kind?: string;
  name?: string;
  url: string;
  /** Lowercase hex SHA-256 of the content (the cache key). */
  sha256?: string;
  /** Alternative spelling of the content hash. */
  hash?: string;
  size: number;
  contentType?: string;
}

/** A camera that frames the avatar (glTF scene coordinates, metres): the avatar manifest's `camera`. */
export type AvatarCameraFraming = AvatarCamera;

/**
 * What `GET /v1/console/avatars/:id` returns, as the client reads it: core's
 * {@link ServedAvatarManifest}, with only `id` and `assets` ({url, size}) required of the server
 * (`name` and `rig` default to the id and `arkit-52`).
 */
export type AvatarManifest = Pick<ServedAvatarManifest, 'id' | 'name' | 'camera'> & {
  /** The rig the avatar follows, `arkit-52`. */
  rig: string;
  assets: AvatarAsset[];
  [extra: string]: unknown;
};

/** Byte progress of a load (cached assets count as loaded at once). */
export interface LoadProgress {
  avatarId: string;
  loadedBytes: number;
  totalBytes: number;
  /** 0 … 1. */
  progress: number;
}

/** A loaded avatar: its manifest and the bytes of its assets. */
export class Avatar {
  /** The avatar id. */
  readonly id: string;
  readonly manifest: AvatarManifest;
  /** Asset bytes by asset name (or URL when unnamed). */
  readonly assets: ReadonlyMap<string, ArrayBuffer>;
  /** Bytes actually downloaded for this load (0 when everything came from the cache). */
  readonly downloadedBytes: number;

  /** @internal Created by {@link AvatarManager.load}. */
  constructor(manifest: AvatarManifest, assets: ReadonlyMap<string, ArrayBuffer>, downloadedBytes: number) {
    this.id = manifest.id;
    this.manifest = manifest;
    this.assets = assets;
    this.downloadedBytes = downloadedBytes;
  }

  /** The glTF binary (.glb, or .vrm) to render. */
  get model(): ArrayBuffer {
    const asset =
      this.manifest.assets.find((a) => a.kind === 'model') ??
      this.manifest.assets.find((a) => /\.(glb|vrm)$/i.test(a.name ?? a.url));
    const bytes = asset && this.assets.get(assetKey(asset));
    if (!bytes) {
      throw new AvatarError(
        'assetDownloadFailed',
        `Avatar ${this.id} has no .glb or .vrm model asset in its manifest.`,
      );
    }
    return bytes;
  }
}

type ProgressListener = (progress: LoadProgress) => void;

interface Inflight {
  promise: Promise<Avatar>;
  listeners: Set<ProgressListener>;
  last: LoadProgress | undefined;
}

/** The loader and cache of one platform: `AvatarManager.load`, `clear`, `clearAll`. */
export interface AvatarManagerApi {
  load(id: string, onProgress?: (progress: LoadProgress) => void): Promise<Avatar>;
  clear(id: string): Promise<void>;
  clearAll(): Promise<void>;
}

/**
 * The AvatarManager of a platform whose assets are cached in the store `openStore` opens (once,
 * on first use). client-web passes Cache Storage; a test or a platform without one passes a
 * {@link MemoryAssetStore}.
 */
export function createAvatarManager(openStore: () => Promise<AssetStore>): AvatarManagerApi {
  const inflight = new Map<string, Inflight>();
  let storePromise: Promise<AssetStore> | undefined;
  const store = (): Promise<AssetStore> => {
    storePromise ??= openStore();
    return storePromise;
  };

  /** Loads and caches avatars. */
  return {
    /**
     * Loads avatar `id`: its manifest from the console (primary region, then backup), then its
     * assets from the cache or the network. Concurrent loads of one id share one download.
     *
     * @param onProgress called with byte progress (also for the shared part of a joined load).
     * @throws AvatarError `notInitialized`, `avatarNotFound`, `assetDownloadFailed`, or an auth
     *   error (`appIDUnrecognized`, …) from the console.
     * @example
     * ```ts
     * const avatar = await AvatarManager.load('mika', (p) => bar.value = p.progress);
     * ```
     */
    load(id: string, onProgress?: (progress: LoadProgress) => void): Promise<Avatar> {
      const config = requireConfig('AvatarManager.load()');
      if (typeof id !== 'string' || id === '') {
        return Promise.reject(new AvatarError('invalidRequest', 'AvatarManager.load() needs an avatar id.'));
      }
      let entry = inflight.get(id);
      if (!entry) {
        const listeners = new Set<ProgressListener>();
        const created: Inflight = {
          listeners,
          last: undefined,
          promise: Promise.resolve(undefined as never),
        };
        const report = (progress: LoadProgress) => {
          created.last = progress;
          for (const listener of listeners) {
            try {
              listener(progress);
            } catch (error) {
              logger.error('onProgress threw:', error);
            }
          }
        };
        created.promise = loadAvatar(
          id,
          config.appId,
          config.endpoints.map((e) => e.consoleUrl),
          report,
        ).finally(() => {
          inflight.delete(id);
        });
        inflight.set(id, created);
        entry = created;
      }
      if (onProgress) {
        entry.listeners.add(onProgress);
        if (entry.last) onProgress(entry.last);
      }
      return entry.promise;
    },

    /** Removes avatar `id`'s cached assets (those no other cached avatar uses). */
    async clear(id: string): Promise<void> {
      await (await store()).clear(id);
    },

    /** Removes every cached avatar asset. */
    async clearAll(): Promise<void> {
      await (await store()).clearAll();
    },
  };

  function loadAvatar(
    id: string,
    appId: string,
    consoleUrls: readonly string[],
    report: ProgressListener,
  ): Promise<Avatar> {
    return store().then((cache) => loadInto(cache, id, appId, consoleUrls, report));
  }
}

async function loadInto(
  cache: AssetStore,
  id: string,
  appId: string,
  consoleUrls: readonly string[],
  report: ProgressListener,
): Promise<Avatar> {
  const manifest = await fetchManifest(id, appId, consoleUrls);
  const totalBytes = manifest.assets.reduce((sum, a) => sum + Math.max(a.size, 0), 0);
  let loadedBytes = 0;
  let downloadedBytes = 0;
  const emit = () =>
    report({
      avatarId: id,
      loadedBytes,
      totalBytes,
      progress: totalBytes > 0 ? Math.min(1, loadedBytes / totalBytes) : 1,
    });
  emit();
  const assets = new Map<string, ArrayBuffer>();
  const hashes: string[] = [];
  for (const asset of manifest.assets) {
    const hash = (asset.sha256 ?? asset.hash)?.toLowerCase();
    let bytes = hash ? await cache.get(hash).catch(() => undefined) : undefined;
    if (bytes) {
      loadedBytes += bytes.byteLength;
      emit();
    } else {
      // With Cache Storage holding the bytes, keeping a second copy in the HTTP cache only wastes space.
      bytes = await download(
        withAppId(asset.url, appId),
        (n) => {
          loadedBytes += n;
          downloadedBytes += n;
          emit();
        },
        cache.persistent ? { cache: 'no-store' } : {},
      );
      if (hash) {
        const actual = await sha256Hex(bytes);
        if (actual !== undefined && actual !== hash) {
          throw new AvatarError(
            'assetDownloadFailed',
            `Asset ${asset.url} does not match its hash (expected ${hash}, got ${actual}); the download was corrupted or the manifest is stale. Retry.`,
            { retryable: true, phase: 'load' },
          );
        }
        await cache
          .put(hash, bytes, asset.contentType)
          .catch((error) => logger.warn('caching failed:', error));
      }
    }
    if (hash) hashes.push(hash);
    assets.set(assetKey(asset), bytes);
  }
  await cache.setIndex(id, hashes).catch(() => undefined);
  if (loadedBytes !== totalBytes) {
    loadedBytes = totalBytes;
    emit();
  }
  return new Avatar(manifest, assets, downloadedBytes);
}

async function fetchManifest(
  id: string,
  appId: string,
  consoleUrls: readonly string[],
): Promise<AvatarManifest> {
  let lastError: AvatarError | undefined;
  for (const base of consoleUrls) {
    const url = `${base.replace(/\/$/, '')}/v1/console/avatars/${encodeURIComponent(id)}?appId=${encodeURIComponent(appId)}`;
    let response: Response;
    try {
      response = await fetch(url);
    } catch (cause) {
      lastError = new AvatarError(
        'assetDownloadFailed',
        `Could not reach the console at ${base} to load avatar ${id}; check the connection.`,
        { cause, retryable: true, phase: 'load' },
      );
      continue;
    }
    if (response.ok) return parseManifest(id, await response.json());
    const error = await httpError(response, id);
    if (!error.retryable) throw error;
    lastError = error;
  }
  throw lastError ?? new AvatarError('assetDownloadFailed', `No console URL to load avatar ${id} from.`);
}

const KNOWN_CODES: ReadonlySet<string> = new Set<AvatarErrorCode>([
  'appIDUnrecognized',
  'appIDMismatch',
  'sessionTokenInvalid',
  'sessionTokenExpired',
  'avatarNotFound',
]);

async function httpError(response: Response, id: string): Promise<AvatarError> {
  let detail = '';
  let code: string | undefined;
  try {
    const body = (await response.json()) as { errors?: Array<{ code?: string; detail?: string }> };
    code = body.errors?.[0]?.code;
    detail = body.errors?.[0]?.detail ?? '';
  } catch {
    // Not a JSON error body.
  }
  const options = { httpStatus: response.status, retryable: response.status >= 500, phase: 'load' as const };
  if (response.status === 404) {
    return new AvatarError(
      'avatarNotFound',
      `Avatar "${id}" does not exist on this service. ${detail} Check the avatar id.`,
      options,
    );
  }
  if (code && KNOWN_CODES.has(code))
    return new AvatarError(code as AvatarErrorCode, detail || `Loading avatar ${id} was refused.`, options);
  return new AvatarError(
    'assetDownloadFailed',
    `Loading avatar ${id}'s manifest failed with HTTP ${response.status}${detail ? `: ${detail}` : ''}.`,
    options,
  );
}

function parseManifest(id: string, value: unknown): AvatarManifest {
  const m = value as Partial<AvatarManifest> | null;
  const ok =
    typeof m === 'object' &&
    m !== null &&
    typeof m.id === 'string' &&
    Array.isArray(m.assets) &&
    m.assets.every((a) => typeof a?.url === 'string' && typeof a.size === 'number');
  if (!ok) {
    throw new AvatarError(
      'assetDownloadFailed',
      `The manifest of avatar ${id} is malformed (needs id and assets [{url, size}]).`,
      {
        phase: 'load',
      },
    );
  }
  return { name: m.id!, rig: 'arkit-52', ...m } as AvatarManifest;
}

/** Asset routes authenticate like the manifest (`?appId=`); add it unless the URL has it. */
function withAppId(url: string, appId: string): string {
  if (/[?&]appId=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}appId=${encodeURIComponent(appId)}`;
}

function assetKey(asset: AvatarAsset): string {
  return asset.name ?? asset.url;
}
