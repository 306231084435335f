/** What the dependency checks read: a package's source files and the module specifiers they import. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'gen',
  '.turbo',
  'coverage',
  'playwright-report',
  'test-results',
]);

/** Source files under `dir` (no declaration files, build output or generated code). */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) yield path;
  }
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

/** Module specifiers a file imports (comments are dropped first, so examples in TSDoc do not count). */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(IMPORT)].map((m) => m[2]!);
}
