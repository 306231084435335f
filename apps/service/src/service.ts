/**
 * Composes the service: shared store, credentials, tokens, avatars, engine pool, HTTP app and
 * ingress on one HTTP server.
 */
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { DiskAvatarBlobStore } from './avatars/avatar-blobs.js';
import { AvatarCatalog } from './avatars/avatar-catalog.js';
import { AvatarDirectory } from './avatars/avatar-directory.js';
import {
  type AvatarUploadLimits,
  AvatarUploads,
  DEFAULT_AVATAR_UPLOAD_LIMITS,
} from './avatars/avatar-uploads.js';
import { ConnectionGuard } from './capacity/connection-guard.js';
import { OverloadGuard, type OverloadOptions } from './capacity/overload-guard.js';
import { TrustedProxies } from './client-address.js';
import { type AppConfig, AppRegistry } from './credentials/app-registry.js';
import { SessionTokens } from './credentials/session-tokens.js';
import { type LiveKitEgressOptions, LiveKitEgressProvider } from './egress/livekit-egress.js';
import { EgressRegistry } from './egress/registry.js';
import type { EgressProvider } from './egress/types.js';
import { type DriverFactory, type EnginePool, loadDriverFactory } from './engine-pool/engine-pool.js';
import { InlineEnginePool } from './engine-pool/inline-pool.js';
import { WorkerEnginePool } from './engine-pool/worker-pool.js';
import type { CorsOrigins } from './http/cors.js';
import { buildHttpApp } from './http/http-app.js';
import { IngressServer } from './ingress/ingress-server.js';
import { DEFAULT_LIMITS, type ServiceLimits } from './limits.js';
import { createLogger } from './logger.js';
import { ServiceMetrics } from './metrics.js';
import type { RegionId } from './regions.js';
import { MemoryAvatarRecords } from './store/avatar-records.js';
import { MemoryStore } from './store/memory-store.js';
import { type RedisSentinelOptions, RedisStore } from './store/redis-store.js';
import type { SharedStore } from './store/shared-store.js';
import { readTlsPair, type TlsFiles } from './tls-files.js';
import { SERVICE_VERSION } from './version.js';

export interface EngineOptions {
  /** Module specifier or file URL exporting the driver factory (default `@avatar-drive/engine`). */
  driverModule?: string;
  driverExport?: string;
  /** A factory to use inline instead of loading `driverModule` (tests, embedding). */
  driverFactory?: DriverFactory;
  /** Worker threads for the engine; 0 runs it on the event loop. */
  workers?: number;
  lookaheadMs?: number;
  /** The engine's analysis backend (its DriverOptions.backend; default auto). */
  backend?: 'auto' | 'wasm' | 'js';
}

