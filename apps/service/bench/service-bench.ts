/**
 * `pnpm bench:service`: how many concurrent real-time sessions one service process holds.
 *
 * Starts the service as a child process (once per engine mode: on the event loop, and on worker
 * threads, so the two are compared in the same run), then ramps up N clients on loopback. Each
 * client streams speech (espeak-ng, else a synthetic vowel signal) in 20 ms chunks in real time,
 * utterance after utterance, and times every animation frame it gets back.
 *
 * Frame lateness = arrival − (utterance start + (k+1)·40 ms + lookahead), where lookahead is
 * calibrated with one session first (the median of arrival − utterance start − (k+1)·40 ms).
 * Reported per step: p50/p99 lateness, first-frame latency p50/p99, service CPU (% of one core)
 * and RSS per session; and the most sessions held with p99 lateness < 40 ms.
 *
 * Flags: --steps 50,100,200,300,400  --hold 8 (s per step)  --modes inline,workers
 *        --workers 2 (engine threads, or service processes in mode `processes`, which starts a
 *        redis-server)  --engine-module SPEC (default @avatar-drive/engine)  --json
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { generateApiKey, hashApiKey } from '../src/credentials/api-keys.js';
import { makeGlb } from '../test/support/glb.js';
import { TestRedis } from '../test/support/redis-server.js';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '50,100,200,300,400' },
    hold: { type: 'string', default: '8' },
    modes: { type: 'string', default: 'inline,workers,processes' },
    workers: { type: 'string', default: '2' },
    'engine-module': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const STEPS = values.steps!.split(',').map(Number);
const HOLD_MS = Number(values.hold) * 1000;
type Mode = 'inline' | 'workers' | 'processes';
const MODES = values.modes!.split(',') as Mode[];
const SAMPLE_RATE = 16000;
const CHUNK_SAMPLES = (SAMPLE_RATE * 20) / 1000;
const APP_ID = 'app_bench';
const API_KEY = generateApiKey();
const SIGNING_KEY = randomBytes(32).toString('base64url');
const serviceMain = join(import.meta.dirname, '../src/main.ts');

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

// ---------------------------------------------------------- wire (hand-rolled, cheap)

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function lenField(tag: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag, ...varint(bytes.length)]), bytes]);
}

function audioMessage(reqId: string, pcm: Int16Array, end: boolean): Buffer {
  const inner = Buffer.concat([
    lenField(0x0a, Buffer.from(reqId)),
    end ? Buffer.from([0x10, 1]) : Buffer.alloc(0),
    pcm.length ? lenField(0x1a, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)) : Buffer.alloc(0),
  ]);
  return Buffer.concat([Buffer.from([0x08, 3]), lenField(0x22, inner)]);
}

const CONFIGURE = Buffer.concat([
  Buffer.from([0x08, 1]),
  lenField(0x12, Buffer.from([0x08, ...varint(SAMPLE_RATE)])),
]);

function readVarint(b: Buffer, p: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = b[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, p];
    shift += 7;
  }
}

/** Message type, and for animations: keyframe count and end flag. */
function scan(b: Buffer): { type: number; keyframes: number; end: boolean } {
  let type = 0;
  let keyframes = 0;
  let end = false;
  let p = 0;
  while (p < b.length) {
    let key: number;
    [key, p] = readVarint(b, p);
    const field = key >>> 3;
    if ((key & 7) === 0) {
      let v: number;
      [v, p] = readVarint(b, p);
      if (field === 1) type = v;
      continue;
    }
    let len: number;
    [len, p] = readVarint(b, p);
    if (field === 6) {
      let q = p;
      while (q < p + len) {
        let k: number;
        [k, q] = readVarint(b, q);
        if ((k & 7) === 0) {
          let v: number;
          [v, q] = readVarint(b, q);
          if (k >>> 3 === 3) end = v === 1;
          continue;
        }
        let l: number;
        [l, q] = readVarint(b, q);
        if (k >>> 3 === 4) {
          let r = q;
          while (r < q + l) {
            let kk: number;
            [kk, r] = readVarint(b, r);
            let ll: number;
            [ll, r] = readVarint(b, r);
            if (kk >>> 3 === 1) keyframes++;
            r += ll;
          }
        }
        q += l;
      }
    }
    p += len;
  }
  return { type, keyframes, end };
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
  child: ChildProcess;
  stop(): Promise<void>;
  url: string;
  ingressUrl: string;
}

async function startService(mode: Mode): Promise<Service> {
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
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}: ${out}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    ingressUrl: `ws://127.0.0.1:${port}/v2/driveningress`,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await redis?.kill();
    },
  };
}

