/**
 * `pnpm bench:service`: how many concurrent real-time sessions the service holds on this machine.
 *
 * Starts the service as a child process once per mode (inline engine, engine worker threads,
 * several service processes), so the modes are compared in the same run, then ramps up N sessions
 * on loopback. Each session streams speech (espeak-ng, else a synthetic vowel signal) in 20 ms
 * chunks in real time, utterance after utterance, and times every animation frame it gets back.
 *
 * Frame lateness = arrival − (utterance start + (k+1)·40 ms + lookahead), where frame k is counted
 * within its own utterance (by req_id) and lookahead is calibrated with one session first (the
 * median of arrival − utterance start − (k+1)·40 ms over its first utterance, which also gives the
 * frames an utterance gets). Reported per step: frames delivered vs due, p50/p99 lateness,
 * first-frame latency p50/p99, the service's CPU (user + system, all its processes and threads)
 * and the bench's own CPU per session, RSS per session, utterances ended (and any with a frame
 * count other than the calibration's), the bench's pacing lag and the load average; then a
 * markdown table, the most sessions held with p99 lateness < 40 ms per mode, and what the CPU per
 * session projects.
 *
 * The bench is a load generator and must cost little beside the service it measures: one pacing
 * timer for all sessions, audio messages encoded once for all of them, and by default the raw
 * client (raw-session.ts: its own RFC 6455 handshake and framing over net sockets, pre-built
 * frames with a zero masking key, one write per chunk, server frames scanned in a shared read
 * buffer). `--client ws` drives the same sessions through the ws library instead (also with a
 * zero mask), the reference to check the raw client against; `--client raw,ws` runs every step
 * with each, one after the other on the same service. The bench raises its own priority a little
 * (--client-nice) so that its pacing does not compete with the service it measures.
 *
 * Against a service already running (a load balancer in front of several nodes, for one):
 * `--url http://host:port` with `--app-id`, the API key in AVD_BENCH_API_KEY and `--avatar`; the
 * mode is then `url`, and `--pids` lists the processes whose CPU counts as the service's (the
 * nodes, the load balancer).
 *
 * Flags: --steps 50,100,200,300,400  --hold 8 (s per step)  --modes inline,workers,processes
 *        --workers 2 (engine threads, or service processes in mode `processes`, which starts a
 *        redis-server)  --engine-module SPEC (default @avatar-drive/engine)  --client raw|ws|raw,ws
 *        --client-nice -5  --service-main FILE (another checkout's service, as a peer)  --json
 * Env: AVD_BENCH_NODE_ARGS (extra node flags for the service, e.g. --cpu-prof --cpu-prof-dir=DIR);
 * the service's own variables pass through (e.g. AVATAR_DRIVE_OVERLOAD_LAG_MS=0
 * AVATAR_DRIVE_OVERLOAD_BUSY_PERCENT=0 turns its load shedding off). Sessions the service refuses
 * with 4503 while ramping up (overload) are counted as refused, not as errors, and left out of the
 * per-session figures.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey } from '../src/credentials/api-keys.js';
import { makeGlb } from '../test/support/glb.js';
import { TestRedis } from '../test/support/redis-server.js';
import { type BenchSession, newStats, type SessionOptions, type SessionStats } from './bench-session.js';
import { audioTemplates, configureMessage, framedTemplates } from './drive-messages.js';
import { RawBenchSession } from './raw-session.js';
import { Samples } from './samples.js';
import { clientFrame, OPCODE_BINARY } from './websocket-frames.js';
import { WsBenchSession } from './ws-session.js';

const USAGE = `Usage: pnpm bench:service [options]   (from the repository root)

Ramps up concurrent real-time sessions on a service child process per mode and reports frame
lateness, CPU and memory per step (see the comment at the top of apps/service/bench/service-bench.ts).

  --steps 50,100,200,300,400   sessions per step
  --hold 8                     seconds per step
  --modes inline,workers,processes
  --workers 2                  engine threads, or service processes in mode processes (starts redis-server)
  --engine-module SPEC         driver module (default @avatar-drive/engine)
  --client raw|ws|raw,ws       bench client (default raw)
  --client-nice -5             the bench's own priority
  --service-nice 0             the service's (on a shared machine, e.g. --client-nice 9 --service-nice 10)
  --service-main FILE          the service's main.ts to start (default this checkout's; another
                               checkout's to compare code versions on the same bench client)
  --json                       also print the results as JSON
  -h, --help                   this text
Env: AVD_BENCH_NODE_ARGS (extra node flags for the service); the service's own variables pass
through, e.g. AVATAR_DRIVE_OVERLOAD_LAG_MS=0 AVATAR_DRIVE_OVERLOAD_BUSY_PERCENT=0 (no load shedding).
Sessions refused with 4503 (overload) count as refused, not as errors.`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '50,100,200,300,400' },
    hold: { type: 'string', default: '8' },
    modes: { type: 'string', default: 'inline,workers,processes' },
    workers: { type: 'string', default: '2' },
    'engine-module': { type: 'string' },
    json: { type: 'boolean', default: false },
    'client-nice': { type: 'string', default: '-5' },
    client: { type: 'string', default: 'raw' },
    url: { type: 'string' },
    'app-id': { type: 'string' },
    avatar: { type: 'string' },
    pids: { type: 'string' },
    'service-main': { type: 'string' },
    'service-nice': { type: 'string', default: '0' },
  },
});
const STEPS = values.steps!.split(',').map(Number);
const HOLD_MS = Number(values.hold) * 1000;
type Mode = 'inline' | 'workers' | 'processes' | 'url';
const MODES = values.url ? (['url'] as Mode[]) : (values.modes!.split(',') as Mode[]);
type ClientKind = 'raw' | 'ws';
const CLIENTS = values.client!.split(',') as ClientKind[];
for (const kind of CLIENTS)
  if (kind !== 'raw' && kind !== 'ws') throw new Error(`--client takes raw and/or ws, not ${kind}`);
const SAMPLE_RATE = 16000;
const CHUNK_SAMPLES = (SAMPLE_RATE * 20) / 1000;
const APP_ID = values.url ? (values['app-id'] ?? '') : 'app_bench';
const API_KEY = values.url ? (process.env.AVD_BENCH_API_KEY ?? '') : generateApiKey();
const AVATAR = values.url ? (values.avatar ?? 'mika') : 'bench';
if (values.url && (!APP_ID || !API_KEY))
  throw new Error('--url needs --app-id and the API key in AVD_BENCH_API_KEY');
const SIGNING_KEY = randomBytes(32).toString('base64url');
const CONFIRM_TIMEOUT_MS = 20_000;
const INGRESS_PATH = '/v2/driveningress';
/** The shared pacing timer's period. */
const TICK_MS = 5;
/** The calibration session runs until its first utterance has ended, or this long. */
const CALIBRATION_MAX_MS = 15_000;
/** The service's priority (the bench's own may be raised with --client-nice). */
const SERVICE_NICE = Number(values['service-nice']);
/** Sessions opened at once while ramping up. */
const RAMP_BATCH = 10;
/** Steps stop after one whose p99 lateness passed this (the criterion is 40 ms). */
const STOP_P99_MS = 150;
/** The service to start: this checkout's, or another's (`--service-main`: a peer in the same run). */
const serviceMain = values['service-main'] ?? join(import.meta.dirname, '../src/main.ts');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- speech

