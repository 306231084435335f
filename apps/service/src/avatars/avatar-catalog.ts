/**
 * The built-in avatars this service serves, read once at start-up from a directory
 * (`--avatars-dir`, AVATAR_DRIVE_AVATARS_DIR):
 * - `<dir>/<id>.glb` or `<dir>/<id>.vrm`, or
 * - `<dir>/<id>/avatar.glb` (or `.vrm`) with an optional `<dir>/<id>/manifest.json`
 *   ({name, model: {uri, bytes, sha256}, …}) — the layout of @avatar-drive/avatars' `dist/`.
 * Every file gets the same structural check as an upload. A file that fails it, a manifest whose
 * model file is missing or whose sha256/bytes do not match the file, is reported by name with the
 * reason and skipped, never fatal.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RIG_ID } from '@avatar-drive/core';
import { drivableCoverage, morphTargetCounts, summariseCoverage } from './drivable.js';
import { precheckGlb } from './glb-precheck.js';

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
  rig: typeof RIG_ID;
  format: 'glb' | 'vrm';
  morphTargets: { arkit: number; visemes: number };
  /** Summary of the coverage report (format, mouth, counts, missing, fallbacks, warnings). */
  coverage: Record<string, unknown>;
  model: AvatarAsset;
  /** Fields from the avatar's manifest.json other than those above (description, thumbnails…). */
  extra: Record<string, unknown>;
}

/** A file that was skipped, and why. */
export interface AvatarProblem {
  path: string;
  /** The path relative to the avatars directory (what operators and the console listing see). */
  file: string;
  reason: string;
}

/** Built-in files are trusted more than uploads, but a size bound still applies (256 MiB). */
const MAX_BUILT_IN_BYTES = 256 * 1024 * 1024;

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

  /**
   * Reads every avatar in `dirs` (one directory or several, in order: an id an earlier directory
   * took is a reported problem). A missing directory is a problem, not an exception.
   */
  static async load(dirs: string | readonly string[]): Promise<AvatarCatalog> {
    const avatars = new Map<string, Avatar>();
    const problems: AvatarProblem[] = [];
    for (const dir of typeof dirs === 'string' ? [dirs] : dirs) await readDir(dir, avatars, problems);
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

async function readDir(dir: string, avatars: Map<string, Avatar>, problems: AvatarProblem[]): Promise<void> {
  const skip = (file: string, reason: string) => problems.push({ path: join(dir, file), file, reason });
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    problems.push({
      path: dir,
      file: '.',
      reason: `cannot read the avatars directory: ${(error as Error).message}`,
    });
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    let id: string;
    let file: string;
    let manifestFile: string | undefined;
    const single = /^(.+)\.(glb|vrm)$/.exec(entry.name);
    if (entry.isFile() && single) {
      id = single[1]!;
      file = entry.name;
    } else if (entry.isFile() && entry.name.endsWith('.gltf')) {
      skip(entry.name, 'a .gltf with external files; pack it as .glb');
      continue;
    } else if (entry.isDirectory()) {
      id = entry.name;
      const found = await modelFileOf(dir, entry.name);
      if ('problem' in found) {
        if (found.problem) skip(found.file, found.problem);
        continue;
      }
      file = found.file;
      manifestFile = found.manifestFile;
    } else {
      continue;
    }
    if (!ID_PATTERN.test(id)) {
      skip(file, `"${id}" is not a valid avatar id (letters, digits, . _ -)`);
      continue;
    }
    if (avatars.has(id)) {
      skip(file, `avatar id "${id}" is already taken by another file`);
      continue;
    }
    try {
      avatars.set(id, await readAvatar(id, dir, file, manifestFile));
    } catch (error) {
      skip(file, (error as Error).message);
    }
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

interface ModelFile {
  file: string;
  manifestFile?: string;
  manifest?: Record<string, unknown>;
}

/**
 * The model file of `<dir>/<sub>/`: the manifest's `model.uri`, else avatar.glb or avatar.vrm.
 * `problem` (empty: not an avatar directory at all, say nothing) when there is none.
 */
async function modelFileOf(dir: string, sub: string): Promise<ModelFile | { file: string; problem: string }> {
  const manifestFile = join(sub, 'manifest.json');
  const hasManifest = await isFile(join(dir, manifestFile));
  let uri: unknown;
  if (hasManifest) {
    try {
      uri = (JSON.parse(await readFile(join(dir, manifestFile), 'utf8')) as { model?: { uri?: unknown } })
        ?.model?.uri;
    } catch (error) {
      return { file: manifestFile, problem: `manifest.json does not parse: ${(error as Error).message}` };
    }
    if (
      uri !== undefined &&
      (typeof uri !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*\.(glb|vrm)$/.test(uri))
    ) {
      return {
        file: manifestFile,
        problem: `model.uri must name a .glb or .vrm file next to manifest.json (no paths, no URLs); got ${JSON.stringify(uri)?.slice(0, 80)}`,
      };
    }
  }
  for (const name of typeof uri === 'string' ? [uri] : ['avatar.glb', 'avatar.vrm']) {
    if (await isFile(join(dir, sub, name))) {
      return { file: join(sub, name), ...(hasManifest && { manifestFile }) };
    }
  }
  if (!hasManifest) return { file: sub, problem: '' };
  return {
    file: join(sub, typeof uri === 'string' ? uri : 'avatar.glb'),
    problem: `the model file ${typeof uri === 'string' ? uri : 'avatar.glb (or avatar.vrm)'} named by ${manifestFile} is missing; put it next to manifest.json`,
  };
}

async function readAvatar(
  id: string,
  dir: string,
  file: string,
  manifestFile: string | undefined,
): Promise<Avatar> {
  const bytes = await readFile(join(dir, file));
  const checked = precheckGlb(bytes, { maxBytes: MAX_BUILT_IN_BYTES });
  const coverage = summariseCoverage(drivableCoverage(checked));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let extra: Record<string, unknown> = {};
  if (manifestFile) {
    try {
      const parsed = JSON.parse(await readFile(join(dir, manifestFile), 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        extra = parsed as Record<string, unknown>;
    } catch (error) {
      throw new Error(`manifest.json does not parse: ${(error as Error).message}`);
    }
    const model = extra.model as { sha256?: unknown; bytes?: unknown } | undefined;
    if (model?.sha256 !== undefined && model.sha256 !== sha256) {
      throw new Error(
        `sha256 mismatch: ${manifestFile} says ${String(model.sha256).slice(0, 64)} but the file hashes to ${sha256}; fix model.sha256 (sha256sum ${file}) or replace the file`,
      );
    }
    if (model?.bytes !== undefined && model.bytes !== bytes.byteLength) {
      throw new Error(
        `size mismatch: ${manifestFile} says ${String(model.bytes)} bytes but the file has ${bytes.byteLength}; fix model.bytes or replace the file`,
      );
    }
  }
  const { name, id: _id, rig: _rig, assets: _assets, model: _model, ...rest } = extra;
  const format = checked.format;
  return {
    id,
    name: typeof name === 'string' && name ? name : id,
    rig: RIG_ID,
    format,
    morphTargets: morphTargetCounts(checked),
    coverage,
    model: {
      name: `avatar.${format}`,
      contentType: 'model/gltf-binary',
      sha256,
      size: bytes.byteLength,
      path: join(dir, file),
    },
    extra: rest,
  };
}
