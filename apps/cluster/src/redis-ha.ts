/**
 * Redis made highly available with Redis Sentinel, on loopback: one primary, its replicas and a
 * quorum of sentinels (Debian's redis-server and redis-sentinel), each a real process with its
 * own config file in a scratch directory. Sentinel's own failover does the work; this module
 * only starts the processes, finds out which server is primary now, and kills or restarts one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, type LogSink, Proc, sleep } from './processes.js';

export interface RedisHAOptions {
  /** Name the sentinels monitor the primary under (default `avatar-drive`). */
  masterName?: string;
  /** Replicas of the primary (default 2: a failover still leaves one to confirm writes). */
  replicas?: number;
  /** Sentinels (default 3; quorum 2). */
  sentinels?: number;
  /** How long a primary must be unreachable before sentinels call it down (default 5000 ms). */
  downAfterMs?: number;
  /** Sentinel's failover-timeout (default 10 000 ms). */
  failoverTimeoutMs?: number;
  /** Fixed ports: servers (primary first), then sentinels; free ports otherwise. */
  serverPorts?: number[];
  sentinelPorts?: number[];
  log?: LogSink;
}

interface Server {
  port: number;
  proc: Proc;
}

export class RedisHA {
  readonly masterName: string;
  readonly servers: Server[] = [];
  readonly sentinels: Server[] = [];
  readonly #dir: string;
  readonly #log: LogSink | undefined;

  private constructor(masterName: string, dir: string, log: LogSink | undefined) {
    this.masterName = masterName;
    this.#dir = dir;
    this.#log = log;
  }

  /** Starts the servers, waits for replication, then the sentinels, and waits for them to agree. */
  static async start(options: RedisHAOptions = {}): Promise<RedisHA> {
    const ha = new RedisHA(
      options.masterName ?? 'avatar-drive',
      await mkdtemp(join(tmpdir(), 'avd-redis-ha-')),
      options.log,
    );
    try {
      await ha.#start(options);
    } catch (error) {
      await ha.stop();
      throw error;
    }
    return ha;
  }

  /** `host:port,…` of the sentinels, as the service's REDIS_SENTINELS takes it. */
  get sentinelList(): string {
    return this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
  }