async function speech(): Promise<Int16Array> {
  const dir = await mkdtemp(join(tmpdir(), 'avd-bench-'));
  const wav = join(dir, 'speech.wav');
  try {
    execFileSync('espeak-ng', [
      '-s',
      '150',
      '-w',
      wav,
      'The quick brown fox jumps over the lazy dog, twice.',
    ]);
    const bytes = await readFile(wav);
    const rate = bytes.readUInt32LE(24);
    const dataAt = bytes.indexOf('data') + 8;
    const src = new Int16Array(
      bytes.buffer.slice(
        bytes.byteOffset + dataAt,
        bytes.byteOffset + bytes.length - ((bytes.length - dataAt) % 2),
      ),
    );
    // espeak-ng speaks at 22050 Hz: resample linearly to 16 kHz.
    const out = new Int16Array(Math.floor((src.length * SAMPLE_RATE) / rate));
    for (let i = 0; i < out.length; i++) {
      const x = (i * rate) / SAMPLE_RATE;
      const j = Math.floor(x);
      out[i] = Math.round((src[j] ?? 0) * (1 - (x - j)) + (src[j + 1] ?? 0) * (x - j));
    }
    return out;
  } catch {
    const out = new Int16Array(SAMPLE_RATE * 4);
    for (let i = 0; i < out.length; i++) {
      const t = i / SAMPLE_RATE;
      out[i] = Math.round(Math.max(0, Math.sin(Math.PI * 3 * t)) * 9000 * Math.sin(2 * Math.PI * 700 * t));
    }
    return out;
  }
}

