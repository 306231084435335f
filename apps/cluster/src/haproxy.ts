/**
 * HAProxy in front of the service nodes: the config (WebSocket-aware HTTP mode, health checks on
 * /readyz) and the process (Debian's haproxy, in the foreground).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type LogSink, listening, Proc } from './processes.js';

export interface HaproxyConfigOptions {
  /** Port the load balancer listens on (127.0.0.1 unless `bind` says otherwise). */
  port: number;
  /** `address:port` to bind; default `127.0.0.1:<port>`. */
  bind?: string;
  /** The service nodes, `host:port`. */
  nodes: string[];
  /** Port of the stats page (`/stats`), if any. */
  statsPort?: number;
  /** Health check interval (default 1000 ms; a node is out after 2 failed checks, in after 2 good ones). */
  checkIntervalMs?: number;
}

/**
 * The HAProxy configuration for one region.
 *
 * - `mode http`: HAProxy sees the upgrade request, routes it, then tunnels the WebSocket
 *   (`timeout tunnel` bounds an idle one; the service pings every 30 s).
 * - `balance leastconn`: sessions are long-lived, so a node that just came back gets the new ones.
 * - `option httpchk GET /readyz`: a draining node (SIGTERM) or one that lost Redis answers 503 and
 *   gets no new sessions; its open sessions are left alone (no `on-marked-down shutdown-sessions`),
 *   so a draining node can finish its utterances.
 * - `option redispatch` + `retries`: a connection refused by a node that died (before the checks
 *   noticed) is retried on another node, so the client never sees it.
 * - Each node is listed a second time as an unchecked `backup`: when every node is unready (Redis
 *   failing over, all of them answer 503 on /readyz), requests still reach a node, which refuses the
 *   session itself with a typed, retryable 4503 instead of HAProxy's bare HTTP 503.
 */
export function haproxyConfig(options: HaproxyConfigOptions): string {
  const inter = options.checkIntervalMs ?? 1000;
  const servers = options.nodes.map((node, i) => `  server node${i + 1} ${node} check`);
  const backups = options.nodes.map((node, i) => `  server node${i + 1}-unready ${node} backup`);
  const lines = [
    'global',
    '  maxconn 8000',
    '',
    'defaults',
    '  mode http',
    '  option redispatch 1',
    '  retries 3',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 2h',
    '  timeout client-fin 5s',
    '  timeout server-fin 5s',
    '  timeout http-request 10s',
    '',
    'frontend avatar_drive',
    `  bind ${options.bind ?? `127.0.0.1:${options.port}`}`,
    '  default_backend nodes',
    '',
    'backend nodes',
    '  balance leastconn',
    '  option allbackups',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server inter ${inter} fastinter ${Math.max(100, Math.round(inter / 2))} downinter ${inter} fall 2 rise 2`,
    ...servers,
    ...backups,
  ];
  if (options.statsPort !== undefined) {
    lines.push(
      '',
      'frontend stats',
      `  bind 127.0.0.1:${options.statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '  stats refresh 2s',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A running HAProxy. */
export class Haproxy {
  readonly proc: Proc;
  readonly port: number;

  private constructor(proc: Proc, port: number) {
    this.proc = proc;
    this.port = port;
  }

  /** Writes the config to `dir`, checks it with `haproxy -c`, starts HAProxy and waits for its port. */
  static async start(dir: string, options: HaproxyConfigOptions, log?: LogSink): Promise<Haproxy> {
    const file = join(dir, 'haproxy.cfg');
    await writeFile(file, haproxyConfig(options));
    const check = new Proc('haproxy -c', 'haproxy', ['-c', '-q', '-f', file], {});
    const result = await check.exited;
    if (result.code !== 0) throw new Error(`haproxy rejected ${file}:\n${check.output}`);
    const proc = new Proc('haproxy', 'haproxy', ['-db', '-f', file], { ...(log && { log }) });
    await proc.until(() => listening(options.port), `listening on ${options.port}`);
    return new Haproxy(proc, options.port);
  }

  async stop(): Promise<void> {
    await this.proc.stop('SIGTERM');
  }
}