/** CPU seconds and RSS of a process plus its direct children (cluster processes). */
async function processStats(pid: number): Promise<{ cpu: number; rss: number }> {
  const pids = [pid];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === pid) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  let cpu = 0;
  let rss = 0;
  for (const p of pids) {
    try {
      const one = await singleProcessStats(p);
      cpu += one.cpu;
      rss += one.rss;
    } catch {
      // exited meanwhile
    }
  }
  return { cpu, rss };
}

/** utime+stime of a process in seconds, and its RSS in bytes (Linux /proc). */
async function singleProcessStats(pid: number): Promise<{ cpu: number; rss: number }> {
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  return { cpu: ticks / 100, rss: rssKb * 1024 };
}

// ---------------------------------------------------------------- clients

interface Stats {
  lateness: number[];
  firstFrame: number[];
  errors: number;
}

class BenchClient {
  readonly ws: WebSocket;
  #utterance = 0;
  #reqId = '';
  #start = 0;
  #chunk = 0;
  #framesSeen = 0;
  #gotFirst = false;
  ready: Promise<void>;
  stopped = false;
  /** Arrival − (start + (k+1)·40 ms), before subtracting the calibrated lookahead. */
  constructor(
    service: Service,
    token: string,
    private readonly audio: Int16Array,
    private readonly stats: Stats,
    private readonly offset: number,
  ) {
    this.ws = new WebSocket(`${service.ingressUrl}?id=bench`, {
      headers: { 'X-App-ID': APP_ID, 'X-Session-Key': token },
      perMessageDeflate: false,
    });
    this.ready = new Promise((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('message', (data: Buffer) => {
        const m = scan(data);
        if (m.type === 2) resolve();
        else if (m.type === 4) this.stats.errors++;
        else if (m.type === 5) this.#onFrames(m.keyframes);
      });
      this.ws.once('open', () => this.ws.send(CONFIGURE));
      this.ws.once('close', () => {
        if (!this.stopped) this.stats.errors++;
      });
    });
  }