// ---------------------------------------------------------------- service

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Service {
  /** The processes whose CPU is the service's (with their direct children). */
  pids: number[];
  stop(): Promise<void>;
  url: string;
  host: string;
  port: number;
}

async function startService(mode: Mode): Promise<Service> {
  if (mode === 'url') {
    const url = new URL(values.url!);
    return {
      pids: (values.pids ?? '').split(',').filter(Boolean).map(Number),
      url: url.origin,
      host: url.hostname,
      port: Number(url.port || 80),
      stop: async () => undefined,
    };
  }
  const avatars = await mkdtemp(join(tmpdir(), 'avd-bench-avatars-'));
  await writeFile(join(avatars, 'bench.glb'), makeGlb(['jawOpen', 'mouthClose']));
  const port = await freePort();
  const args = [
    ...(process.env.AVD_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    '--import',
    'tsx',
    serviceMain,
    '--port',
    String(port),
    '--avatars-dir',
    avatars,
  ];
  args.push('--engine-workers', mode === 'workers' ? values.workers! : '0');
  let redis: TestRedis | undefined;
  if (mode === 'processes') {
    // Processes share the token ledger and session counts through Redis.
    redis = await TestRedis.start();
    // Part of the service under test: at the service's priority, not the bench's.
    try {
      setPriority(redis.pid!, SERVICE_NICE);
    } catch {
      // not permitted: then the bench was not raised either
    }
    args.push('--processes', values.workers!, '--redis-url', redis.url);
  }
  if (values['engine-module']) args.push('--engine-module', values['engine-module']);
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] }]),
      AVATAR_DRIVE_SIGNING_KEY: SIGNING_KEY,
      AVATAR_DRIVE_MAX_SESSIONS_PER_APP: '100000',
      AVATAR_DRIVE_TOKEN_RATE_LIMIT: '1000000',
    },
  });
  process.once('exit', () => child.kill('SIGTERM'));
  // Children inherit the bench's priority: put the service back at the normal one before it forks
  // its own processes or threads.
  try {
    setPriority(child.pid!, SERVICE_NICE);
  } catch {
    // not permitted: then the bench was not raised either
  }
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}: ${out}`)));
  });
  return {
    pids: [child.pid!],
    url: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await redis?.kill();
    },
  };
}

interface ProcStats {
  /** User and system CPU seconds. */
  user: number;
  sys: number;
  rss: number;
  /** Read- and write-type system calls (`syscr` + `syscw` of /proc/PID/io; all threads). */
  syscalls: number;
  /** The write-type ones alone (`syscw`: write, writev, send…). */
  writeSyscalls: number;
}

/** CPU seconds (user, system) and RSS of processes plus their direct children (cluster processes). */
async function processStats(roots: number[]): Promise<ProcStats> {
  const pids = [...roots];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (roots.includes(Number(stat.split(') ')[1]!.split(' ')[1]))) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  const total: ProcStats = { user: 0, sys: 0, rss: 0, syscalls: 0, writeSyscalls: 0 };
  for (const p of pids) {
    try {
      const stat = (await readFile(`/proc/${p}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      const status = await readFile(`/proc/${p}/status`, 'utf8');
      total.user += Number(stat[11]) / 100;
      total.sys += Number(stat[12]) / 100;
      total.rss += Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
      const io = await readFile(`/proc/${p}/io`, 'utf8').catch(() => '');
      const writes = Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0);
      total.syscalls += Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0) + writes;
      total.writeSyscalls += writes;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

// ---------------------------------------------------------------- sessions

