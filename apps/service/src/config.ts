/**
 * Reads the service configuration from flags and environment variables (flags win). Without any
 * configured app, the embedded default applies: dev credentials from a git-ignored local file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { builtInAvatarsDir } from '@avatar-drive/avatars/node';
import { TrustedProxies } from './client-address.js';
import type { AppConfig } from './credentials/app-registry.js';
import { type DevCredentials, loadOrCreateDevCredentials } from './credentials/dev-credentials.js';
import { decodeSigningKey } from './credentials/session-tokens.js';
import { parseAllowedHosts } from './egress/livekit-hosts.js';
import { parseCorsOrigins } from './http/cors.js';
import type { ServiceLimits } from './limits.js';
import { isRegionId, REGIONS } from './regions.js';
import type { ServiceOptions } from './service.js';

/** The config file (`--config`, AVATAR_DRIVE_CONFIG): apps, signing key, limits. */
export interface ConfigFile {
  signingKey?: string;
  apps?: AppConfig[];
  limits?: Partial<ServiceLimits>;
}

export interface ResolvedConfig {
  options: ServiceOptions;
  /** Set in the embedded default: the dev credentials to print. */
  dev?: { credentials: DevCredentials; created: boolean; path: string };
  logLevel: string;
  /** Service processes sharing the port (1 = this process only). */
  processes: number;
}

const FLAGS = {
  region: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'trusted-proxies': { type: 'string' },
  'livekit-hosts': { type: 'string' },
  'cors-origin': { type: 'string' },
  config: { type: 'string' },
  'redis-url': { type: 'string' },
  'redis-sentinels': { type: 'string' },
  'redis-master-name': { type: 'string' },
  'redis-wait-replicas': { type: 'string' },
  'drain-timeout': { type: 'string' },
  'drain-delay': { type: 'string' },
  'overload-lag-ms': { type: 'string' },
  'overload-busy-percent': { type: 'string' },
  'overload-frame-late-ms': { type: 'string' },
  'overload-target-busy-percent': { type: 'string' },
  'overload-min-cpu-cores': { type: 'string' },
  'avatars-dir': { type: 'string' },
  'data-dir': { type: 'string' },
  'avatar-max-bytes': { type: 'string' },
  'avatars-per-app': { type: 'string' },
  'engine-workers': { type: 'string' },
  'engine-module': { type: 'string' },
  'engine-backend': { type: 'string' },
  'dev-credentials': { type: 'string' },
  'token-ledger-dir': { type: 'string' },
  'log-level': { type: 'string' },
  processes: { type: 'string' },
  help: { type: 'boolean' },
} as const;

