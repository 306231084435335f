/** Checks, once, that the machine has what the service tests need. */
import { execFileSync } from 'node:child_process';

/** Debian package → a command that proves it is installed. */
const NEEDED: Array<[pkg: string, command: string, args: string[], why: string]> = [
  ['redis-server', 'redis-server', ['--version'], 'the shared store tests'],
  ['openssl', 'openssl', ['version'], 'the TLS tests (a CA made at test time)'],
  ['haproxy', 'haproxy', ['-v'], 'the trusted-proxy tests (a TLS-terminating proxy)'],
];

export default function setup(): void {
  for (const [pkg, command, args, why] of NEEDED) {
    try {
      execFileSync(command, args, { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${command} is not installed (needed by ${why}). Run \`bash scripts/setup.sh\` (or \`apt-get install -y ${pkg}\`).`,
      );
    }
  }
}