export interface ServiceOptions {
  region: RegionId;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (0 = any free port). */
  port: number;
  /**
   * Public origin used in asset URLs. Default: X-Forwarded-Proto/-Host from a trusted proxy, else
   * the local address a request arrived on (never the client-supplied Host header).
   */
  publicUrl?: string;
  /**
   * Serve https + wss with this certificate pair (PEM files), re-read by
   * {@link RunningService.reloadTls} (SIGHUP in the CLI). Plain http + ws without.
   */
  tls?: TlsFiles;
  /**
   * Proxies (addresses or CIDR ranges) whose X-Forwarded-For/-Proto/-Host are believed: client
   * address in logs and limits, origin of asset URLs. Default none: the headers are ignored.
   */
  trustedProxies?: readonly string[];
  /**
   * Origins whose pages may read the avatar list, manifests and assets (CORS): `*` (the default),
   * a list, or `[]` for none. Session-token minting never answers CORS.
   */
  corsOrigins?: CorsOrigins;
  apps: AppConfig[];
  /** The token-signing key shared by every node and region. */
  signingKey: Uint8Array;
  /** Redis URL for the shared store; in-memory when unset (and no `redisSentinel`). */
  redisUrl?: string;
  /** Find the Redis primary through Redis Sentinel instead of `redisUrl`. */
  redisSentinel?: RedisSentinelOptions;
  /** AUTH password of the Redis servers (Sentinel deployments; a URL carries its own). */
  redisPassword?: string;
  /**
   * Replicas that must acknowledge each consumed token before its session is accepted (Redis
   * WAIT). Default: 1 with `redisSentinel`, 0 otherwise.
   */
  redisWaitReplicas?: number;
  /**
   * How long a draining node (SIGTERM, {@link RunningService.drain}) lets open utterances finish
   * before it closes the remaining sessions (default 25 s).
   */
  drainTimeoutMs?: number;
  /**
   * How long a draining node stays unready, refusing new sessions, before it starts closing open
   * ones (default 3 s with Redis): time for the load balancer's health checks to take it out, so that the
   * clients it closes reconnect to other nodes. Part of `drainTimeoutMs`. Default 0 without Redis
   * (a single node has nowhere else to send them).
   */
  drainDelayMs?: number;
  /**
   * Without Redis: keep the single-use token ledger in this directory, shared by every process
   * pointing at it (the embedded default uses `used-tokens/<region>` next to the dev credentials:
   * one per region, as regions share no state). Unset: in this process's memory only.
   */
  tokenLedgerDir?: string;
  /** A ready store to use instead (tests). */
  store?: SharedStore;
  /**
   * Directories of the avatars every app may use, in order (default in the CLI: those of
   * @avatar-drive/avatars).
   */
  avatarsDir?: string | readonly string[];
  /**
   * Where the service keeps files: uploaded avatar files under `avatar-files/` (content-addressed), and
   * without Redis their records under `avatar-records/<region>/`. Every node of a region must see
   * the same directory (one machine, or a shared volume). Unset: uploads are kept in a temporary
   * directory and in memory (tests).
   */
  dataDir?: string;
  /** Bounds of avatar uploads (size, per-app count, validation time and concurrency). */
  avatarUploads?: Partial<AvatarUploadLimits>;
  limits?: Partial<ServiceLimits>;
  /**
   * When the node counts as overloaded or full and refuses new sessions (4503, /readyz 503): frame
   * and event-loop lateness, utilization, and the capacity estimate's target ({@link OverloadOptions};
   * `lagMs` and `busyPercent` both 0 turn refusing for load off, every rule).
   */
  overload?: Partial<OverloadOptions>;
  engine?: EngineOptions;
  /**
   * Egress providers by kind, registered over the default LiveKit provider (a provider of kind
   * `livekit` replaces it). A kind with no provider (Agora by default) is refused with
   * `egressUnavailable`.
   */
  egressProviders?: EgressProvider[];
  /**
   * Options of the default LiveKit provider (idle timeout default, connect timeout, …), among them
   * `allowedHosts`: the LiveKit servers sessions may join (none by default).
   */
  liveKitEgress?: LiveKitEgressOptions;
  logger?: Logger;
}

/** A running service. */
export interface RunningService {
  readonly region: RegionId;
  /** Console/HTTP origin, e.g. http://127.0.0.1:8710 (https://… with TLS). */
  readonly url: string;
  /** Ingress WebSocket URL, e.g. ws://127.0.0.1:8710/v2/driveningress (wss://… with TLS). */
  readonly ingressUrl: string;
  /** The built-in avatars (from the avatars directory). */
  readonly avatars: AvatarCatalog;
  /** Built-ins and every app's uploads. */
  readonly directory: AvatarDirectory;
  readonly ingress: IngressServer;
  readonly metrics: ServiceMetrics;
  readonly store: SharedStore;
  readonly engine: EnginePool;
  /**
   * Re-reads the TLS pair from its files and serves it to new connections; open connections and
   * sessions keep theirs. Rejects (keeping the current pair) when the files are unreadable or do
   * not match, or when the service runs without TLS.
   */
  reloadTls(): Promise<void>;
  /** True once {@link drain} started. */
  readonly draining: boolean;
  /**
   * Takes the node out of service gracefully: /readyz turns 503, new sessions are refused with
   * 4503; after the drain delay each open session is closed with 4503 (clients reconnect, through
   * the load balancer, to another node) once the utterance it had open when draining began has
   * finished playing; whatever is still open after `timeoutMs` (default: the `drainTimeoutMs`
   * option) is closed the same way. Then closes the service. Resolves with how long it took.
   */
  drain(timeoutMs?: number): Promise<{ drainedMs: number; closedAtTimeout: number }>;
  close(): Promise<void>;
}

