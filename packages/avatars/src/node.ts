/**
 * Node-only helpers: where the built-in avatar files are on disk.
 * @packageDocumentation
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the directory holding `index.json` and `<id>/manifest.json` + `<id>/avatar.glb`
 * for every built-in avatar: point the service's avatars directory here.
 *
 * @example
 * import { builtInAvatarsDir } from '@avatar-drive/avatars/node';
 * const dir = process.env.AVATARS_DIR ?? builtInAvatarsDir();
 */
export function builtInAvatarsDir(): string {
  // This module is bundled to dist/node.(c)js, next to the avatar directories.
  const here = dirname(fileURLToPath(import.meta.url));
  return here.endsWith('src') ? join(here, '..', 'dist') : here;
}
