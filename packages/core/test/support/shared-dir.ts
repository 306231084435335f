/**
 * Where the project's shared, never-committed test data lives: `AVATAR_DRIVE_SHARED`, else
 * `../shared` next to the checkout (or next to the folder of worktrees holding it). `undefined`
 * when none exists — a fresh clone: tests that need it skip and say so.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../../..');

export function sharedDir(): string | undefined {
  const candidates = [
    process.env.AVATAR_DRIVE_SHARED,
    resolve(ROOT, '../shared'),
    resolve(ROOT, '../../shared'),
  ];
  return candidates.find((dir): dir is string => !!dir && existsSync(dir));
}

/** `../shared/fixtures/lam` when present. */
export function lamFixtures(): string | undefined {
  const shared = sharedDir();
  const dir = shared && resolve(shared, 'fixtures/lam');
  return dir && existsSync(dir) ? dir : undefined;
}
