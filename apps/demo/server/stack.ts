/**
 * Starts the whole demo stack (on loopback unless `host` says otherwise): the driving service as two independent regions (two
 * processes that share the dev credentials — signing key and app — and nothing else: each keeps its
 * own single-use token ledger, or its own Redis),
 * the token server, the Host-mode relay example, and the demo's web server (in this process).
 * Used by `pnpm start` (scripts/start.ts) and by the e2e tests (apps/e2e), so both run the same
 * thing. Everything must be built first (`pnpm build`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer, isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type DemoConfig, portOf, startDemoServer } from './demo-server.js';

/** The repository root (apps/demo/server → ../../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The names of the processes a stack runs. */
export type StackProcess = 'primary' | 'backup' | 'token' | 'relay' | 'redis' | 'backupRedis';

export interface StackOptions {
  /** Ports; 0 (or absent) = a free one. `pnpm start` uses fixed defaults. */
  ports?: Partial<Record<StackProcess | 'demo', number>>;
  /** Dev credentials file shared by both regions (default the repo's `.avatar-drive/dev-credentials.json`). */
  devCredentials?: string;
  /** Where child output goes, one line at a time; default discarded. */
  log?: (name: string, line: string) => void;
  /** Avatar the relay example's sessions use (default the first the service lists). */
  relayAvatarId?: string;
  /** Token server requests per minute per client (0 = unlimited; default 30). */
  tokenRateLimit?: number;
  /**
   * Run one `redis-server` per region as that region's store (single-use token ledger, limits,
   * session counts), as a production deployment would (`redis` is the primary's, `backupRedis` the
   * backup's). Default false: each region's embedded store, with its single-use ledger in
   * `used-tokens/<region>/` next to the dev credentials. Either way the regions share no state, so
   * either can die (with its store) and the other keeps serving; single use holds per region.
   */
  redis?: boolean;
  /** Extra environment for the service processes. */
  serviceEnv?: Record<string, string>;
  /**
   * The built page the web server serves (default `apps/demo/dist`); another app built against
   * the same `/demo-config.json`, e.g. `examples/react/dist`.
   */
  pageRoot?: string;
  /**
   * Where the service, token server, relay and page listen (default `127.0.0.1`). `0.0.0.0`
   * listens on every interface and gives clients this machine's first LAN IPv4 address; any other
   * IPv4 address is used as is. For a phone on the same network (`pnpm start --host 0.0.0.0`).
   * Redis stays on loopback.
   */
  host?: string;
}

/** A running stack. */
export interface Stack {
  /** The one URL to open. */
  url: string;
  config: DemoConfig;
  /** Console URL per region. */
  consoles: Record<'primary' | 'backup', string>;
  ports: Record<Exclude<StackProcess, 'redis' | 'backupRedis'> | 'demo', number>;
  /** The address the URLs above use: `host`, or the LAN address when listening on `0.0.0.0`. */
  address: string;
  appId: string;
  /** Kills one process at once (SIGKILL), e.g. a region to test fallback. */
  kill(name: StackProcess): Promise<void>;
  /** Stops everything (SIGTERM, then SIGKILL after 3 s). */
  stop(): Promise<void>;
}

const PRIMARY = 'ap-northeast';
const BACKUP = 'us-west';

/**
 * Where a stack listens and the address it hands to clients (which cannot dial `0.0.0.0`).
 * Throws, saying what to pass, for anything but an IPv4 address, or a wildcard on a machine with
 * no LAN address.
 */
export function stackAddresses(host = '127.0.0.1'): { bind: string; address: string } {
  if (!isIPv4(host)) {
    throw new Error(`--host ${host}: give this machine's IPv4 address, or 0.0.0.0 for every interface.`);
  }
  if (host !== '0.0.0.0') return { bind: host, address: host };
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  if (!lan) {
    throw new Error(
      '--host 0.0.0.0: this machine has no LAN IPv4 address; pass the address phones should use.',
    );
  }
  return { bind: host, address: lan.address };
}

