/**
 * The React Native AvatarManager: client-core's loader with avatar assets cached on the device
 * file system (expo-file-system), in memory where that is unavailable.
 */
import { createAvatarManager } from '@avatar-drive/client-core';
import { openFileAssetStore } from './file-asset-store.js';

export {
  Avatar,
  type AvatarAsset,
  type AvatarCameraFraming,
  type AvatarManifest,
  type LoadProgress,
} from '@avatar-drive/client-core';

/** Loads and caches avatars: `load(id, progress)`, `clear(id)`, `clearAll()`. */
export const AvatarManager = createAvatarManager(openFileAssetStore);
