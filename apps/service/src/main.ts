#!/usr/bin/env node
import { resolveConfig, USAGE } from './config.js';
/** CLI entry: `node dist/main.js [--region …]` starts the service and prints how to reach it. */
import { hashApiKey } from './credentials/api-keys.js';
import { createLogger } from './logger.js';
import { startService } from './service.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
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
  const logger = createLogger({ level: resolved.logLevel });
  const service = await startService({ ...resolved.options, logger });
  const lines = [
    '',
    `Avatar Drive service (${service.region}) is running`,
    `  console API   ${service.url}/v1/console  (OpenAPI: ${service.url}/v1/console/openapi.json)`,
    `  ingress       ${service.ingressUrl}`,
    `  health        ${service.url}/healthz  ${service.url}/readyz  ${service.url}/metrics`,
    `  shared store  ${service.store.kind}   engine: ${service.engine.mode}   avatars: ${
      service.avatars
        .list()
        .map((a) => a.id)
        .join(', ') || '(none)'
    }`,
  ];
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
      `    curl -s -X POST ${service.url}/v1/console/session-tokens -H 'Content-Type: application/json' \\`,
      `      -H "X-Api-Key: $(node -p "require('${path}').apiKey")" -d "{\\"expireAt\\": $(($(date +%s)+3600))}"`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`avatar-drive-service: ${(error as Error).message}\n`);
  process.exit(1);
});