/** A free port on `host` (listen on 0, read it, close). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

/** Starts the stack; on any failure stops what it started and rethrows. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = options.log ?? (() => {});
  const { bind, address } = stackAddresses(options.host);
  const want = options.ports ?? {};
  const ports = {
    primary: want.primary || (await freePort(bind)),
    backup: want.backup || (await freePort(bind)),
    token: want.token || (await freePort(bind)),
    relay: want.relay || (await freePort(bind)),
    demo: want.demo || (await freePort(bind)),
  };
  const children = new Map<StackProcess, ChildProcess>();
  let demoServer: Server | undefined;
  const stop = async () => {
    demoServer?.closeAllConnections();
    await new Promise<void>((ok) => (demoServer ? demoServer.close(() => ok()) : ok()));
    const isRedis = (name: StackProcess) => name === 'redis' || name === 'backupRedis';
    await Promise.all(
      [...children.entries()]
        .filter(([name]) => !isRedis(name))
        .map(([, child]) => terminate(child, 'SIGTERM')),
    );
    await Promise.all(
      [...children.entries()]
        .filter(([name]) => isRedis(name))
        .map(([, child]) => terminate(child, 'SIGTERM')),
    );
  };
  try {
    const devCredentials = options.devCredentials ?? join(REPO_ROOT, '.avatar-drive', 'dev-credentials.json');
    const consoles = {
      primary: `http://${address}:${ports.primary}`,
      backup: `http://${address}:${ports.backup}`,
    };
    const ingress = {
      [PRIMARY]: `ws://${address}:${ports.primary}/v2/driveningress`,
      [BACKUP]: `ws://${address}:${ports.backup}/v2/driveningress`,
    };
    const redisUrls: Partial<Record<string, string>> = {};
    if (options.redis) {
      for (const [name, region] of [
        ['redis', PRIMARY],
        ['backupRedis', BACKUP],
      ] as const) {
        const redisPort = await freePort();
        const redis = spawn(
          'redis-server',
          ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        children.set(name, redis);
        redis.stdout?.resume();
        redis.stderr?.resume();
        await waitForTcp(redisPort, redis);
        redisUrls[region] = `redis://127.0.0.1:${redisPort}`;
      }
    }
    const engineModule = pathToFileURL(join(REPO_ROOT, 'packages/engine/dist/index.js')).href;
    const service = (region: string, port: number) =>
      launch(
        region === PRIMARY ? 'primary' : 'backup',
        [
          join(REPO_ROOT, 'apps/service/dist/main.js'),
          '--region',
          region,
          '--port',
          String(port),
          '--host',
          bind,
          '--dev-credentials',
          devCredentials,
          '--engine-module',
          engineModule,
          // The demo server proxies avatar reads (from this machine, to `address`) and names its own
          // origin in X-Forwarded-Host, so asset URLs point back to the page (docs/deploy.md,
          // "Behind a proxy").
          '--trusted-proxies',
          address === '127.0.0.1' ? address : `127.0.0.1,${address}`,
          ...(redisUrls[region] ? ['--redis-url', redisUrls[region]] : []),
        ],
        { ...options.serviceEnv },
        log,
      );
    // The first region creates the dev credentials; the second reads the same file.
    children.set('primary', service(PRIMARY, ports.primary));
    await waitForHttp(`${consoles.primary}/readyz`, children.get('primary')!, 'primary');
    children.set('backup', service(BACKUP, ports.backup));
    const credentials = JSON.parse(await readFile(devCredentials, 'utf8')) as {
      appId: string;
      apiKey: string;
    };
    const { appId, apiKey } = credentials;

    const avatars = (await (
      await fetch(`${consoles.primary}/v1/console/avatars?appId=${encodeURIComponent(appId)}`)
    ).json()) as Array<{ id: string }> | { avatars: Array<{ id: string }> };
    const list = Array.isArray(avatars) ? avatars : avatars.avatars;
    const relayAvatarId = options.relayAvatarId ?? list[0]?.id;
    if (!relayAvatarId) throw new Error('The service lists no avatars: run `pnpm build` (packages/avatars).');

    const demoOrigin = `http://${address}:${ports.demo}`;
    // The built-in regions are the default ports; on other ports the token server mints from the
    // backup region's console, so it keeps working when a test kills the primary.
    const builtIn = ports.primary === 8710 && ports.backup === 8720;
    const drive = { AVATAR_DRIVE_API_KEY: apiKey, AVATAR_DRIVE_APP_ID: appId };
    children.set(
      'token',
      launch(
        'token',
        [
          join(REPO_ROOT, 'packages/token-server/dist/bin.js'),
          '--port',
          String(ports.token),
          '--host',
          bind,
          '--cors-origin',
          demoOrigin,
          '--rate-limit',
          String(options.tokenRateLimit ?? 30),
        ],
        {
          ...drive,
          ...(builtIn ? { AVATAR_DRIVE_REGION: PRIMARY } : { AVATAR_DRIVE_CONSOLE_URL: consoles.backup }),
          AVATAR_DRIVE_TOKEN_TTL_SECONDS: '300',
          LOG_LEVEL: 'warn',
        },
        log,
      ),
    );
    children.set(
      'relay',
      launch(
        'relay',
        [join(REPO_ROOT, 'examples/host-relay/server.mjs')],
        {
          ...drive,
          AVATAR_ID: relayAvatarId,
          HOST: bind,
          PORT: String(ports.relay),
          AVATAR_DRIVE_CONSOLE_URL: consoles.primary,
          AVATAR_DRIVE_INGRESS_URL: ingress[PRIMARY]!,
          SPEECH_WAV: join(REPO_ROOT, 'apps/demo/dist/samples/hello.wav'),
        },
        log,
      ),
    );
    await Promise.all([
      waitForHttp(`${consoles.backup}/readyz`, children.get('backup')!, 'backup'),
      waitForHttp(`http://${address}:${ports.token}/health`, children.get('token')!, 'token'),
      waitForHttp(`http://${address}:${ports.relay}/session-token`, children.get('relay')!, 'relay', true),
    ]);

    const config: DemoConfig = {
      appId,
      primaryRegion: PRIMARY,
      backupRegion: BACKUP,
      ingress,
      tokenUrl: `http://${address}:${ports.token}/session-token`,
      relayUrl: `ws://${address}:${ports.relay}/relay`,
    };
    demoServer = await startDemoServer({
      root: options.pageRoot ?? join(REPO_ROOT, 'apps/demo/dist'),
      port: ports.demo,
      host: bind,
      config,
      consoles: [consoles.primary, consoles.backup],
      // Server-side only: the upload route adds it to POST /v1/console/avatars.
      apiKey,
    });
    ports.demo = portOf(demoServer);
    return {
      url: `${demoOrigin}/`,
      config,
      consoles,
      ports,
      address,
      appId,
      kill: async (name) => {
        const child = children.get(name);
        if (child) await terminate(child, 'SIGKILL');
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function launch(
  name: string,
  args: string[],
  env: Record<string, string>,
  log: (name: string, line: string) => void,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(name, line);
    });
  }
  return child;
}

/** Polls a URL until it answers (any status when `anyStatus`, else 2xx); fails if the process exits. */
async function waitForHttp(url: string, child: ChildProcess, name: string, anyStatus = false): Promise<void> {
  // Generous: a process that dies fails at once below; one that starts slowly (a loaded 2-core
  // machine takes 25 s for a service) is not a failure.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${name} exited (${child.exitCode ?? child.signalCode}) before it was ready; see its log.`,
      );
    }
    try {
      const response = await fetch(url, { method: anyStatus ? 'GET' : 'GET' });
      if (anyStatus || response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} did not become ready at ${url} within 90 s.`);
}

async function waitForTcp(port: number, child: ChildProcess): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error('redis-server exited; is it installed (scripts/apt-packages.txt)?');
    const open = await new Promise<boolean>((ok) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        ok(true);
      });
      socket.on('error', () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start within 10 s.');
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
