/** A standalone fastify server with the token routes (what the bin runs). */
import Fastify, { type FastifyInstance } from 'fastify';
import { type TokenServerOptions, tokenServerPlugin } from './plugin.js';

/** Options of {@link buildTokenServer}. */
export interface BuildTokenServerOptions extends TokenServerOptions {
  /** Log level (default `info`); `false` for no logs. Headers and bodies are never logged. */
  logLevel?: string | false;
  /**
   * Trust X-Forwarded-For from the proxies in front, so rate limits apply per client, not per
   * proxy: `true` (any), a hop count (the nearest N, e.g. 1 behind one ingress), or addresses /
   * CIDR ranges (comma-separated). Default false. A hop count or list keeps a client from
   * choosing its own address with a forged header.
   */
  trustProxy?: boolean | number | string;
}

/**
 * A fastify instance with {@link tokenServerPlugin} at the root. Call `listen()` on it.
 * @example
 * ```ts
 * const app = await buildTokenServer({ livekit: { url, apiKey, apiSecret } });
 * await app.listen({ host: '127.0.0.1', port: 8790 });
 * ```
 */
export async function buildTokenServer(options: BuildTokenServerOptions = {}): Promise<FastifyInstance> {
  const { logLevel = 'info', trustProxy = false, ...plugin } = options;
  const app = Fastify({
    logger:
      logLevel === false
        ? false
        : {
            level: logLevel,
            // Default serializers log method/url/ip only; make sure no secret-bearing header ever is.
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
          },
    // A hop count as a function: fastify's types take none, and proxy-addr treats N the same way.
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 16 * 1024,
  });
  await app.register(tokenServerPlugin, plugin);
  return app;
}
