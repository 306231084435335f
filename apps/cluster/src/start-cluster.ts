/**
 * `pnpm start:cluster` (from the repo root): one region of many nodes on this machine, to try the multi-node topology:
 * Redis primary + 2 replicas watched by 3 sentinels, 3 service nodes sharing that store, HAProxy in
 * front (health checks on /readyz). Prints the URLs and the dev credentials (the same
 * `.avatar-drive/dev-credentials.json` as `pnpm start`); Ctrl-C stops everything.
 *
 * Ports (environment): CLUSTER_PORT (8800, HAProxy), CLUSTER_STATS_PORT (8809, HAProxy stats),
 * nodes CLUSTER_PORT+1…+N, CLUSTER_REDIS_PORT (6390: primary, replicas on the next two),
 * CLUSTER_SENTINEL_PORT (26390: three sentinels from there); CLUSTER_NODES (3).
 * Set SKIP_BUILD=1 to start without building.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadOrCreateDevCredentials } from '@avatar-drive/service';
import { type Cluster, startCluster } from './cluster.js';

const ROOT = join(import.meta.dirname, '../../..');
const env = process.env;
/** A whole number from the environment, or the default; anything else stops with what to set. */
function port(name: string, fallback: number, span = 1): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value + span - 1 > 65535) {
    console.error(`${name} must be a port number (1…${65536 - span}); got "${text}".`);
    process.exit(2);
  }
  return value;
}

function build(): void {
  if (env.SKIP_BUILD === '1') return;
  console.log('Building (cached where unchanged)…');
  const result = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; fix the error above and run `pnpm start:cluster` again.');
    process.exit(result.status ?? 1);
  }
}

const verbose = env.LOG_LEVEL === 'debug' || env.VERBOSE === '1';

async function main(): Promise<void> {
  build();
  const nodes = port('CLUSTER_NODES', 3);
  const lb = port('CLUSTER_PORT', 8800, nodes + 1);
  const redis = port('CLUSTER_REDIS_PORT', 6390, 3);
  const sentinel = port('CLUSTER_SENTINEL_PORT', 26390, 3);
  const stats = port('CLUSTER_STATS_PORT', 8809);
  const path = join(ROOT, '.avatar-drive/dev-credentials.json');
  const { credentials } = await loadOrCreateDevCredentials(path);
  let cluster: Cluster | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await cluster?.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  console.log(`Starting Redis + Sentinel, ${nodes} service nodes and HAProxy…`);
  try {
    cluster = await startCluster({
      nodes,
      apps: [{ appId: credentials.appId, apiKey: credentials.apiKey }],
      signingKey: credentials.signingKey,
      ports: {
        lb,
        stats,
        nodes: Array.from({ length: nodes }, (_, i) => lb + 1 + i),
        redis: [redis, redis + 1, redis + 2],
        sentinels: [sentinel, sentinel + 1, sentinel + 2],
      },
      // Sentinel calls a primary down after 5 s without answers (the harness default).
      log: (name, line) => {
        // Service JSON logs and Redis chatter are noisy: warnings and errors only, unless verbose.
        if (!verbose && line.startsWith('{') && !/"level":(40|50|60)/.test(line)) return;
        if (!verbose && !line.startsWith('{') && !name.startsWith('haproxy') && !/[#!] /.test(line)) return;
        process.stdout.write(`\x1b[36m${name.padEnd(12)}\x1b[0m ${line}\n`);
      },
    });
  } catch (error) {
    console.error(`\nCould not start: ${(error as Error).message}`);
    console.error(
      `Is another \`pnpm start:cluster\` (or anything else) using its ports? Service ${lb}…${lb + nodes} ` +
        `(CLUSTER_PORT), stats ${stats} (CLUSTER_STATS_PORT), Redis ${redis}–${redis + 2} (CLUSTER_REDIS_PORT), ` +
        `sentinels ${sentinel}–${sentinel + 2} (CLUSTER_SENTINEL_PORT): set those to move them.`,
    );
    process.exit(1);
  }
  if (stopping) return;
  const c = cluster;
  console.log(`
  Avatar Drive, one region of ${nodes} nodes, is running:

    load balancer   ${c.url}   (console API ${c.url}/v1/console, ingress ${c.ingressUrl})
    HAProxy stats   ${c.statsUrl}
    nodes           ${c.nodes.map((n) => n.url).join('  ')}
    Redis           primary 127.0.0.1:${c.redis.servers[0]!.port}, replicas ${c.redis.servers
      .slice(1)
      .map((s) => `127.0.0.1:${s.port}`)
      .join(', ')}; sentinels ${c.redis.sentinelList} (master name ${c.redis.masterName})

  dev credentials (from ${path}): App ID ${credentials.appId}

  Mint a session token through the load balancer:
    curl -s -X POST ${c.url}/v1/console/session-tokens -H 'Content-Type: application/json' \\
      -H "X-Api-Key: $(node -p "require('${path}').apiKey")" -d "{\\"expireAt\\": $(($(date +%s)+600))}"

  Try a failure: kill -9 a node (${c.nodes.map((n) => n.proc?.pid).join(', ')}) or the Redis primary (${c.redis.servers[0]!.proc.pid}),
  or drain a node with kill -TERM.  Ctrl-C stops everything.
`);
}

void main();