export const USAGE = `avatar-drive-service [options]

  --region ap-northeast|us-west   AVATAR_DRIVE_REGION (default ap-northeast)
  --port N                        AVATAR_DRIVE_PORT / PORT (default 8710 ap-northeast, 8720 us-west)
  --host ADDR                     AVATAR_DRIVE_HOST (default 127.0.0.1)
  --public-url URL                AVATAR_DRIVE_PUBLIC_URL: origin used in asset URLs (default: X-Forwarded-Proto
                                  and -Host from a trusted proxy, else the address the request arrived on)
  --tls-cert FILE                 AVATAR_DRIVE_TLS_CERT: PEM certificate (chain); with --tls-key serves https + wss.
  --tls-key FILE                  AVATAR_DRIVE_TLS_KEY: its PEM private key. Both re-read on SIGHUP.
  --trusted-proxies LIST          AVATAR_DRIVE_TRUSTED_PROXIES: comma-separated addresses / CIDR ranges whose
                                  X-Forwarded-For/-Proto/-Host are believed (default none: ignored)
  --cors-origin LIST              AVATAR_DRIVE_CORS_ORIGIN: origins whose pages may read avatars and assets:
                                  * (default), comma-separated origins, or none. Token minting: never
  --config FILE                   AVATAR_DRIVE_CONFIG: JSON {signingKey, apps, limits}
                                  AVATAR_DRIVE_APPS: JSON array of apps
                                  AVATAR_DRIVE_SIGNING_KEY: base64url, >= 32 bytes
  --livekit-hosts LIST            AVATAR_DRIVE_LIVEKIT_HOSTS: LiveKit servers RTC sessions may join, comma-
                                  separated host, host:port, URL or *.domain (default: the host of
                                  LIVEKIT_URL when set, else none: RTC egress is refused)
  --redis-url URL                 REDIS_URL (shared store; in-memory when unset)
  --redis-sentinels LIST          REDIS_SENTINELS: host:port,host:port,… of Redis Sentinels; the store
                                  follows the primary they name (instead of --redis-url)
  --redis-master-name NAME        REDIS_MASTER_NAME: the name the sentinels monitor (default avatar-drive)
                                  REDIS_PASSWORD / REDIS_SENTINEL_PASSWORD: AUTH of the servers / sentinels
  --redis-wait-replicas N         AVATAR_DRIVE_REDIS_WAIT_REPLICAS: replicas that must confirm a used
                                  token before its session starts (default 1 with sentinels, else 0)
  --drain-timeout SECONDS         AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS: on SIGTERM, how long open utterances
                                  may finish before the remaining sessions are closed (default 25)
  --drain-delay MS                AVATAR_DRIVE_DRAIN_DELAY_MS: how long a draining node stays unready before
                                  it closes idle sessions, so the load balancer takes it out first (default 3000 with Redis, else 0)
  --overload-frame-late-ms MS     AVATAR_DRIVE_OVERLOAD_FRAME_LATE_MS: refuse new sessions (4503, /readyz 503) once
                                  the p99 lateness of the frames written in two 0.5 s windows in a row is above this,
                                  counted while the process uses at least --overload-min-cpu-cores (default 30; 0 = off)
  --overload-lag-ms MS            AVATAR_DRIVE_OVERLOAD_LAG_MS: … or the event loop's p99 lateness (default 50; 0 = off)
  --overload-busy-percent P       AVATAR_DRIVE_OVERLOAD_BUSY_PERCENT: … or the event loop busier than P % of the
                                  window (default 95; 0 = off)
  --overload-target-busy-percent P
                                  AVATAR_DRIVE_OVERLOAD_TARGET_BUSY_PERCENT: refuse new sessions before that, at the
                                  capacity estimated from each session's measured share of the event loop: as many
                                  sessions as keep it P % busy (default 0 = off; 85 is a start). --overload-lag-ms 0
                                  with --overload-busy-percent 0: never refuse for load (these two rules neither)
  --overload-min-cpu-cores C      AVATAR_DRIVE_OVERLOAD_MIN_CPU_CORES: CPU (cores, may be a fraction) the process must
                                  use in a window for it to count as loaded by its own sessions (default 0.5)
  --avatars-dir LIST              AVATAR_DRIVE_AVATARS_DIR: directories of avatars every app may use (<id>.glb,
                                  <id>.vrm or <id>/avatar.glb + manifest.json), comma-separated; builtin names those
                                  of @avatar-drive/avatars (default builtin; e.g. builtin,./my-avatars)
  --data-dir DIR                  AVATAR_DRIVE_DATA_DIR: uploaded avatar files (avatar-files/) and, without Redis,
                                  their records (avatar-records/<region>/); the same for every node of a region
                                  (default .avatar-drive/ in the repository)
  --avatar-max-bytes N            AVATAR_DRIVE_AVATAR_MAX_BYTES: largest avatar upload (default 33554432, 32 MiB)
  --avatars-per-app N             AVATAR_DRIVE_AVATARS_PER_APP: most uploaded avatars per app (default 20)
                                  AVATAR_DRIVE_AVATAR_VALIDATION_TIMEOUT_MS: longest validation of one upload (15000)
  --engine-workers N              AVATAR_DRIVE_ENGINE_WORKERS (0 = event loop)
  --engine-module SPEC            AVATAR_DRIVE_ENGINE_MODULE (default @avatar-drive/engine)
  --engine-backend auto|wasm|js   AVATAR_DRIVE_ENGINE_BACKEND: the engine's analysis on WebAssembly SIMD or
                                  TypeScript (default auto: WebAssembly when built with it)
  --dev-credentials FILE          AVATAR_DRIVE_DEV_CREDENTIALS (default .avatar-drive/dev-credentials.json)
  --token-ledger-dir DIR          AVATAR_DRIVE_TOKEN_LEDGER_DIR: without Redis, the single-use token ledger
                                  shared by this region's processes on this machine (embedded default:
                                  used-tokens/<region>/ next to the dev credentials; with configured apps:
                                  none, in memory)
  --log-level LEVEL               LOG_LEVEL (default info)
  --processes N                   AVATAR_DRIVE_PROCESSES (default 1; > 1 needs REDIS_URL or REDIS_SENTINELS)

  avatar-drive-service hash-key   reads an API key on stdin, prints its stored form (sha256:…)
  avatar-drive-service --version  prints the version`;

