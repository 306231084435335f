/**
 * `pnpm --filter @avatar-drive/service bench:floor`: the floor under `bench:service` — what a
 * session's socket traffic alone costs on this machine, with no WebSocket, protobuf, engine or
 * session logic, for a C program (epoll, one system call per message: socket-floor.c, built here
 * with the system's C compiler) and for bare Node `net` sockets.
 *
 * Each session sends a 680-byte message every 20 ms (a 20 ms, 16 kHz audio chunk with its framing)
 * and gets a 260-byte message back per two of them (an animation frame), as in `bench:service`.
 * For every client/server pair and session count it prints the CPU of each process (user +
 * system, from /proc) over a hold after the ramp, as % of a core per session and as cores at that
 * count: what is left of 2 cores for the service's own work and the engine at 1000 sessions.
 *
 * Flags: --sessions 500,1000  --pairs c/c,node/node,c/node (client/server)  --hold 8 (s)
 * Internal roles: `socket-floor.ts node-server PORT`, `socket-floor.ts node-client PORT N SECONDS`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const CHUNK = 680;
const FRAME = 260;
const TICK_MS = 5;
const SLOTS = 20 / TICK_MS;
const RAMP_S = 3;
const TICKS_PER_SECOND = 1000 / TICK_MS;
const CLK_TCK = 100;
const STARVED_BELOW = 0.99;

const USAGE = `Usage: pnpm --filter @avatar-drive/service bench:floor [options]

The socket traffic of bench:service sessions with nothing else: CPU per session of a C and a bare
Node client and server (see the comment at the top of apps/service/bench/socket-floor.ts).

  --sessions 500,1000          session counts
  --pairs c/c,node/node,c/node client/server implementations to pair
  --hold 8                     seconds measured after a ${RAMP_S} s ramp
  -h, --help                   this text
Needs a C compiler (gcc or cc) for the C side: bash scripts/setup.sh installs it.`;

function nodeServer(port: number): void {
  const frame = Buffer.alloc(FRAME);
  createServer({ noDelay: true }, (socket) => {
    let pending = 0;
    socket.on('data', (data) => {
      pending += data.length;
      while (pending >= 2 * CHUNK) {
        pending -= 2 * CHUNK;
        socket.write(frame);
      }
    });
    socket.on('error', () => socket.destroy());
  }).listen(port, '127.0.0.1', () => console.log('listening'));
}

async function nodeClient(port: number, sessions: number, seconds: number): Promise<void> {
  const sockets: Socket[] = [];
  let received = 0;
  for (let s = 0; s < sessions; s++) {
    const socket = connect({ port, host: '127.0.0.1', noDelay: true });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('data', (data) => {
      received += data.length;
    });
    sockets.push(socket);
  }
  console.log('connected');
  const chunk = Buffer.alloc(CHUNK);
  const start = performance.now();
  let ticks = 0;
  const last = seconds * TICKS_PER_SECOND;
  // One pacing timer for every session, catching up when late, as the bench client paces.
  const timer = setInterval(() => {
    const due = Math.min(last, Math.floor((performance.now() - start) / TICK_MS));
    for (; ticks < due; ticks++)
      for (let s = ticks % SLOTS; s < sessions; s += SLOTS) sockets[s]!.write(chunk);
    if (ticks >= last) {
      clearInterval(timer);
      console.log(`frames ${Math.floor(received / FRAME)}`);
      for (const socket of sockets) socket.destroy();
    }
  }, TICK_MS);
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (data: Buffer) => {
      seen += data.toString();
      if (seen.includes(line)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before "${line}"`)));
  });
}

function buildC(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const out = join(tmpdir(), `avatar-drive-socket-floor-${process.pid}`);
  for (const cc of ['gcc', 'cc', 'clang']) {
    try {
      execFileSync(cc, ['-O2', '-o', out, join(here, 'socket-floor.c')], { stdio: 'inherit' });
      return out;
    } catch {}
  }
  throw new Error(
    'No C compiler found (gcc, cc or clang): run `bash scripts/setup.sh` first, or use --pairs node/node.',
  );
}

function start(kind: string, role: 'server' | 'client', args: string[], binary: () => string): ChildProcess {
  const child =
    kind === 'c'
      ? spawn(binary(), [role, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(import.meta.url), `node-${role}`, ...args],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
  return child;
}

interface Row {
  pair: string;
  sessions: number;
  client: number;
  server: number;
  frames: number;
  due: number;
  load: string;
}

/** A loopback port free right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function measure(pair: string, sessions: number, holdS: number, binary: () => string): Promise<Row> {
  const [clientKind, serverKind] = pair.split('/') as [string, string];
  const port = await freePort();
  const server = start(serverKind, 'server', [String(port)], binary);
  await waitForLine(server, 'listening');
  const loadBefore = loadavg()[0]!.toFixed(1);
  const seconds = RAMP_S + holdS;
  const client = start(clientKind, 'client', [String(port), String(sessions), String(seconds)], binary);
  let output = '';
  client.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const done = new Promise<void>((resolve) => client.once('exit', () => resolve()));
  await waitForLine(client, 'connected');
  await new Promise((r) => setTimeout(r, RAMP_S * 1000));
  const c0 = cpuSeconds(client.pid!);
  const s0 = cpuSeconds(server.pid!);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, holdS * 1000 - 200));
  const c1 = cpuSeconds(client.pid!);
  const s1 = cpuSeconds(server.pid!);
  const wall = (performance.now() - t0) / 1000;
  await done;
  server.kill();
  const frames = Number(/frames (\d+)/.exec(output)?.[1] ?? 0);
  return {
    pair,
    sessions,
    client: (c1 - c0) / wall,
    server: (s1 - s0) / wall,
    frames,
    due: Math.floor(sessions * seconds * 25),
    load: `${loadBefore} → ${loadavg()[0]!.toFixed(1)}`,
  };
}

async function main(): Promise<void> {
  const [role, ...rest] = process.argv.slice(2);
  if (role === 'node-server') return nodeServer(Number(rest[0]));
  if (role === 'node-client') return nodeClient(Number(rest[0]), Number(rest[1]), Number(rest[2]));
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '500,1000' },
      pairs: { type: 'string', default: 'c/c,node/node,c/node' },
      hold: { type: 'string', default: '8' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const counts = values.sessions.split(',').map(Number);
  const pairs = values.pairs.split(',');
  for (const p of pairs)
    if (!/^(c|node)\/(c|node)$/.test(p))
      throw new Error(`--pairs takes client/server pairs of c and node, e.g. c/node; got "${p}"`);
  let built: string | undefined;
  const binary = () => (built ??= buildC());
  const rows: Row[] = [];
  for (const sessions of counts)
    for (const pair of pairs) {
      const row = await measure(pair, sessions, Number(values.hold), binary);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  console.log(
    '\n| client/server | sessions | client % core / session | server % core / session | cores (client + server) | frames / due | load (1 min) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows)
    console.log(
      `| ${r.pair} | ${r.sessions} | ${((100 * r.client) / r.sessions).toFixed(3)} | ${((100 * r.server) / r.sessions).toFixed(3)} | ` +
        `${r.client.toFixed(2)} + ${r.server.toFixed(2)} = ${(r.client + r.server).toFixed(2)} | ${(r.frames / r.due).toFixed(3)} | ${r.load} |`,
    );
  // A pair that did not deliver nearly every frame was short of CPU: it did less work than the
  // traffic asks for, so its CPU is no floor.
  const starved = rows.filter((r) => r.frames < STARVED_BELOW * r.due);
  if (starved.length > 0)
    console.log(
      `\nNot a floor (under ${STARVED_BELOW * 100} % of the frames delivered: the machine was short of CPU): ${starved.map((r) => `${r.pair} at ${r.sessions}`).join(', ')}.`,
    );
  process.exit(0);
}

await main();
