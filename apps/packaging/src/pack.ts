/**
 * Packs the published @avatar-drive packages into npm tarballs with `pnpm pack`, which rewrites
 * `workspace:*` ranges to the packages' versions, so the tarballs install with plain npm anywhere.
 * Used by `pnpm pack:all` and by the install test.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (apps/packaging/src → ../../..). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** A package the workspace publishes (packages/*, not private). */
export interface PublishedPackage {
  name: string;
  version: string;
  /** Its directory, absolute. */
  dir: string;
  /** Its `@avatar-drive/*` runtime dependencies. */
  workspaceDependencies: string[];
  manifest: Record<string, unknown>;
}

/** Every published package of the workspace, by name. */
export function publishedPackages(root = REPO_ROOT): Map<string, PublishedPackage> {
  const found = new Map<string, PublishedPackage>();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, 'packages', entry.name);
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private === true) continue;
    const dependencies = (manifest.dependencies ?? {}) as Record<string, string>;
    found.set(manifest.name as string, {
      name: manifest.name as string,
      version: manifest.version as string,
      dir,
      workspaceDependencies: Object.keys(dependencies).filter((d) => d.startsWith('@avatar-drive/')),
      manifest,
    });
  }
  return found;
}

/**
 * The packages to install together with `names`: they and every `@avatar-drive/*` package they
 * depend on, transitively (npm cannot fetch those from the registry until they are published).
 */
export function installClosure(names: readonly string[], all = publishedPackages()): string[] {
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name)) return;
    const pkg = all.get(name);
    if (!pkg) throw new Error(`${name} is not a published package of this workspace.`);
    out.add(name);
    for (const dep of pkg.workspaceDependencies) visit(dep);
  };
  for (const name of names) visit(name);
  return [...out].sort();
}

/** The file name `pnpm pack` gives a package's tarball. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/**
 * Packs `names` (default: every published package) into `destination`, two at a time, and
 * returns the tarball paths by package name. Needs the packages built (`pnpm build`).
 */
export async function packPackages(
  destination: string,
  names?: readonly string[],
  all = publishedPackages(),
): Promise<Map<string, string>> {
  await mkdir(destination, { recursive: true });
  const queue = [...(names ?? all.keys())];
  const tarballs = new Map<string, string>();
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const pkg = all.get(name);
      if (!pkg) throw new Error(`${name} is not a published package of this workspace.`);
      await run('pnpm', ['pack', '--pack-destination', destination], { cwd: pkg.dir });
      tarballs.set(name, join(destination, tarballName(pkg.name, pkg.version)));
    }
  };
  await Promise.all([worker(), worker()]);
  return tarballs;
}
