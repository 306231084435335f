/** Checks, once, that the machine has the engines the cluster tests run (and the built service). */
import { execFileSync } from 'node:child_process';
import { serviceMain } from '../src/service-node.js';

export default function setup(): void {
  for (const [command, args] of [
    ['redis-server', ['--version']],
    ['redis-sentinel', ['--version']],
    ['haproxy', ['-v']],
  ] as const) {
    try {
      execFileSync(command, [...args], { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${command} is not installed. Run \`bash scripts/setup.sh\` (or \`apt-get install -y redis-server redis-sentinel haproxy\`).`,
      );
    }
  }
  serviceMain(); // throws "run pnpm build first" when the service is not built
}
