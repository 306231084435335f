/** `avatar-drive-token-server`: runs the token routes on their own port. */
import { resolveBinConfig, USAGE } from './config.js';
import { buildTokenServer } from './server.js';
import { TOKEN_SERVER_VERSION } from './version.js';

async function main(): Promise<void> {
  if (process.argv[2] === '--version' || process.argv[2] === '-v') {
    process.stdout.write(`${TOKEN_SERVER_VERSION}\n`);
    return;
  }
  const config = resolveBinConfig(process.argv.slice(2), process.env);
  if ('help' in config) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const app = await buildTokenServer(config.server);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const livekit = config.server.livekit?.url
    ? `LiveKit ${config.server.livekit.url}`
    : 'LiveKit not configured';
  const drive = config.server.avatarDrive?.apiKey ? 'Avatar Drive configured' : 'Avatar Drive not configured';
  process.stdout.write(
    `avatar-drive-token-server listening on http://${config.host}:${port} (${livekit}; ${drive})\n`,
  );
  const stop = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`avatar-drive-token-server: ${(error as Error).message}\n`);
  process.exit(1);
});
