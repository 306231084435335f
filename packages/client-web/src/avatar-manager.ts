/**
 * The browser's AvatarManager: client-core's loader with avatar assets cached in Cache Storage
 * (memory where Cache Storage is unavailable).
 */
import { createAvatarManager } from '@avatar-drive/client-core';
import { openAssetStore } from './asset-cache.js';

export {
  Avatar,
  type AvatarAsset,
  type AvatarCameraFraming,
  type AvatarManifest,
  type LoadProgress,
} from '@avatar-drive/client-core';

/** Loads and caches avatars (see client-core's `createAvatarManager`). */
export const AvatarManager = createAvatarManager(openAssetStore);
