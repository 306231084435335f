/**
 * The avatars this service serves, read once at start-up from a directory:
 * - `<dir>/<id>.glb`, or
 * - `<dir>/<id>/avatar.glb` with an optional `<dir>/<id>/manifest.json` ({name, …}) — the layout
 *   of @avatar-drive/avatars' `dist/`.
 * A file that is not a drivable glTF 2.0 avatar is reported and skipped, never fatal.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RIG_ID } from '@avatar-drive/core';
import { type GltfAvatarInfo, InvalidAvatarError, inspectGlb } from './gltf-inspect.js';

/** One downloadable file of an avatar. */
export interface AvatarAsset {
  /** File name in URLs (`avatar.glb`). */
  name: string;
  contentType: string;
  /** Hex SHA-256 of the bytes; the strong ETag and part of the immutable URL. */
  sha256: string;
  size: number;
  /** Absolute path on disk. */
  path: string;
}

export interface Avatar {
  id: string;
  name: string;
  rig: string;
  morphTargets: { arkit: number; visemes: number };
  model: AvatarAsset;
  /** Fields from the avatar's manifest.json other than those above (description, thumbnails…). */
  extra: Record<string, unknown>;
}

/** A file that was skipped, and why. */
export interface AvatarProblem {
  path: string;
  reason: string;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export class AvatarCatalog {
  readonly #avatars: Map<string, Avatar>;
  readonly problems: readonly AvatarProblem[];

  private constructor(avatars: Map<string, Avatar>, problems: AvatarProblem[]) {
    this.#avatars = avatars;
    this.problems = problems;
  }

  /** An empty catalog (no avatars directory configured). */
  static empty(): AvatarCatalog {
    return new AvatarCatalog(new Map(), []);
  }

  /** Reads every avatar in `dir`. A missing directory is a problem, not an exception. */
  static async load(dir: string): Promise<AvatarCatalog> {
    const avatars = new Map<string, Avatar>();
    const problems: AvatarProblem[] = [];
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dir, reason: `cannot read the avatars directory: ${(error as Error).message}` });
      return new AvatarCatalog(avatars, problems);
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      let id: string;
      let glbPath: string;
      let manifestPath: string | undefined;
      if (entry.isFile() && entry.name.endsWith('.glb')) {
        id = entry.name.slice(0, -4);
        glbPath = join(dir, entry.name);
      } else if (entry.isFile() && entry.name.endsWith('.gltf')) {
        problems.push({
          path: join(dir, entry.name),
          reason: 'a .gltf with external files; pack it as .glb',
        });
        continue;
      } else if (entry.isDirectory()) {
        id = entry.name;
        glbPath = join(dir, entry.name, 'avatar.glb');
        manifestPath = join(dir, entry.name, 'manifest.json');
        if (!(await isFile(glbPath))) continue;
      } else {
        continue;
      }
      if (!ID_PATTERN.test(id)) {
        problems.push({ path: glbPath, reason: `"${id}" is not a valid avatar id (letters, digits, . _ -)` });
        continue;
      }
      if (avatars.has(id)) {
        problems.push({ path: glbPath, reason: `avatar id "${id}" is already taken by another file` });
        continue;
      }
      try {
        avatars.set(id, await readAvatar(id, glbPath, manifestPath));
      } catch (error) {
        const reason =
          error instanceof InvalidAvatarError ? error.message : `unreadable: ${(error as Error).message}`;
        problems.push({ path: glbPath, reason });
      }
    }
    return new AvatarCatalog(avatars, problems);
  }

  get size(): number {
    return this.#avatars.size;
  }

  get(id: string): Avatar | undefined {
    return this.#avatars.get(id);
  }

  list(): Avatar[] {
    return [...this.#avatars.values()];
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function readAvatar(id: string, glbPath: string, manifestPath: string | undefined): Promise<Avatar> {
  const bytes = await readFile(glbPath);
  const info: GltfAvatarInfo = inspectGlb(bytes);
  let extra: Record<string, unknown> = {};
  if (manifestPath && (await isFile(manifestPath))) {
    try {
      const parsed = JSON.parse(await readFile(manifestPath, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        extra = parsed as Record<string, unknown>;
    } catch (error) {
      throw new InvalidAvatarError(`manifest.json does not parse: ${(error as Error).message}`);
    }
  }
  const { name, id: _id, rig: _rig, assets: _assets, ...rest } = extra;
  return {
    id,
    name: typeof name === 'string' && name ? name : id,
    rig: RIG_ID,
    morphTargets: { arkit: info.arkitTargets.length, visemes: info.visemeTargets.length },
    model: {
      name: 'avatar.glb',
      contentType: 'model/gltf-binary',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.byteLength,
      path: glbPath,
    },
    extra: rest,
  };
}
