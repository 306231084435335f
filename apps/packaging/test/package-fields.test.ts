/**
 * What every published package declares for npm, checked without packing: the licence and its
 * file, repository, publishConfig, and exports that point at files the build made and `files`
 * ships.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, REPO_ROOT } from '../src/pack.js';

const LICENSE = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
const packages = [...publishedPackages().values()];

/** Every file path an `exports` map (or bin) points at. */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

describe('published packages', () => {
  it('are the eleven the project ships', () => {
    expect(packages.map((p) => p.name).sort()).toEqual(
      [
        'agent-plugin',
        'avatars',
        'client-core',
        'client-web',
        'core',
        'engine',
        'react',
        'react-native',
        'rtc-player',
        'server-sdk',
        'token-server',
      ].map((n) => `@avatar-drive/${n}`),
    );
  });

  it('the root is Apache-2.0', () => {
    expect(LICENSE).toContain('Apache License');
    expect(LICENSE).toContain('Version 2.0, January 2004');
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).license).toBe('Apache-2.0');
  });

  for (const pkg of packages) {
    describe(pkg.name, () => {
      // biome-ignore lint/suspicious/noExplicitAny: a package.json, read field by field
      const m = pkg.manifest as Record<string, any>;

      it('has the licence field and the LICENSE file (identical to the root one), shipped', () => {
        expect(m.license).toBe('Apache-2.0');
        expect(readFileSync(join(pkg.dir, 'LICENSE'), 'utf8')).toBe(LICENSE);
        expect(m.files).toContain('LICENSE');
      });

      it('names its repository directory and publishes publicly', () => {
        expect(m.repository).toMatchObject({ type: 'git', directory: relative(REPO_ROOT, pkg.dir) });
        expect(m.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
        expect(m.publishConfig).toEqual({ access: 'public' });
      });

      it('exports files that the build made and `files` ships', () => {
        const targets = [...exportTargets(m.exports), ...exportTargets(m.bin ?? {})].filter(
          (t) => !t.includes('*'),
        );
        expect(targets.length).toBeGreaterThan(0);
        for (const target of targets) {
          expect(existsSync(join(pkg.dir, target)), `${pkg.name}: ${target} missing (pnpm build first)`).toBe(
            true,
          );
          const top = target.replace(/^\.\//, '').split('/')[0]!;
          if (top !== 'package.json')
            expect(m.files, `${pkg.name}: files does not ship ${top}`).toContain(top);
        }
      });
    });
  }
});