  async #start(options: RedisHAOptions): Promise<void> {
    const replicas = options.replicas ?? 2;
    const count = options.sentinels ?? 3;
    const serverPorts = options.serverPorts ?? [];
    const sentinelPorts = options.sentinelPorts ?? [];
    for (let i = 0; i <= replicas; i++) {
      const port = serverPorts[i] ?? (await freePort());
      this.servers.push({ port, proc: this.#server(i, port) });
    }
    const primary = this.servers[0]!.port;
    for (const server of this.servers) await server.proc.until(() => ping(server.port), 'PING answer');
    // Online, not just connected: a replica still waiting for its first copy of the data
    // (state=wait_bgsave) acknowledges nothing, so the nodes' WAIT would refuse every session
    // (4503) until it has one.
    await this.servers[0]!.proc.until(
      async () => onlineReplicas(await info(primary, 'replication')) === replicas,
      `${replicas} replicas online`,
    );
    for (let i = 0; i < count; i++) {
      const port = sentinelPorts[i] ?? (await freePort());
      const conf = join(this.#dir, `sentinel-${i}.conf`);
      // Sentinel rewrites its config file (discovered replicas, epochs): one writable file each.
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${this.#dir}`,
          `sentinel monitor ${this.masterName} 127.0.0.1 ${primary} ${Math.floor(count / 2) + 1}`,
          `sentinel down-after-milliseconds ${this.masterName} ${options.downAfterMs ?? 5000}`,
          `sentinel failover-timeout ${this.masterName} ${options.failoverTimeoutMs ?? 10_000}`,
          `sentinel parallel-syncs ${this.masterName} 1`,
          '',
        ].join('\n'),
      );
      const proc = new Proc(`sentinel-${i}`, 'redis-sentinel', [conf], {
        ...(this.#log && { log: this.#log }),
      });
      this.sentinels.push({ port, proc });
    }
    // Ready when every sentinel names the primary and has seen the others (needed for a quorum).
    for (const sentinel of this.sentinels) {
      await sentinel.proc.until(async () => {
        // Not listening yet: ask again.
        const [master] = await sentinelMasters(sentinel.port, this.masterName).catch(() => []);
        return master?.port === primary && master.otherSentinels >= count - 1;
      }, 'agreement on the primary');
    }
  }

  #server(index: number, port: number): Proc {
    const args = serverArgs(port, this.#dir);
    if (index > 0) args.push('--replicaof', '127.0.0.1', String(this.servers[0]!.port));
    return new Proc(`redis-${port}`, 'redis-server', args, { ...(this.#log && { log: this.#log }) });
  }

  /** The port of the server the sentinels name primary now (asks each sentinel until one answers). */
  async primaryPort(): Promise<number | undefined> {
    for (const sentinel of this.sentinels) {
      if (!sentinel.proc.running) continue;
      const [master] = await sentinelMasters(sentinel.port, this.masterName).catch(() => []);
      if (master) return master.port;
    }
    return undefined;
  }

  /** Sends one command to the server (or sentinel) on `port`. */
  async call(port: number, command: string, ...args: (string | number)[]): Promise<unknown> {
    const client = oneShot(port);
    try {
      return await client.call(command, ...args);
    } finally {
      client.disconnect();
    }
  }

  /** The server process on `port`. */
  server(port: number): Server {
    const server = this.servers.find((s) => s.port === port);
    if (!server) throw new Error(`no Redis server on port ${port}`);
    return server;
  }

  /** kill -9 of the current primary; resolves with its port once it is gone. */
  async killPrimary(): Promise<number> {
    const port = await this.primaryPort();
    if (port === undefined) throw new Error('the sentinels name no primary');
    await this.server(port).proc.stop('SIGKILL');
    return port;
  }

  /**
   * Starts the server on `port` again, empty and as a replica of the current primary (what
   * Sentinel would tell it anyway; a server that rejoined as primary would be demoted by it).
   */
  async restartServer(port: number): Promise<void> {
    const server = this.server(port);
    await server.proc.stop('SIGKILL');
    const primary = await this.primaryPort();
    const args = serverArgs(port, this.#dir);
    if (primary !== undefined && primary !== port) args.push('--replicaof', '127.0.0.1', String(primary));
    server.proc = new Proc(`redis-${port}`, 'redis-server', args, { ...(this.#log && { log: this.#log }) });
    await server.proc.until(() => ping(port), 'PING answer');
  }

  /** Waits until the sentinels name a primary other than `oldPort` and it accepts writes. */
  async waitForFailover(oldPort: number, timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const port = await this.primaryPort();
      if (port !== undefined && port !== oldPort && (await info(port, 'replication')).includes('role:master'))
        return port;
      if (Date.now() > deadline) throw new Error(`no failover away from ${oldPort} within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.servers].map((s) => s.proc.stop('SIGKILL')));
    await rm(this.#dir, { recursive: true, force: true });
  }
}

/** The command line of a server on `port`: loopback only, nothing written to disk. */
function serverArgs(port: number, dir: string): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--dbfilename',
    `dump-${port}.rdb`,
    '--loglevel',
    'warning',
    // Redis 7 waits 5 s by default before a diskless full sync, for more replicas to join it; its
    // replicas here all connect at once, and until they are synced they confirm no write.
    '--repl-diskless-sync-delay',
    '0',
  ];
}

/** Replicas listed `state=online` in an INFO replication answer (synced, acknowledging writes). */
export function onlineReplicas(replication: string): number {
  return replication.split('\n').filter((line) => /^slave\d+:.*\bstate=online\b/.test(line)).length;
}

interface SentinelMaster {
  port: number;
  otherSentinels: number;
  flags: string;
}

/** SENTINEL MASTERS, filtered to `name`, from the sentinel on `port`. */
async function sentinelMasters(port: number, name: string): Promise<SentinelMaster[]> {
  const client = oneShot(port);
  try {
    const rows = (await client.call('SENTINEL', 'MASTERS')) as string[][];
    return rows
      .map((row) => Object.fromEntries(pairs(row)))
      .filter((m) => m.name === name)
      .map((m) => ({
        port: Number(m.port),
        otherSentinels: Number(m['num-other-sentinels']),
        flags: m.flags ?? '',
      }));
  } finally {
    client.disconnect();
  }
}

/** INFO `section` of the server on `port` ('' when it does not answer). */
async function info(port: number, section: string): Promise<string> {
  const client = oneShot(port);
  try {
    return await client.info(section);
  } catch {
    return '';
  } finally {
    client.disconnect();
  }
}

async function ping(port: number): Promise<boolean> {
  const client = oneShot(port);
  try {
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A connection for one question: no retries, no queue, a short timeout. */
function oneShot(port: number): Redis {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 500,
    commandTimeout: 1000,
  });
  client.on('error', () => undefined);
  return client;
}

function pairs(row: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < row.length; i += 2) out.push([row[i]!, row[i + 1]!]);
  return out;
}
