/**
 * Composes the service: shared store, credentials, tokens, avatars, engine pool, HTTP app and
 * ingress on one HTTP server.
 */
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { AvatarCatalog } from './avatars/avatar-catalog.js';
import { type AppConfig, AppRegistry } from './credentials/app-registry.js';
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
import { MemoryStore } from './store/memory-store.js';
import { RedisStore } from './store/redis-store.js';
import type { SharedStore } from './store/shared-store.js';
import { SessionTokens } from './tokens.js';
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
}

export interface ServiceOptions {
  region: RegionId;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (0 = any free port). */
  port: number;
  /** Public origin used in asset URLs (default: the request's origin). */
  publicUrl?: string;
  /**
   * Origins whose pages may read the avatar list, manifests and assets (CORS): `*` (the default),
   * a list, or `[]` for none. Session-token minting never answers CORS.
   */
  corsOrigins?: CorsOrigins;
  apps: AppConfig[];
  /** The token-signing key shared by every node and region. */
  signingKey: Uint8Array;
  /** Redis URL for the shared store; in-memory when unset. */
  redisUrl?: string;
  /**
   * Without Redis: keep the single-use token ledger in this directory, shared by every process
   * pointing at it (the embedded default uses one next to the dev credentials, so both regions of
   * `pnpm start` honour single use). Unset: in this process's memory only.
   */
  tokenLedgerDir?: string;
  /** A ready store to use instead (tests). */
  store?: SharedStore;
  avatarsDir?: string;
  limits?: Partial<ServiceLimits>;
  engine?: EngineOptions;
  /**
   * Egress providers by kind, registered over the default LiveKit provider (a provider of kind
   * `livekit` replaces it). A kind with no provider (Agora by default) is refused with
   * `egressUnavailable`.
   */
  egressProviders?: EgressProvider[];
  /** Options of the default LiveKit provider (idle timeout default, connect timeout, …). */
  liveKitEgress?: LiveKitEgressOptions;
  logger?: Logger;
}

/** A running service. */
export interface RunningService {
  readonly region: RegionId;
  /** Console/HTTP origin, e.g. http://127.0.0.1:8710. */
  readonly url: string;
  /** Ingress WebSocket URL, e.g. ws://127.0.0.1:8710/v2/driveningress. */
  readonly ingressUrl: string;
  readonly avatars: AvatarCatalog;
  readonly ingress: IngressServer;
  readonly metrics: ServiceMetrics;
  readonly store: SharedStore;
  readonly engine: EnginePool;
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const logger = options.logger ?? createLogger();
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const metrics = new ServiceMetrics({ region: options.region });
  const apps = new AppRegistry(options.apps);
  const tokens = new SessionTokens(options.signingKey);
  const store: SharedStore =
    options.store ??
    (options.redisUrl
      ? new RedisStore({ url: options.redisUrl, logger })
      : new MemoryStore(options.tokenLedgerDir ? { tokenLedgerDir: options.tokenLedgerDir } : {}));
  const avatars = options.avatarsDir ? await AvatarCatalog.load(options.avatarsDir) : AvatarCatalog.empty();
  for (const problem of avatars.problems) logger.warn(problem, 'avatar skipped');
  if (avatars.size === 0)
    logger.warn({ dir: options.avatarsDir }, 'no avatars to serve: sessions will be refused (404)');

  const engineOptions = options.engine ?? {};
  const driverOptions =
    engineOptions.lookaheadMs === undefined ? {} : { lookaheadMs: engineOptions.lookaheadMs };
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

  const app = await buildHttpApp({
    logger,
    metrics,
    apps,
    tokens,
    store,
    limits,
    avatars,
    region: options.region,
    engine,
    version: SERVICE_VERSION,
    ...(options.publicUrl && { publicUrl: options.publicUrl.replace(/\/+$/, '') }),
    ...(options.corsOrigins && { corsOrigins: options.corsOrigins }),
  });
  const ingress = new IngressServer({
    apps,
    avatars,
    tokens,
    store,
    engine,
    egress: egressRegistry(options),
    metrics,
    limits,
    logger,
  });
  ingress.attach(app.server);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closed = false;
  return {
    region: options.region,
    url,
    ingressUrl: `ws://${host}:${address.port}/v2/driveningress`,
    avatars,
    ingress,
    metrics,
    store,
    engine,
    async close() {
      if (closed) return;
      closed = true;
      await ingress.close();
      await app.close();
      await engine.close();
      if (!options.store) await store.close();
    },
  };
}

/** LiveKit registered by default; the options' providers on top. */
function egressRegistry(options: ServiceOptions): EgressRegistry {
  const registry = new EgressRegistry().register(new LiveKitEgressProvider(options.liveKitEgress));
  for (const provider of options.egressProviders ?? []) registry.register(provider);
  return registry;
}