async function mint(service: Service): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt <= 20; attempt++) {
    if (attempt > 0) await sleep(250);
    try {
      const r = await fetch(`${service.url}/v1/console/session-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 3600 }),
      });
      const body = (await r.json()) as { sessionToken?: string };
      if (r.status === 200 && body.sessionToken) return body.sessionToken;
      // A process that just started may not reach Redis yet (503): retry briefly.
      last = `HTTP ${r.status} ${JSON.stringify(body)}`;
    } catch (error) {
      // A saturated service may reset a kept-alive connection: retry on a new one.
      last = (error as Error).message;
    }
  }
  throw new Error(`minting a token failed: ${last}`);
}

interface StepResult {
  mode: string;
  /** The bench client that drove the step: raw (default) or ws. */
  client: ClientKind;
  sessions: number;
  frames: number;
  /** Frames received during the hold ÷ frames due in real time (sessions × 25/s × hold): ≈ 100 %. */
  deliveredPct: number;
  latenessP50: number;
  latenessP99: number;
  firstFrameP50: number;
  firstFrameP99: number;
  /** Service CPU (all its processes and threads) in cores, user and system, over the hold. */
  serviceUserCores: number;
  serviceSysCores: number;
  /** Service CPU per session, % of one core. */
  servicePctPerSession: number;
  /** The bench's own CPU (this process: all clients), % of one core per session, and its split. */
  clientPctPerSession: number;
  clientUserPctPerSession: number;
  clientSysPctPerSession: number;
  rssPerSessionKb: number;
  /** The service's read + write system calls per session per second (/proc/PID/io). */
  syscallsPerSessionSecond: number;
  /**
   * The service's CPU (µs) and system calls per animation frame delivered in the hold: the cost of
   * the work actually done, which a service starved by other work (and so behind) still reports
   * comparably.
   */
  serviceUsPerFrame: number;
  syscallsPerFrame: number;
  /** Write-type system calls per frame delivered (each animation message is one frame here). */
  writesPerFrame: number;
  errors: number;
  /** Sessions the service refused with 4503 (overload) while ramping up: not errors, not in the per-session figures. */
  refused: number;
  /** Utterances whose end=true arrived during the hold, and those of them with a frame missing or extra. */
  utterancesEnded: number;
  utterancesIncomplete: number;
  /** p99 lateness of the bench's shared pacing timer (5 ms): high = the bench could not send in time. */
  clientLagP99: number;
  /** The service's engine time per audio second, from /metrics (cumulative, wall-timed per call). */
  engineMsPerAudioSecond: number;
  /** 1-minute load average at the start and the end of the hold (other work competing for the cores). */
  loadStart: number;
  loadEnd: number;
  /** p99 < 40 ms and no errors. */
  held: boolean;
}

async function engineMsPerAudioSecond(service: Service): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const match = /^avatar_drive_engine_cpu_seconds_per_audio_second\{[^}]*\} (\S+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : Number.NaN;
}

/** What each kind of client sends: the same messages, framed by the bench or by ws. */
type ClientMessages = Record<ClientKind, Pick<SessionOptions, 'audio' | 'configure'>>;

function clientMessages(pcm: Int16Array): ClientMessages {
  const audio = audioTemplates(pcm, CHUNK_SAMPLES);
  const configure = configureMessage(SAMPLE_RATE);
  return {
    ws: { audio, configure },
    raw: { audio: framedTemplates(audio), configure: clientFrame(OPCODE_BINARY, configure) },
  };
}

/** What the calibration session measured, per kind of client. */
interface Calibration {
  lookahead: number;
  expectedFrames: number;
}

function openSession(
  kind: ClientKind,
  messages: ClientMessages,
  service: Service,
  token: string,
  stats: SessionStats,
  calibration: Calibration,
): BenchSession {
  const options: SessionOptions = {
    ...messages[kind],
    stats,
    offset: calibration.lookahead,
    expectedFrames: calibration.expectedFrames,
    confirmTimeoutMs: CONFIRM_TIMEOUT_MS,
  };
  const headers = { 'X-App-ID': APP_ID, 'X-Session-Key': token };
  return kind === 'raw'
    ? new RawBenchSession(
        { host: service.host, port: service.port, path: `${INGRESS_PATH}?id=${AVATAR}`, headers },
        options,
      )
    : new WsBenchSession(
        `ws://${service.host}:${service.port}${INGRESS_PATH}?id=${AVATAR}`,
        headers,
        options,
      );
}

async function runMode(mode: Mode, messages: ClientMessages): Promise<StepResult[]> {
  const service = await startService(mode);
  const pid = service.pids;
  const sessions: BenchSession[] = [];
  const results: StepResult[] = [];
  const lag = new Samples();
  let lastTick = performance.now();
  // One pacing timer for every session: each tick sends the chunks that are due.
  const ticker = setInterval(() => {
    const now = performance.now();
    lag.push(now - lastTick - TICK_MS);
    lastTick = now;
    for (let i = 0; i < sessions.length; i++) sessions[i]!.tick(now);
  }, TICK_MS);
  const closeAll = () => {
    for (const s of sessions) s.close();
    sessions.length = 0;
  };
  try {
    // Calibrate the engine lookahead and the frames per utterance with one session per kind of
    // client, over its first whole utterance.
    const calibrations = new Map<ClientKind, Calibration>();
    for (const kind of CLIENTS) {
      const stats = newStats();
      const one = openSession(kind, messages, service, await mint(service), stats, {
        lookahead: 0,
        expectedFrames: 0,
      });
      await one.ready;
      sessions.push(one);
      const until = performance.now() + CALIBRATION_MAX_MS;
      while (stats.utteranceFrames.length === 0 && performance.now() < until) await sleep(100);
      closeAll();
      if (stats.utteranceFrames.length === 0 || stats.errors > 0)
        throw new Error(`the ${kind} calibration session got no complete utterance (${stats.errors} errors)`);
      const calibration = {
        lookahead: stats.lateness.percentile(50),
        expectedFrames: stats.utteranceFrames.percentile(50),
      };
      calibrations.set(kind, calibration);
      if (!values.json)
        console.log(
          `${mode.padEnd(9)} ${kind.padEnd(3)} calibration: lookahead ${fmt(calibration.lookahead)} ms, ${calibration.expectedFrames} frames per utterance`,
        );
    }
    const baseline = await processStats(pid);
    for (const target of STEPS) {
      const step: StepResult[] = [];
      for (const kind of CLIENTS) {
        const stats = newStats();
        closeAll();
        await sleep(500);
        // Tokens first (in parallel), so a busy service does not slow the ramp down token by
        // token; then sessions open RAMP_BATCH at a time, 20 ms apart, so utterances are not in
        // lockstep.
        const tokens: string[] = [];
        for (let i = 0; i < target; i += RAMP_BATCH) {
          tokens.push(
            ...(await Promise.all(
              Array.from({ length: Math.min(RAMP_BATCH, target - i) }, () => mint(service)),
            )),
          );
        }
        let failed = 0;
        let refused = 0;
        for (let i = 0; i < target; i += RAMP_BATCH) {
          const batch = tokens
            .slice(i, i + RAMP_BATCH)
            .map((token) => openSession(kind, messages, service, token, stats, calibrations.get(kind)!));
          const opened = await Promise.allSettled(batch.map((s) => s.ready));
          opened.forEach((outcome, k) => {
            if (outcome.status === 'fulfilled') {
              sessions.push(batch[k]!);
              return;
            }
            batch[k]!.terminate();
            if (batch[k]!.refused) {
              refused++;
              return;
            }
            failed++;
            if (failed === 1) console.error(`a session failed to open: ${(outcome.reason as Error).message}`);
          });
          await sleep(20);
        }
        stats.errors += failed;
        await sleep(1500);
        stats.lateness.clear();
        stats.firstFrame.clear();
        stats.utteranceFrames.clear();
        stats.incomplete = 0;
        lag.clear();
        const loadStart = loadavg()[0]!;
        const before = await processStats(pid);
        const clientBefore = process.cpuUsage();
        const wallBefore = performance.now();
        await sleep(HOLD_MS);
        const wall = (performance.now() - wallBefore) / 1000;
        const client = process.cpuUsage(clientBefore);
        const after = await processStats(pid);
        const serviceCores = (after.user + after.sys - before.user - before.sys) / wall;
        const latenessP99 = stats.lateness.percentile(99);
        // Per-session figures are over the sessions the service took (all of them unless it shed load).
        const open = Math.max(1, target - refused);
        const clientPct = (micros: number) => (micros / 1e6 / wall / open) * 100;
        const result: StepResult = {
          mode,
          client: kind,
          sessions: target,
          frames: stats.lateness.length,
          deliveredPct: (stats.lateness.length / (open * 25 * wall)) * 100,
          latenessP50: stats.lateness.percentile(50),
          latenessP99,
          firstFrameP50: stats.firstFrame.percentile(50),
          firstFrameP99: stats.firstFrame.percentile(99),
          serviceUserCores: (after.user - before.user) / wall,
          serviceSysCores: (after.sys - before.sys) / wall,
          servicePctPerSession: (serviceCores * 100) / open,
          clientPctPerSession: clientPct(client.user + client.system),
          clientUserPctPerSession: clientPct(client.user),
          clientSysPctPerSession: clientPct(client.system),
          rssPerSessionKb: (after.rss - baseline.rss) / open / 1024,
          syscallsPerSessionSecond: (after.syscalls - before.syscalls) / wall / open,
          serviceUsPerFrame: ((serviceCores * wall) / Math.max(1, stats.lateness.length)) * 1e6,
          syscallsPerFrame: (after.syscalls - before.syscalls) / Math.max(1, stats.lateness.length),
          writesPerFrame: (after.writeSyscalls - before.writeSyscalls) / Math.max(1, stats.lateness.length),
          errors: stats.errors,
          refused,
          utterancesEnded: stats.utteranceFrames.length,
          utterancesIncomplete: stats.incomplete,
          clientLagP99: lag.percentile(99),
          engineMsPerAudioSecond: await engineMsPerAudioSecond(service),
          loadStart,
          loadEnd: loadavg()[0]!,
          held: latenessP99 < 40 && stats.errors === 0,
        };
        step.push(result);
        report(result);
      }
      results.push(...step);
      // Far past the criterion with every client: a bigger step would only be worse (and slow to ramp).
      if (step.every((r) => r.latenessP99 > STOP_P99_MS || r.errors > target / 10)) break;
    }
  } finally {
    clearInterval(ticker);
    for (const s of sessions) s.terminate();
    await service.stop();
  }
  return results;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function report(r: StepResult): void {
  if (values.json) return;
  console.log(
    `${r.mode.padEnd(9)} ${r.client.padEnd(3)} ${String(r.sessions).padStart(4)} sessions  frames ${fmt(r.deliveredPct, 0)}% of due  lateness p50 ${fmt(r.latenessP50)} p99 ${fmt(r.latenessP99)} ms  ` +
      `first frame p50 ${fmt(r.firstFrameP50)} p99 ${fmt(r.firstFrameP99)} ms  ` +
      `service ${fmt(r.serviceUserCores + r.serviceSysCores, 2)} cores (user ${fmt(r.serviceUserCores, 2)} sys ${fmt(r.serviceSysCores, 2)}) = ${fmt(r.servicePctPerSession, 2)}%/session  ` +
      `bench client ${fmt(r.clientPctPerSession, 3)}%/session (user ${fmt(r.clientUserPctPerSession, 3)} sys ${fmt(r.clientSysPctPerSession, 3)})  RSS ${fmt(r.rssPerSessionKb, 0)} KiB/session  syscalls ${fmt(r.syscallsPerSessionSecond)}/session/s  per frame: service ${fmt(r.serviceUsPerFrame)} µs, ${fmt(r.syscallsPerFrame, 2)} syscalls (${fmt(r.writesPerFrame, 2)} writes)  errors ${r.errors}  refused ${r.refused}  ` +
      `utterances ended ${r.utterancesEnded} (incomplete ${r.utterancesIncomplete})  ` +
      `pacing lag p99 ${fmt(r.clientLagP99)} ms  engine ${fmt(r.engineMsPerAudioSecond, 2)} ms/audio s  load ${fmt(r.loadStart)}→${fmt(r.loadEnd)}${r.held ? '  HELD' : ''}`,
  );
  if (r.utterancesIncomplete > 0)
    console.log(
      `  ${r.utterancesIncomplete} utterances ended with a frame count other than the calibration session's`,
    );
}

/** The per-step table, ready to paste into docs/benchmarks.md. */
function markdown(results: StepResult[]): string {
  const rows = [
    '| Mode | Client | Sessions (refused) | Held | Frames delivered | Lateness p50 / p99 (ms) | First frame p50 / p99 (ms) | Service cores (user + sys) | Service % core / session | Bench client % core / session (user + sys) | RSS / session | Syscalls / session / s | Engine ms / audio s | Pacing lag p99 | Load (1 min) start → end |',
    '| --- | --- | ---: | --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    rows.push(
      `| ${r.mode} | ${r.client} | ${r.sessions}${r.refused > 0 ? ` (${r.refused})` : ''} | ${r.held ? '**yes**' : 'no'} | ${fmt(r.deliveredPct, 0)} % | ${fmt(r.latenessP50)} / ${fmt(r.latenessP99)} | ${fmt(r.firstFrameP50)} / ${fmt(r.firstFrameP99)} | ` +
        `${fmt(r.serviceUserCores + r.serviceSysCores, 2)} (${fmt(r.serviceUserCores, 2)} + ${fmt(r.serviceSysCores, 2)}) | ${fmt(r.servicePctPerSession, 2)} | ` +
        `${fmt(r.clientPctPerSession, 3)} (${fmt(r.clientUserPctPerSession, 3)} + ${fmt(r.clientSysPctPerSession, 3)}) | ` +
        `${fmt(r.rssPerSessionKb, 0)} KiB | ${fmt(r.syscallsPerSessionSecond)} | ${fmt(r.engineMsPerAudioSecond, 2)} | ${fmt(r.clientLagP99)} ms | ${fmt(r.loadStart)} → ${fmt(r.loadEnd)} |`,
    );
  }
  return rows.join('\n');
}

const started = new Date();
// The clients must keep real time for lateness to be the service's: when the service's own threads
// (workers, processes) and other work fill the cores, a starved bench would show up as service
// lateness. So the bench runs at a slightly higher priority than the service it starts (when
// allowed; the "pacing lag" column says whether it kept time either way).
const clientNice = Number(values['client-nice']);
try {
  setPriority(clientNice);
  console.log(`bench client at nice ${clientNice} (the service at ${SERVICE_NICE})`);
} catch {
  console.log(`bench client at nice 0 (nice ${clientNice} not permitted; see the pacing lag column)`);
}
const pcm = await speech();
const messages = clientMessages(pcm);
console.log(
  `service bench ${started.toISOString()} on ${cpus().length} cores (load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )}): ${(pcm.length / SAMPLE_RATE).toFixed(1)} s utterances at ${SAMPLE_RATE} Hz in 20 ms chunks, steps ${STEPS.join(', ')}, ${HOLD_MS / 1000} s hold each, client ${CLIENTS.join(', ')}`,
);
const all: StepResult[] = [];
for (const mode of MODES) {
  try {
    all.push(...(await runMode(mode, messages)));
  } catch (error) {
    // One mode failing (e.g. the machine too busy to ramp up) must not lose the others' figures.
    console.error(`${mode}: the run failed: ${(error as Error).message}`);
  }
}
if (values.json) console.log(JSON.stringify(all, null, 2));
else console.log(`\n${markdown(all)}\n`);
for (const mode of MODES) {
  for (const kind of CLIENTS) {
    const rows = all.filter((r) => r.mode === mode && r.client === kind);
    const best = rows.filter((r) => r.held).at(-1);
    console.log(
      `${mode} (${kind} client): most sessions held with p99 frame lateness < 40 ms and no errors: ${best ? best.sessions : 'none of the steps'}` +
        (best
          ? ` (first frame p50 ${fmt(best.firstFrameP50, 0)} ms, p99 ${fmt(best.firstFrameP99, 0)} ms; load ${fmt(best.loadStart)}→${fmt(best.loadEnd)})`
          : ''),
    );
    // CPU per session barely depends on how much CPU the machine's other work left the service, so
    // it gives what the cores could hold when the hold test above was limited by that other work.
    // Only steps where the bench itself kept time (pacing lag p99 < 25 ms) say what a session costs.
    const largest = rows.filter((r) => r.clientLagP99 < 25).at(-1);
    if (!largest)
      console.log('  CPU per session: no step where the bench kept time (the machine was too busy)');
    else {
      const perSession = largest.servicePctPerSession + largest.clientPctPerSession;
      console.log(
        `  CPU at ${largest.sessions} sessions: service ${fmt(largest.servicePctPerSession, 2)} % + bench client ${fmt(largest.clientPctPerSession, 3)} % of a core per session` +
          ` → ${cpus().length} idle cores would fit ≈ ${Math.floor((cpus().length * 100) / perSession)} sessions with the bench on the same machine,` +
          ` ≈ ${Math.floor(100 / largest.servicePctPerSession)} per core of service alone`,
      );
    }
  }
}
process.exit(0);
