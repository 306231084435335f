/**
 * `pnpm start`: builds what is missing, starts the driving service (two regions), the token
 * server, the Host-mode relay example and the demo page on loopback, prints the one URL to open,
 * and stops everything on Ctrl-C (or SIGTERM).
 *
 * Ports (environment): AVATAR_DRIVE_PORT (8710, region ap-northeast), AVATAR_DRIVE_BACKUP_PORT
 * (8720, us-west), TOKEN_SERVER_PORT (8790), HOST_RELAY_PORT (8788), DEMO_PORT (5173).
 * Set SKIP_BUILD=1 to start without building.
 *
 * `--host ADDRESS` (or AVATAR_DRIVE_HOST) listens on that IPv4 address instead of loopback;
 * `--host 0.0.0.0` listens everywhere and hands out this machine's LAN address, so a phone on the
 * same network reaches the stack (examples/react-native). Nothing here has TLS or a firewall: use
 * it on a network you trust.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, type Stack, stackAddresses, startStack } from '../apps/demo/server/stack.ts';

const env = process.env;
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);

function hostOption(): string {
  try {
    const { values } = parseArgs({ options: { host: { type: 'string' } }, strict: true });
    const host = values.host ?? env.AVATAR_DRIVE_HOST ?? '127.0.0.1';
    stackAddresses(host); // fails early, with what to pass
    return host;
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: pnpm start [--host ADDRESS]`);
    process.exit(2);
  }
}

const NEEDED = [
  'packages/core/dist/index.js',
  'packages/engine/dist/index.js',
  'packages/avatars/dist/index.json',
  'packages/client-web/dist/index.js',
  'packages/server-sdk/dist/index.js',
  'packages/token-server/dist/bin.js',
  'apps/service/dist/main.js',
  'apps/demo/dist/index.html',
];

function build() {
  if (env.SKIP_BUILD === '1') return;
  const missing = NEEDED.filter((file) => !existsSync(join(REPO_ROOT, file)));
  // turbo caches: a full build is quick when nothing changed, and rebuilds what did.
  console.log(
    missing.length ? `Building (missing: ${missing.join(', ')})…` : 'Building (cached where unchanged)…',
  );
  const result = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; fix the error above and run `pnpm start` again.');
    process.exit(result.status ?? 1);
  }
}

const COLOURS: Record<string, string> = { primary: '36', backup: '34', token: '35', relay: '33' };
const verbose = env.LOG_LEVEL === 'debug' || env.VERBOSE === '1';

async function main() {
  const host = hostOption();
  build();
  let stack: Stack | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await stack?.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    stack = await startStack({
      host,
      ports: {
        primary: port('AVATAR_DRIVE_PORT', 8710),
        backup: port('AVATAR_DRIVE_BACKUP_PORT', 8720),
        token: port('TOKEN_SERVER_PORT', 8790),
        relay: port('HOST_RELAY_PORT', 8788),
        demo: port('DEMO_PORT', 5173),
      },
      log: (name, line) => {
        // Service JSON logs are noisy; show warnings/errors and plain lines (banners, errors).
        if (!verbose && line.startsWith('{') && !/"level":(40|50|60)/.test(line)) return;
        process.stdout.write(`\x1b[${COLOURS[name] ?? '37'}m${name.padEnd(7)}\x1b[0m ${line}\n`);
      },
    });
  } catch (error) {
    console.error(`\nCould not start: ${(error as Error).message}`);
    console.error(
      'Is another `pnpm start` running (ports 8710, 8720, 8788, 8790, 5173)? Set the *_PORT variables to move.',
    );
    process.exit(1);
  }
  if (stopping) return;
  const { ports, address } = stack;
  // A phone needs the address, not loopback: say what to give the React Native example.
  const phone =
    address === '127.0.0.1'
      ? ''
      : `
      Phone (examples/react-native):  EXPO_PUBLIC_AVATAR_DRIVE_HOST=${address}
`;
  console.log(`
  Avatar Drive is running on ${address}:  service ap-northeast :${ports.primary} · us-west :${ports.backup} · token server :${ports.token} · host relay :${ports.relay}

      Open  \x1b[1;4m${stack.url}\x1b[0m
${phone}
  Ctrl-C stops everything.
`);
}

void main();
