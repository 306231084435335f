/**
 * One service node: `apps/service/dist/main.js` as its own process (what a deployment runs), on
 * loopback, sharing the Redis Sentinel store with the other nodes.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type LogSink, Proc } from './processes.js';

/** The service's CLI entry (built by `pnpm build`). */
export function serviceMain(): string {
  const require = createRequire(import.meta.url);
  const main = join(dirname(require.resolve('@avatar-drive/service/package.json')), 'dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`pnpm build\` first.`);
  return main;
}

export interface NodeOptions {
  name: string;
  port: number;
  /** Environment of the service (apps, signing key, Redis Sentinel, limits…) on top of PATH/HOME. */
  env: Record<string, string>;
  /** Extra CLI flags. */
  args?: string[];
  log?: LogSink;
}

export class ServiceNode {
  readonly name: string;
  readonly port: number;
  readonly #options: NodeOptions;
  #proc: Proc | undefined;

  constructor(options: NodeOptions) {
    this.name = options.name;
    this.port = options.port;
    this.#options = options;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The node's own ingress (not through the load balancer). */
  get ingressUrl(): string {
    return `ws://127.0.0.1:${this.port}/v2/driveningress`;
  }

  get proc(): Proc | undefined {
    return this.#proc;
  }

  get running(): boolean {
    return this.#proc?.running ?? false;
  }

  /** Starts the process and resolves once it printed its banner (listening, store connected or not). */
  async start(): Promise<void> {
    if (this.running) return;
    const { PATH, HOME, NODE_OPTIONS } = process.env;
    const proc = new Proc(
      this.name,
      process.execPath,
      [serviceMain(), '--port', String(this.port), ...(this.#options.args ?? [])],
      {
        env: {
          ...(PATH && { PATH }),
          ...(HOME && { HOME }),
          ...(NODE_OPTIONS && { NODE_OPTIONS }),
          NODE_ENV: 'production',
          ...this.#options.env,
        },
        ...(this.#options.log && { log: this.#options.log }),
      },
    );
    this.#proc = proc;
    // Generous: on a loaded 2-core machine a node's start (engine weights, avatars) took 10-60 s.
    await proc.until(() => proc.output.includes('is running'), 'its banner', 120_000);
  }

  /** Resolves once /readyz answers 200 (store and engine ready). */
  async ready(timeoutMs = 30_000): Promise<void> {
    const proc = this.#proc;
    if (!proc) throw new Error(`${this.name} is not started`);
    await proc.until(async () => (await readyz(this.url)) === 200, '/readyz 200', timeoutMs);
  }

  /** kill -9: the node vanishes mid-whatever. */
  async kill(): Promise<void> {
    await this.#proc?.stop('SIGKILL');
  }

  /** SIGTERM: the node drains (see the service's drain), then exits. */
  async drain(): Promise<void> {
    await this.#proc?.stop('SIGTERM');
  }
}

/** The status of GET /readyz (0 when nothing answers). */
export async function readyz(url: string): Promise<number> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}
