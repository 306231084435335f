/** Checks, once, that the machine has what the service tests need. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'redis-server is not installed. Run `bash scripts/setup.sh` (or `apt-get install -y redis-server`).',
    );
  }
}