  #onFrames(count: number): void {
    const now = performance.now();
    if (count > 0 && !this.#gotFirst) {
      this.#gotFirst = true;
      this.stats.firstFrame.push(now - this.#start);
    }
    for (let i = 0; i < count; i++) {
      const k = this.#framesSeen++;
      this.stats.lateness.push(now - (this.#start + (k + 1) * 40) - this.offset);
    }
  }

  /** Sends whatever chunks are due by now (catching up if the loop was late). */
  tick(now: number): void {
    if (this.stopped || this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.#reqId) {
      this.#reqId = `u${this.#utterance++}-${Math.random().toString(36).slice(2, 8)}`;
      this.#start = now;
      this.#chunk = 0;
      this.#framesSeen = 0;
      this.#gotFirst = false;
    }
    const chunks = Math.ceil(this.audio.length / CHUNK_SAMPLES);
    while (this.#chunk < chunks && this.#start + this.#chunk * 20 <= now) {
      const pcm = this.audio.subarray(this.#chunk * CHUNK_SAMPLES, (this.#chunk + 1) * CHUNK_SAMPLES);
      this.#chunk++;
      const last = this.#chunk === chunks;
      this.ws.send(audioMessage(this.#reqId, pcm, last));
      if (last) this.#reqId = '';
    }
  }
}

async function mint(service: Service): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(`${service.url}/v1/console/session-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 3600 }),
    });
    const body = (await r.json()) as { sessionToken?: string };
    if (r.status === 200 && body.sessionToken) return body.sessionToken;
    // A process that just started may not reach Redis yet (503): retry briefly.
    if (attempt >= 20) throw new Error(`minting a token failed: HTTP ${r.status} ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface StepResult {
  mode: string;
  sessions: number;
  frames: number;
  latenessP50: number;
  latenessP99: number;
  firstFrameP50: number;
  firstFrameP99: number;
  cpuPerSession: number;
  rssPerSessionKb: number;
  errors: number;
  clientLagP99: number;
  /** Engine compute per second of audio, from the service's /metrics (cumulative). */
  engineCpuPerAudioSecond: number;
  /** 1-minute load average of the machine at the end of the step (other work competes for the cores). */
  loadAverage: number;
}

async function engineCpuPerAudioSecond(service: Service): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const match = /^avatar_drive_engine_cpu_seconds_per_audio_second\{[^}]*\} (\S+)$/m.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

async function runMode(mode: Mode, audio: Int16Array): Promise<StepResult[]> {
  const service = await startService(mode);
  const pid = service.child.pid!;
  const clients: BenchClient[] = [];
  const results: StepResult[] = [];
  let lagSamples: number[] = [];
  let lastTick = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    lagSamples.push(now - lastTick - 5);
    lastTick = now;
    for (const c of clients) c.tick(now);
  }, 5);
  try {
    // Calibrate the engine lookahead with one session.
    const calib: Stats = { lateness: [], firstFrame: [], errors: 0 };
    const one = new BenchClient(service, await mint(service), audio, calib, 0);
    await one.ready;
    clients.push(one);
    await new Promise((r) => setTimeout(r, 3000));
    one.stopped = true;
    one.ws.close();
    clients.length = 0;
    const lookahead = percentile(calib.lateness, 50);
    const baseline = await processStats(pid);
    for (const target of STEPS) {
      const stats: Stats = { lateness: [], firstFrame: [], errors: 0 };
      for (const c of clients) c.stopped = true;
      for (const c of clients) c.ws.close();
      clients.length = 0;
      await new Promise((r) => setTimeout(r, 500));
      // Ramp up, staggering starts over one second so utterances are not in lockstep.
      for (let i = 0; i < target; i++) {
        const client = new BenchClient(service, await mint(service), audio, stats, lookahead);
        await client.ready;
        clients.push(client);
        if (i % Math.max(1, Math.floor(target / 50)) === 0) await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 1500));
      stats.lateness.length = 0;
      stats.firstFrame.length = 0;
      lagSamples = [];
      const before = await processStats(pid);
      await new Promise((r) => setTimeout(r, HOLD_MS));
      const after = await processStats(pid);
      const result: StepResult = {
        mode,
        sessions: target,
        frames: stats.lateness.length,
        latenessP50: percentile(stats.lateness, 50),
        latenessP99: percentile(stats.lateness, 99),
        firstFrameP50: percentile(stats.firstFrame, 50),
        firstFrameP99: percentile(stats.firstFrame, 99),
        cpuPerSession: (after.cpu - before.cpu) / (HOLD_MS / 1000) / target,
        rssPerSessionKb: (after.rss - baseline.rss) / target / 1024,
        errors: stats.errors,
        clientLagP99: percentile(lagSamples, 99),
        engineCpuPerAudioSecond: await engineCpuPerAudioSecond(service),
        loadAverage: loadavg()[0]!,
      };
      results.push(result);
      report(result);
      if (result.latenessP99 > 200 || result.errors > target / 10) break;
    }
  } finally {
    clearInterval(ticker);
    for (const c of clients) {
      c.stopped = true;
      c.ws.terminate();
    }
    await service.stop();
  }
  return results;
}

function report(r: StepResult): void {
  if (values.json) return;
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
  console.log(
    `${r.mode.padEnd(8)} ${String(r.sessions).padStart(5)} sessions  frames ${String(r.frames).padStart(7)}  ` +
      `lateness p50 ${f(r.latenessP50)} p99 ${f(r.latenessP99)} ms  first frame p50 ${f(r.firstFrameP50)} p99 ${f(r.firstFrameP99)} ms  ` +
      `CPU/session ${(r.cpuPerSession * 100).toFixed(2)}% of a core  RSS/session ${f(r.rssPerSessionKb)} KiB  errors ${r.errors}  client lag p99 ${f(r.clientLagP99)} ms  engine ${(r.engineCpuPerAudioSecond * 1000).toFixed(2)} ms CPU per audio s  load ${r.loadAverage.toFixed(1)}`,
  );
}

const audio = await speech();
console.log(
  `service bench on ${cpus().length} cores (load average ${loadavg()[0]!.toFixed(1)}): ${(audio.length / SAMPLE_RATE).toFixed(1)} s utterances at ${SAMPLE_RATE} Hz in 20 ms chunks, steps ${STEPS.join(', ')}, ${HOLD_MS / 1000} s each`,
);
const all: StepResult[] = [];
for (const mode of MODES) all.push(...(await runMode(mode, audio)));
if (values.json) console.log(JSON.stringify(all, null, 2));
for (const mode of MODES) {
  const ok = all.filter((r) => r.mode === mode && r.latenessP99 < 40 && r.errors === 0);
  const best = ok.at(-1);
  console.log(
    `${mode}: most sessions held with p99 frame lateness < 40 ms: ${best ? best.sessions : 'none of the steps'}` +
      (best
        ? ` (first frame p50 ${best.firstFrameP50.toFixed(0)} ms, p99 ${best.firstFrameP99.toFixed(0)} ms)`
        : ''),
  );
}
process.exit(0);
