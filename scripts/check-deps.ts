/**
 * `pnpm lint` runs this: fails when a workspace package imports against the declared direction.
 *
 * - every `@avatar-drive/*` import (static, dynamic, require, `export … from`) of a package is
 *   declared in its package.json: runtime dependencies for `src/`, any kind elsewhere (tests,
 *   benches, scripts);
 * - no relative import in `src/` leaves its package (packages talk through their entry points;
 *   tests may reach into another package's sources and test support, as they run the real thing);
 * - the runtime dependency graph has no cycle, and nothing under packages/ depends on an app;
 * - the README's "Dependencies point one way" line is true: each arrow it draws is a declared
 *   runtime dependency, and every declared runtime dependency is one of its arrows or follows
 *   from them (core ← engine ← service covers service → core);
 * - inside a package with rooms (apps/service/src: scripts/check-rooms.ts), each room imports only
 *   the rooms below it.
 *
 * `--print` prints the runtime edges instead of checking the README (to rewrite that line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { allRoomProblems } from './check-rooms.js';
import { importsOf, sourceFiles } from './source-imports.js';

const ROOT = resolve(import.meta.dirname, '..');
const SCOPE = '@avatar-drive/';
/** Private test tooling: may be used by any package's tests, never appears in the README line. */
const TOOLING = new Set(['test-chromium']);

interface Pkg {
  name: string;
  short: string;
  dir: string;
  isApp: boolean;
  runtime: Set<string>;
  dev: Set<string>;
}

function readPackages(): Pkg[] {
  const out: Pkg[] = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(ROOT, group))) {
      const dir = join(ROOT, group, entry);
      let json: Record<string, Record<string, string> | string>;
      try {
        json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      const deps = (kinds: string[]) =>
        new Set(
          kinds.flatMap((kind) =>
            Object.keys((json[kind] as Record<string, string> | undefined) ?? {}).filter((n) =>
              n.startsWith(SCOPE),
            ),
          ),
        );
      const name = json.name as string;
      out.push({
        name,
        short: name.slice(SCOPE.length),
        dir,
        isApp: group === 'apps',
        runtime: deps(['dependencies', 'peerDependencies', 'optionalDependencies']),
        dev: deps(['devDependencies']),
      });
    }
  }
  return out;
}

function checkImports(pkg: Pkg, problems: string[]): void {
  for (const file of sourceFiles(pkg.dir)) {
    const rel = relative(ROOT, file);
    const inSrc = relative(pkg.dir, file).split(sep)[0] === 'src';
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith(SCOPE)) {
        const target = spec.split('/').slice(0, 2).join('/');
        if (target === pkg.name) continue;
        if (pkg.runtime.has(target)) continue;
        if (!inSrc && pkg.dev.has(target)) continue;
        problems.push(
          pkg.dev.has(target)
            ? `${rel} imports ${target}, a devDependency of ${pkg.name}: source code needs it in dependencies (or peerDependencies).`
            : `${rel} imports ${target}, which ${pkg.name}'s package.json does not declare: add it, or import through a package it depends on.`,
        );
      } else if (inSrc && spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (!(target + sep).startsWith(pkg.dir + sep)) {
          problems.push(`${rel} imports ${spec}, outside ${pkg.name}: import the other package by name.`);
        }
      }
    }
  }
}

function runtimeEdges(pkgs: Pkg[]): [from: string, to: string][] {
  const known = new Set(pkgs.map((p) => p.name));
  return pkgs.flatMap((p) =>
    [...p.runtime]
      .filter((d) => known.has(d))
      .map((d) => [p.short, d.slice(SCOPE.length)] as [string, string]),
  );
}

function checkGraph(pkgs: Pkg[], problems: string[]): void {
  const byName = new Map(pkgs.map((p) => [p.name, p]));
  for (const p of pkgs) {
    if (p.isApp) continue;
    for (const d of [...p.runtime, ...p.dev]) {
      if (byName.get(d)?.isApp)
        problems.push(`${p.name} depends on the app ${d}: nothing under packages/ may depend on apps.`);
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      problems.push(`dependency cycle: ${[...path.slice(path.indexOf(name)), name].join(' → ')}`);
      return;
    }
    state.set(name, 'visiting');
    for (const d of byName.get(name)?.runtime ?? []) if (byName.has(d)) visit(d, [...path, name]);
    state.set(name, 'done');
  };
  for (const p of pkgs) visit(p.name, []);
}

/** Edges of the README line: "a ← b ← c; d ← e" means b depends on a, c on b, e on d. */
function readmeEdges(problems: string[]): [string, string][] | undefined {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const match = /Dependencies point one way[^:]*:\s*([\s\S]*?)\.\s*(?:\n\n|Nothing)/.exec(readme);
  if (!match) {
    problems.push('README.md has no "Dependencies point one way …: a ← b; …." line to check.');
    return undefined;
  }
  const edges: [string, string][] = [];
  for (const chain of match[1]!.replace(/\s+/g, ' ').split(';')) {
    const names = chain.split('←').map((s) => s.trim().replace(/`/g, ''));
    for (let i = 1; i < names.length; i++) {
      for (const to of names[i - 1]!.split(',').map((s) => s.trim())) {
        for (const from of names[i]!.split(',').map((s) => s.trim())) edges.push([from, to]);
      }
    }
  }
  return edges;
}

const problems: string[] = [];
const pkgs = readPackages();
for (const pkg of pkgs) checkImports(pkg, problems);
checkGraph(pkgs, problems);
problems.push(...allRoomProblems(ROOT));
const actual = runtimeEdges(pkgs).filter(([from, to]) => !TOOLING.has(from) && !TOOLING.has(to));
const key = ([from, to]: [string, string]) => `${from} → ${to}`;
if (process.argv.includes('--print')) {
  for (const edge of actual.sort()) console.log(key(edge));
} else {
  const documented = readmeEdges(problems);
  if (documented) {
    const said = new Set(documented.map(key));
    const have = new Set(actual.map(key));
    for (const edge of documented) {
      if (!have.has(key(edge)))
        problems.push(`README.md's dependency line draws ${key(edge)}, which no package.json declares.`);
    }
    /** Whether the line's arrows lead from `from` to `to` (directly or through others). */
    const reach = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (said.has(`${from} → ${to}`)) return true;
      for (const [a, b] of documented) {
        if (a !== from || seen.has(b)) continue;
        seen.add(b);
        if (reach(b, to, seen)) return true;
      }
      return false;
    };
    for (const [from, to] of actual) {
      if (!reach(from, to)) problems.push(`README.md's dependency line misses ${from} → ${to}.`);
    }
  }
}
if (problems.length > 0) {
  console.error(`check-deps: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
if (!process.argv.includes('--print'))
  console.log(
    `check-deps: ${pkgs.length} packages import only what they declare, one way; the service's rooms import only down.`,
  );
