#!/usr/bin/env node
/**
 * CLI entry: `node dist/main.js [--region …]` starts the service and prints how to reach it.
 * With `--processes N` (N > 1, needs REDIS_URL) a primary forks N service processes sharing the
 * port, so network I/O uses more than one core; it restarts a process that dies.
 * SIGHUP re-reads the TLS certificate pair (forwarded to every process) without dropping sessions.
 */
import cluster from 'node:cluster';
import { type ResolvedConfig, resolveConfig, USAGE } from './config.js';
import { hashApiKey } from './credentials/api-keys.js';
import { createLogger } from './logger.js';
import { type RunningService, startService } from './service.js';
import { MemoryStore } from './store/memory-store.js';
import { SERVICE_VERSION } from './version.js';

interface Ready {
  avdReady: true;
  region: string;
  url: string;
  ingressUrl: string;
  store: string;
  /** The single-use token ledger directory (in-memory store only). */
  ledger?: string;
  engine: string;
  avatars: string[];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function banner(ready: Ready, resolved: ResolvedConfig, processes: number): string {
  const { url } = ready;
  const lines = [
    '',
    `Avatar Drive service (${ready.region}) is running${processes > 1 ? ` in ${processes} processes` : ''}`,
    `  console API   ${url}/v1/console  (OpenAPI: ${url}/v1/console/openapi.json)`,
    `  ingress       ${ready.ingressUrl}`,
    `  health        ${url}/healthz  ${url}/readyz  ${url}/metrics`,
    `  shared store  ${ready.store}   engine: ${ready.engine}   avatars: ${ready.avatars.join(', ') || '(none)'}`,
  ];
  const proxies = resolved.options.trustedProxies;
  if (proxies?.length)
    lines.push(`  trusted proxies  ${proxies.join(', ')}  (X-Forwarded-* believed from these only)`);
  if (ready.ledger) {
    lines.push(
      `  token ledger  ${ready.ledger}  (single use across every process of this region sharing it)`,
    );
  }
  if (resolved.dev) {
    const { credentials, created, path } = resolved.dev;
    // Printed to the operator's terminal on purpose (embedded dev mode only); never logged.
    lines.push(
      '',
      `  dev credentials (${created ? 'created' : 'from'} ${path}):`,
      `    App ID   ${credentials.appId}`,
      `    API key  ${credentials.apiKey}`,
      '',
      '  Mint a session token:',
      `    curl -s -X POST ${url}/v1/console/session-tokens -H 'Content-Type: application/json' \\`,
      `      -H "X-Api-Key: $(node -p "require('${path}').apiKey")" -d "{\\"expireAt\\": $(($(date +%s)+3600))}"`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}

function readyOf(service: RunningService): Ready {
  return {
    avdReady: true,
    region: service.region,
    url: service.url,
    ingressUrl: service.ingressUrl,
    store: service.store.kind,
    ...(service.store instanceof MemoryStore && service.store.ledger && { ledger: service.store.ledger.dir }),
    engine: service.engine.mode,
    avatars: service.avatars.list().map((a) => a.id),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${SERVICE_VERSION}\n`);
    return;
  }
  if (argv[0] === 'hash-key') {
    const key = await readStdin();
    if (!key) throw new Error('Pipe the API key on stdin: echo -n "$KEY" | avatar-drive-service hash-key');
    process.stdout.write(`${hashApiKey(key)}\n`);
    return;
  }
  const resolved = await resolveConfig(argv);
  if ('help' in resolved) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const processes = resolved.processes;
  if (processes > 1 && cluster.isPrimary) {
    runPrimary(resolved, processes);
    return;
  }
  const logger = createLogger({ level: resolved.logLevel });
  const service = await startService({ ...resolved.options, logger });
  if (cluster.isWorker) process.send?.(readyOf(service));
  else process.stdout.write(banner(readyOf(service), resolved, 1));

  // The first SIGTERM or SIGINT drains (the load balancer moves clients to other nodes as their
  // utterances end); a second one closes at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.info({ signal }, 'second signal: closing now');
      service.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: draining');
    service.drain().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // With TLS, SIGHUP means "reload the certificate"; without, it keeps its default (terminate), so
  // a closed terminal still stops a service started from it.
  if (resolved.options.tls) {
    process.on('SIGHUP', () => {
      // A bad pair (half-written renewal, wrong key) keeps the current one serving.
      service.reloadTls().catch((error: unknown) => {
        logger.error(
          { err: (error as Error).message },
          'TLS reload failed; still serving the previous certificate',
        );
      });
    });
  }
}

/** Forks the service processes, prints the banner once, and replaces a process that dies. */
function runPrimary(resolved: ResolvedConfig, processes: number): void {
  let printed = false;
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: Ready) => {
      if (message?.avdReady && !printed) {
        printed = true;
        process.stdout.write(banner(message, resolved, processes));
      }
    });
  };
  for (let i = 0; i < processes; i++) fork();
  cluster.on('exit', (_worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(
      `avatar-drive-service: a service process exited (${signal ?? code}); starting another\n`,
    );
    setTimeout(fork, 500);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (resolved.options.tls) {
    process.on('SIGHUP', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`avatar-drive-service: ${(error as Error).message}\n`);
  process.exit(1);
});
