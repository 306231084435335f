/** Checks, once, that the machine has what the server-sdk integration tests need. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '../../../..');
  if (!existsSync(join(root, 'apps/service/dist/main.js'))) {
    throw new Error('The driving service is not built: run `pnpm build` (or `bash scripts/setup.sh`) first.');
  }
  if (!existsSync(join(root, 'packages/server-sdk/dist/index.js'))) {
    throw new Error('server-sdk is not built (the examples import it): run `pnpm build` first.');
  }
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'redis-server is not installed. Run `bash scripts/setup.sh` (or `apt-get install -y redis-server`).',
    );
  }
}
