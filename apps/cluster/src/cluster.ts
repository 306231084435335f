/**
 * One region of many nodes on loopback, with real processes only: Redis primary + replicas watched
 * by three sentinels, N service nodes sharing that store, and HAProxy in front of them.
 *
 * @example
 * ```ts
 * const cluster = await startCluster({ nodes: 3 });
 * console.log(cluster.url); // http://127.0.0.1:<port>: console API and ingress, through HAProxy
 * await cluster.stop();
 * ```
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, generateAppId, hashApiKey } from '@avatar-drive/service';
import { Haproxy } from './haproxy.js';
import { freePort, type LogSink } from './processes.js';
import { RedisHA, type RedisHAOptions } from './redis-ha.js';
import { ServiceNode } from './service-node.js';

/** The app the cluster's nodes accept (credentials generated unless given). */
export interface ClusterApp {
  appId: string;
  apiKey: string;
  maxConcurrentSessions?: number;
}

export interface ClusterOptions {
  /** Service nodes (default 3). */
  nodes?: number;
  /** Apps (default: one generated app). The first one is `cluster.app`. */
  apps?: ClusterApp[];
  /** base64url token-signing key shared by the nodes (default: generated). */
  signingKey?: string;
  /** Fixed ports (free ports otherwise). */
  ports?: { lb?: number; stats?: number; nodes?: number[]; redis?: number[]; sentinels?: number[] };
  /** Redis and Sentinel settings (replica count, down-after, failover timeout). */
  redis?: Omit<RedisHAOptions, 'serverPorts' | 'sentinelPorts' | 'log'>;
  /** HAProxy health check interval (default 1000 ms). */
  checkIntervalMs?: number;
  /** Drain timeout of the nodes, seconds (default: the service's 25). */
  drainTimeoutSeconds?: number;
  /** More environment for every node (limits, log level…). */
  env?: Record<string, string>;
  log?: LogSink;
}

export interface Cluster {
  /** The load balancer's origin: console API, avatars, /readyz of some node. */
  readonly url: string;
  /** The ingress WebSocket through the load balancer. */
  readonly ingressUrl: string;
  /** HAProxy's stats page, when a stats port was given. */
  readonly statsUrl: string | undefined;
  readonly app: ClusterApp;
  readonly apps: ClusterApp[];
  readonly signingKey: string;
  readonly nodes: ServiceNode[];
  readonly redis: RedisHA;
  readonly haproxy: Haproxy;
  /** Stops everything at once (SIGKILL: nothing drains). */
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'avd-cluster-'));
  const count = options.nodes ?? 3;
  const apps = options.apps ?? [{ appId: generateAppId(), apiKey: generateApiKey() }];
  const signingKey = options.signingKey ?? randomBytes(32).toString('base64url');
  const ports = options.ports ?? {};
  const log = options.log;
  let redis: RedisHA | undefined;
  let haproxy: Haproxy | undefined;
  const nodes: ServiceNode[] = [];
  const stop = async () => {
    await haproxy?.stop();
    await Promise.all(nodes.map((n) => n.kill()));
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    redis = await RedisHA.start({
      ...options.redis,
      ...(ports.redis && { serverPorts: ports.redis }),
      ...(ports.sentinels && { sentinelPorts: ports.sentinels }),
      ...(log && { log }),
    });
    const lbPort = ports.lb ?? (await freePort());
    const url = `http://127.0.0.1:${lbPort}`;
    const env: Record<string, string> = {
      AVATAR_DRIVE_APPS: JSON.stringify(
        apps.map((a) => ({
          appId: a.appId,
          apiKeyHashes: [hashApiKey(a.apiKey)],
          ...(a.maxConcurrentSessions !== undefined && { maxConcurrentSessions: a.maxConcurrentSessions }),
        })),
      ),
      AVATAR_DRIVE_SIGNING_KEY: signingKey,
      REDIS_SENTINELS: redis.sentinelList,
      REDIS_MASTER_NAME: redis.masterName,
      // Asset URLs in manifests name the load balancer, not the node that answered.
      AVATAR_DRIVE_PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      ...(options.drainTimeoutSeconds !== undefined && {
        AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS: String(options.drainTimeoutSeconds),
      }),
      ...options.env,
    };
    for (let i = 0; i < count; i++) {
      const port = ports.nodes?.[i] ?? (await freePort());
      nodes.push(new ServiceNode({ name: `node${i + 1}`, port, env, ...(log && { log }) }));
    }
    await Promise.all(nodes.map((n) => n.start()));
    await Promise.all(nodes.map((n) => n.ready()));
    haproxy = await Haproxy.start(
      dir,
      {
        port: lbPort,
        nodes: nodes.map((n) => `127.0.0.1:${n.port}`),
        ...(ports.stats !== undefined && { statsPort: ports.stats }),
        ...(options.checkIntervalMs !== undefined && { checkIntervalMs: options.checkIntervalMs }),
      },
      log,
    );
    return {
      url,
      ingressUrl: `ws://127.0.0.1:${lbPort}/v2/driveningress`,
      statsUrl: ports.stats !== undefined ? `http://127.0.0.1:${ports.stats}/stats` : undefined,
      app: apps[0]!,
      apps,
      signingKey,
      nodes,
      redis,
      haproxy,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