/** The repository root (where pnpm-workspace.yaml is), or `start` when there is none. */
export function findRepoRoot(start = process.cwd()): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(start);
    dir = parent;
  }
}

function int(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer; got "${text}".`);
  return value;
}

export async function resolveConfig(
  argv: string[],
  rawEnv: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedConfig | { help: true }> {
  const { values } = parseArgs({ args: argv, options: FLAGS, allowPositionals: false });
  // An empty variable counts as unset.
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== undefined && v !== ''));
  if (values.help) return { help: true };
  const root = findRepoRoot();

  const region = values.region ?? env.AVATAR_DRIVE_REGION ?? 'ap-northeast';
  if (!isRegionId(region)) {
    throw new Error(`Unknown region "${region}". Use one of: ${Object.keys(REGIONS).join(', ')}.`);
  }
  const port = int('--port', values.port ?? env.AVATAR_DRIVE_PORT ?? env.PORT) ?? REGIONS[region].defaultPort;

  const configPath = values.config ?? env.AVATAR_DRIVE_CONFIG;
  let file: ConfigFile = {};
  if (configPath) {
    try {
      file = JSON.parse(readFileSync(configPath, 'utf8')) as ConfigFile;
    } catch (error) {
      throw new Error(`Cannot read config file ${configPath}: ${(error as Error).message}`);
    }
  }
  let apps: AppConfig[] = file.apps ?? [];
  if (env.AVATAR_DRIVE_APPS) {
    try {
      apps = [...apps, ...(JSON.parse(env.AVATAR_DRIVE_APPS) as AppConfig[])];
    } catch (error) {
      throw new Error(`AVATAR_DRIVE_APPS is not a JSON array of apps: ${(error as Error).message}`);
    }
  }
  const signingKeyText = env.AVATAR_DRIVE_SIGNING_KEY ?? file.signingKey;

  const limits: Partial<ServiceLimits> = { ...file.limits };
  const setLimit = (key: keyof ServiceLimits, envName: string, scale = 1) => {
    const value = int(envName, env[envName]);
    if (value !== undefined) limits[key] = value * scale;
  };
  setLimit('maxConcurrentSessionsPerApp', 'AVATAR_DRIVE_MAX_SESSIONS_PER_APP');
  setLimit('maxSessionMs', 'AVATAR_DRIVE_MAX_SESSION_SECONDS', 1000);
  setLimit('idleTimeoutMs', 'AVATAR_DRIVE_IDLE_TIMEOUT_SECONDS', 1000);
  setLimit('maxMessageBytes', 'AVATAR_DRIVE_MAX_MESSAGE_BYTES');
  setLimit('maxOutputBufferBytes', 'AVATAR_DRIVE_MAX_OUTPUT_BUFFER_BYTES');
  setLimit('pauseTimeoutMs', 'AVATAR_DRIVE_PAUSE_TIMEOUT_SECONDS', 1000);
  setLimit('tokenRateLimit', 'AVATAR_DRIVE_TOKEN_RATE_LIMIT');
  setLimit('maxIntakeRealtimeFactor', 'AVATAR_DRIVE_MAX_INTAKE_REALTIME_FACTOR');
  setLimit('intakeWindowMs', 'AVATAR_DRIVE_INTAKE_WINDOW_SECONDS', 1000);
  setLimit('maxPendingWhileOpeningBytes', 'AVATAR_DRIVE_MAX_PENDING_WHILE_OPENING_BYTES');
  setLimit('headersTimeoutMs', 'AVATAR_DRIVE_HEADERS_TIMEOUT_SECONDS', 1000);
  setLimit('requestTimeoutMs', 'AVATAR_DRIVE_REQUEST_TIMEOUT_SECONDS', 1000);
  setLimit('uploadProgressWindowMs', 'AVATAR_DRIVE_UPLOAD_PROGRESS_WINDOW_SECONDS', 1000);
  setLimit('uploadMinBytesPerSecond', 'AVATAR_DRIVE_UPLOAD_MIN_BYTES_PER_SECOND');
  setLimit('keepAliveTimeoutMs', 'AVATAR_DRIVE_KEEP_ALIVE_TIMEOUT_SECONDS', 1000);
  setLimit('connectionIdleTimeoutMs', 'AVATAR_DRIVE_CONNECTION_IDLE_TIMEOUT_SECONDS', 1000);
  setLimit('maxConnectionsPerAddress', 'AVATAR_DRIVE_MAX_CONNECTIONS_PER_ADDRESS');

  let dev: ResolvedConfig['dev'];
  let signingKey: Uint8Array;
  let defaultLedgerDir: string | undefined;
  if (apps.length === 0) {
    const path = resolve(
      values['dev-credentials'] ??
        env.AVATAR_DRIVE_DEV_CREDENTIALS ??
        join(root, '.avatar-drive/dev-credentials.json'),
    );
    const loaded = await loadOrCreateDevCredentials(path);
    apps = [loaded.app];
    signingKey = decodeSigningKey(signingKeyText ?? loaded.credentials.signingKey);
    dev = { credentials: loaded.credentials, created: loaded.created, path };
    // One ledger per region, shared by that region's processes on this machine: regions keep no
    // common state, so either keeps serving without the other (single use holds per region; see
    // docs/deploy.md, "Two regions").
    defaultLedgerDir = join(dirname(path), 'used-tokens', region);
  } else {
    if (!signingKeyText) {
      throw new Error(
        'Apps are configured but no signing key: set AVATAR_DRIVE_SIGNING_KEY (the same on every node and region).',
      );
    }
    signingKey = decodeSigningKey(signingKeyText);
  }

  const defaultAvatars = builtInAvatarsDir();
  const dataDir = resolve(values['data-dir'] ?? env.AVATAR_DRIVE_DATA_DIR ?? join(root, '.avatar-drive'));
  const avatarMaxBytes = int(
    '--avatar-max-bytes',
    values['avatar-max-bytes'] ?? env.AVATAR_DRIVE_AVATAR_MAX_BYTES,
  );
  const avatarsPerApp = int(
    '--avatars-per-app',
    values['avatars-per-app'] ?? env.AVATAR_DRIVE_AVATARS_PER_APP,
  );
  const validationMs = int(
    'AVATAR_DRIVE_AVATAR_VALIDATION_TIMEOUT_MS',
    env.AVATAR_DRIVE_AVATAR_VALIDATION_TIMEOUT_MS,
  );
  // A comma-separated list; `builtin` names the built-ins, so `builtin,./my-avatars` serves both.
  const avatarsDir = (values['avatars-dir'] ?? env.AVATAR_DRIVE_AVATARS_DIR ?? 'builtin')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (d === 'builtin' ? defaultAvatars : resolve(d)));
  const redisUrl = values['redis-url'] ?? env.REDIS_URL;
  const sentinelText = values['redis-sentinels'] ?? env.REDIS_SENTINELS;
  const redisSentinel = sentinelText
    ? {
        sentinels: parseSentinels(sentinelText),
        masterName: values['redis-master-name'] ?? env.REDIS_MASTER_NAME ?? 'avatar-drive',
        ...(env.REDIS_SENTINEL_PASSWORD && { sentinelPassword: env.REDIS_SENTINEL_PASSWORD }),
      }
    : undefined;
  if (redisSentinel && redisUrl) {
    throw new Error(
      'Both REDIS_URL and REDIS_SENTINELS are set: give one (the sentinels find the primary themselves).',
    );
  }
  const redisWaitReplicas = int(
    '--redis-wait-replicas',
    values['redis-wait-replicas'] ?? env.AVATAR_DRIVE_REDIS_WAIT_REPLICAS,
  );
  const drainSeconds = int(
    '--drain-timeout',
    values['drain-timeout'] ?? env.AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS,
  );
  const drainDelayMs = int('--drain-delay', values['drain-delay'] ?? env.AVATAR_DRIVE_DRAIN_DELAY_MS);
  const overloadLagMs = int(
    '--overload-lag-ms',
    values['overload-lag-ms'] ?? env.AVATAR_DRIVE_OVERLOAD_LAG_MS,
  );
  const busyPercent = int(
    '--overload-busy-percent',
    values['overload-busy-percent'] ?? env.AVATAR_DRIVE_OVERLOAD_BUSY_PERCENT,
  );
  if (busyPercent !== undefined && busyPercent > 100)
    throw new Error(`--overload-busy-percent is a share of the time, 0 … 100; got ${busyPercent}.`);
  const frameLateMs = int(
    '--overload-frame-late-ms',
    values['overload-frame-late-ms'] ?? env.AVATAR_DRIVE_OVERLOAD_FRAME_LATE_MS,
  );
  const targetBusyPercent = int(
    '--overload-target-busy-percent',
    values['overload-target-busy-percent'] ?? env.AVATAR_DRIVE_OVERLOAD_TARGET_BUSY_PERCENT,
  );
  if (targetBusyPercent !== undefined && targetBusyPercent > 100)
    throw new Error(
      `--overload-target-busy-percent is a share of the time, 0 … 100; got ${targetBusyPercent}.`,
    );
  const minCpuText = values['overload-min-cpu-cores'] ?? env.AVATAR_DRIVE_OVERLOAD_MIN_CPU_CORES;
  const minCpuCores = minCpuText === undefined || minCpuText === '' ? undefined : Number(minCpuText);
  if (minCpuCores !== undefined && !(Number.isFinite(minCpuCores) && minCpuCores >= 0))
    throw new Error(
      `--overload-min-cpu-cores must be a non-negative number of cores like 0.5; got "${minCpuText}".`,
    );
  const shared = Boolean(redisUrl || redisSentinel);
  const publicUrl = values['public-url'] ?? env.AVATAR_DRIVE_PUBLIC_URL;
  if (publicUrl !== undefined && !/^https?:$/.test(URL.parse(publicUrl)?.protocol ?? '')) {
    throw new Error(
      `--public-url must be an http(s) URL like https://avatars.example.com; got "${publicUrl}".`,
    );
  }
  const certFile = values['tls-cert'] ?? env.AVATAR_DRIVE_TLS_CERT;
  const keyFile = values['tls-key'] ?? env.AVATAR_DRIVE_TLS_KEY;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new Error(
      'TLS needs both --tls-cert and --tls-key (AVATAR_DRIVE_TLS_CERT / AVATAR_DRIVE_TLS_KEY): the PEM certificate and its private key.',
    );
  }
  const trustedProxies = TrustedProxies.parse(
    values['trusted-proxies'] ?? env.AVATAR_DRIVE_TRUSTED_PROXIES,
  ).entries;
  const corsText = values['cors-origin'] ?? env.AVATAR_DRIVE_CORS_ORIGIN;
  const corsOrigins = corsText === undefined ? undefined : parseCorsOrigins(corsText);
  const workers = int('--engine-workers', values['engine-workers'] ?? env.AVATAR_DRIVE_ENGINE_WORKERS);
  const driverModule = values['engine-module'] ?? env.AVATAR_DRIVE_ENGINE_MODULE;
  const backend = values['engine-backend'] ?? env.AVATAR_DRIVE_ENGINE_BACKEND;
  if (backend !== undefined && backend !== 'auto' && backend !== 'wasm' && backend !== 'js') {
    throw new Error(
      `--engine-backend (AVATAR_DRIVE_ENGINE_BACKEND) must be auto, wasm or js, got ${JSON.stringify(backend)}.`,
    );
  }
  const ledgerText = values['token-ledger-dir'] ?? env.AVATAR_DRIVE_TOKEN_LEDGER_DIR;
  const tokenLedgerDir = shared ? undefined : ledgerText ? resolve(ledgerText) : defaultLedgerDir;
  // The LiveKit servers RTC sessions may join: the operator's list, else the one LiveKit this
  // deployment is configured with, else none.
  const hostsText = values['livekit-hosts'] ?? env.AVATAR_DRIVE_LIVEKIT_HOSTS ?? env.LIVEKIT_URL ?? '';
  const liveKitHosts = hostsText
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  parseAllowedHosts(liveKitHosts);

  const options: ServiceOptions = {
    region,
    host: values.host ?? env.AVATAR_DRIVE_HOST ?? '127.0.0.1',
    port,
    apps,
    signingKey,
    avatarsDir,
    dataDir,
    avatarUploads: {
      ...(avatarMaxBytes !== undefined && { maxBytes: avatarMaxBytes }),
      ...(avatarsPerApp !== undefined && { maxPerApp: avatarsPerApp }),
      ...(validationMs !== undefined && { validationTimeoutMs: validationMs }),
    },
    limits,
    engine: {
      ...(workers !== undefined && { workers }),
      ...(driverModule && { driverModule }),
      ...(backend && { backend }),
    },
    ...(redisUrl && { redisUrl }),
    ...(redisSentinel && { redisSentinel }),
    ...(redisSentinel && env.REDIS_PASSWORD && { redisPassword: env.REDIS_PASSWORD }),
    ...(redisWaitReplicas !== undefined && { redisWaitReplicas }),
    ...(drainSeconds !== undefined && { drainTimeoutMs: drainSeconds * 1000 }),
    ...(drainDelayMs !== undefined && { drainDelayMs }),
    overload: {
      ...(overloadLagMs !== undefined && { lagMs: overloadLagMs }),
      ...(busyPercent !== undefined && { busyPercent }),
      ...(frameLateMs !== undefined && { frameLateMs }),
      ...(targetBusyPercent !== undefined && { targetBusyPercent }),
      ...(minCpuCores !== undefined && { minCpuCores }),
    },
    ...(tokenLedgerDir && { tokenLedgerDir }),
    ...(publicUrl && { publicUrl }),
    ...(certFile && keyFile && { tls: { certFile: resolve(certFile), keyFile: resolve(keyFile) } }),
    ...(trustedProxies.length > 0 && { trustedProxies }),
    ...(corsOrigins && { corsOrigins }),
    liveKitEgress: { allowedHosts: liveKitHosts },
  };
  const processes = int('--processes', values.processes ?? env.AVATAR_DRIVE_PROCESSES) ?? 1;
  if (processes > 1 && !shared) {
    throw new Error(
      `--processes ${processes} needs REDIS_URL or REDIS_SENTINELS: the processes must share the token ledger and session counts.`,
    );
  }
  return {
    options,
    ...(dev && { dev }),
    logLevel: values['log-level'] ?? env.LOG_LEVEL ?? 'info',
    processes: Math.max(1, processes),
  };
}

/** `host:port,host:port` → the sentinel list ioredis takes. */
export function parseSentinels(text: string): { host: string; port: number }[] {
  const sentinels = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(part);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        throw new Error(
          `REDIS_SENTINELS entry "${part}" is not host:port. List the sentinels as host:port,host:port.`,
        );
      }
      return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
    });
  if (sentinels.length === 0)
    throw new Error('REDIS_SENTINELS is empty. List the sentinels as host:port,host:port.');
  return sentinels;
}
