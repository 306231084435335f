/** Checks, once, that the machine has what the server-sdk integration tests need. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '../../../..');
  if (!existsSync(join(root, 'apps/service/dist/main.js'))) {
    throw new Error('The driving service is not built: run `pnpm build` (or `bash scripts/setup.sh`) first.');
  }
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'redis-server is not installed. Run `bash scripts/setup.sh` (or `apt-get install -y redis-server`).',
    );
  }
}