/** Default of {@link ServiceOptions.drainTimeoutMs}: fits in Kubernetes' 30 s termination grace. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 25_000;
/** Default of {@link ServiceOptions.drainDelayMs}: two failed checks at HAProxy's default 1 s interval, plus margin. */
export const DEFAULT_DRAIN_DELAY_MS = 3000;

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const logger = options.logger ?? createLogger();
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const metrics = new ServiceMetrics({ region: options.region });
  const trustedProxies = new TrustedProxies(options.trustedProxies ?? []);
  const tlsPair = options.tls ? await readTlsPair(options.tls) : undefined;
  const apps = new AppRegistry(options.apps);
  const tokens = new SessionTokens(options.signingKey);
  const store: SharedStore =
    options.store ??
    (options.redisSentinel || options.redisUrl
      ? new RedisStore({
          ...(options.redisSentinel ? { sentinel: options.redisSentinel } : { url: options.redisUrl! }),
          ...(options.redisPassword !== undefined && { password: options.redisPassword }),
          waitReplicas: options.redisWaitReplicas ?? (options.redisSentinel ? 1 : 0),
          logger,
        })
      : new MemoryStore({
          ...(options.tokenLedgerDir && { tokenLedgerDir: options.tokenLedgerDir }),
          ...(options.dataDir && {
            avatarRecordsDir: join(options.dataDir, 'avatar-records', options.region),
          }),
        }));
  const avatars = options.avatarsDir ? await AvatarCatalog.load(options.avatarsDir) : AvatarCatalog.empty();
  for (const problem of avatars.problems) logger.warn(problem, 'avatar skipped');
  if (avatars.size === 0)
    logger.warn({ dir: options.avatarsDir }, 'no built-in avatars: sessions need an uploaded avatar');
  const blobs = new DiskAvatarBlobStore(
    options.dataDir
      ? join(options.dataDir, 'avatar-files')
      : join(tmpdir(), `avatar-drive-avatars-${process.pid}`),
  );
  const directory = new AvatarDirectory(avatars, store.avatars ?? new MemoryAvatarRecords(), blobs);
  const uploads = new AvatarUploads(
    directory,
    { ...DEFAULT_AVATAR_UPLOAD_LIMITS, ...options.avatarUploads },
    logger,
  );

  const engineOptions = options.engine ?? {};
  const driverOptions = {
    ...(engineOptions.lookaheadMs !== undefined && { lookaheadMs: engineOptions.lookaheadMs }),
    ...(engineOptions.backend !== undefined && { backend: engineOptions.backend }),
  };
  const driverModule = engineOptions.driverModule ?? '@avatar-drive/engine';
  const engine: EnginePool =
    (engineOptions.workers ?? 0) > 0
      ? await WorkerEnginePool.start({
          size: engineOptions.workers!,
          driverModule,
          ...(engineOptions.driverExport && { driverExport: engineOptions.driverExport }),
          driverOptions,
        })
      : new InlineEnginePool(
          engineOptions.driverFactory ?? (await loadDriverFactory(driverModule, engineOptions.driverExport)),
          driverOptions,
        );

  let ingress: IngressServer | undefined;
  const overload = new OverloadGuard(
    options.overload,
    (shedding, reading) =>
      logger.warn(
        {
          frameP99Ms: Math.round(reading.frameP99Ms),
          lagP99Ms: Math.round(reading.lagP99Ms),
          busyPercent: Math.round(reading.utilization * 100),
          cpuCores: Math.round(reading.cpuCores * 100) / 100,
          sessions: Math.round(reading.sessions),
        },
        shedding ? 'overloaded: refusing new sessions' : 'load back to normal: accepting new sessions',
      ),
    {
      frames: metrics.frameLateness,
      sessions: () => ingress?.sessions.size ?? 0,
      openingWork: () => metrics.takeOpeningWork(),
    },
  );
  metrics.watchOverload(overload);
  const app = await buildHttpApp({
    isDraining: () => ingress?.draining ?? false,
    overload: () => (overload.refusing ? overload.describe() : undefined),
    logger,
    metrics,
    apps,
    tokens,
    store,
    limits,
    directory,
    uploads,
    avatarProblems: () => avatars.problems,
    region: options.region,
    engine,
    version: SERVICE_VERSION,
    trustedProxies,
    ...(tlsPair && { tls: tlsPair }),
    ...(options.publicUrl && { publicUrl: options.publicUrl.replace(/\/+$/, '') }),
    ...(options.corsOrigins && { corsOrigins: options.corsOrigins }),
  });
  const connections = new ConnectionGuard(limits, logger, trustedProxies);
  connections.attach(app.server);
  ingress = new IngressServer({
    overload,
    connections,
    apps,
    avatars: directory,
    tokens,
    store,
    engine,
    egress: egressRegistry(options, logger),
    metrics,
    limits,
    logger,
    trustedProxies,
  });
  ingress.attach(app.server);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const scheme = tlsPair ? 'https' : 'http';
  const url = `${scheme}://${host}:${address.port}`;

  let closed = false;
  const running = ingress;
  const service: RunningService = {
    region: options.region,
    url,
    ingressUrl: `${tlsPair ? 'wss' : 'ws'}://${host}:${address.port}/v2/driveningress`,
    avatars,
    directory,
    ingress: running,
    metrics,
    store,
    engine,
    async reloadTls() {
      if (!options.tls)
        throw new Error('This service runs without TLS: start it with --tls-cert and --tls-key.');
      const pair = await readTlsPair(options.tls);
      // New handshakes use the new context; established connections are not touched.
      (app.server as unknown as TlsServer).setSecureContext({ cert: pair.cert, key: pair.key });
      logger.info({ cert: options.tls.certFile }, 'TLS certificate reloaded');
    },
    get draining() {
      return running.draining;
    },
    async drain(timeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS) {
      const started = Date.now();
      const open = running.sessions.size;
      logger.info({ sessions: open, timeoutMs }, 'draining: no new sessions, open utterances finish');
      const closedAtTimeout = await running.drain(
        timeoutMs,
        // Without a shared store there is no other node to send clients to: no delay.
        open === 0 ? 0 : (options.drainDelayMs ?? (store.kind === 'redis' ? DEFAULT_DRAIN_DELAY_MS : 0)),
      );
      const drainedMs = Date.now() - started;
      logger.info({ drainedMs, closedAtTimeout }, 'drained');
      await service.close();
      return { drainedMs, closedAtTimeout };
    },
    async close() {
      if (closed) return;
      closed = true;
      overload.close();
      await running.close();
      await app.close();
      await engine.close();
      if (!options.store) await store.close();
    },
  };
  return service;
}

/** LiveKit registered by default; the options' providers on top. */
function egressRegistry(options: ServiceOptions, logger: Logger): EgressRegistry {
  const registry = new EgressRegistry().register(
    new LiveKitEgressProvider({ logger, ...options.liveKitEgress }),
  );
  for (const provider of options.egressProviders ?? []) registry.register(provider);
  return registry;
}
