/**
 * `node --import tsx bench/hardening.ts [--only slots,slowloris,rtc,greedy]`: the figures behind the
 * hardening limits (docs/benchmarks.md), each measured the way the attack run caused it, against
 * the real service over loopback.
 *
 * - slots: 500 upgrades with valid tokens that ws refuses or the client abandons (9 kinds, 25 at a
 *   time); the app's slot count afterwards and whether a new session still opens.
 * - slowloris: 300 connections trickling header lines (one per socket every 2 s); how many are
 *   still open after 15 s (default 10 s header timeout).
 * - rtc: one client whose livekit_egress.url points at a server that accepts and never answers,
 *   sending audio flat out for 5 s; MiB it got into the socket and the service process's RSS.
 * - greedy: 4 clients sending audio flat out for 12 s beside one client speaking 2 s utterances
 *   in real time, on the real engine, with the intake cap off (factor 0, the old behaviour) and
 *   on (default 4×) in the same run: the service's audio intake rate, /healthz p50 and the
 *   real-time client's utterance time (first chunk sent → last frame back).
 */
import { connect, createServer, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { wire } from '@avatar-drive/core';
import type { RunningService } from '../src/service.js';
import {
  APP_ID,
  AVATAR_ID,
  DRIVER_MODULE,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  TestClient,
  tone,
} from '../test/support/harness.js';
import { startServiceProcess } from '../test/support/service-process.js';

const { values } = parseArgs({
  options: { only: { type: 'string', default: 'slots,slowloris,rtc,greedy' } },
});
const ONLY = new Set(values.only!.split(','));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

// ------------------------------------------------------------------ slots

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const BAD: { method?: string; over: Record<string, string | undefined>; leave?: 'end' | 'drop' }[] = [
  { over: { 'Sec-WebSocket-Key': undefined } },
  { over: { 'Sec-WebSocket-Key': 'short' } },
  { over: { 'Sec-WebSocket-Version': '12' } },
  { over: { 'Sec-WebSocket-Version': undefined } },
  { over: { Upgrade: 'h2c' } },
  { method: 'POST', over: { 'Content-Length': '0' } },
  { over: { 'Sec-WebSocket-Protocol': 'a, a' } },
  { over: {}, leave: 'end' },
  { over: {}, leave: 'drop' },
];

async function badUpgrade(service: RunningService, token: string, kind: (typeof BAD)[number]): Promise<void> {
  const socket: Socket = connect(Number(new URL(service.url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const headers: Record<string, string | undefined> = {
    Host: '127.0.0.1',
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': KEY,
    'X-App-ID': APP_ID,
    'X-Session-Key': token,
    ...kind.over,
  };
  const lines = Object.entries(headers)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`${kind.method ?? 'GET'} /v2/driveningress?id=${AVATAR_ID} HTTP/1.1\r\n${lines}\r\n`);
  if (kind.leave === 'end') socket.end();
  if (kind.leave === 'drop') socket.destroy();
  const timer = setTimeout(() => socket.destroy(), 5000);
  await closed;
  clearTimeout(timer);
}

async function slots(avatarsDir: string): Promise<void> {
  const service = await startTestService({
    avatarsDir,
    standIn: true,
    limits: { maxConcurrentSessionsPerApp: 500, tokenRateLimit: 100_000 },
  });
  const started = performance.now();
  for (let i = 0; i < 500; i += 25) {
    const tokens = await Promise.all(Array.from({ length: 25 }, () => mintToken(service)));
    await Promise.all(tokens.map((t, k) => badUpgrade(service, t, BAD[(i + k) % BAD.length]!)));
  }
  const elapsed = performance.now() - started;
  await sleep(1000);
  const count = await service.store.sessionCount(APP_ID);
  let outcome = 'opens';
  try {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000);
    await client.confirmed();
    client.close();
  } catch (error) {
    outcome = `refused (${(error as Error).message.slice(0, 60)})`;
  }
  console.log(
    `slots: 500 refused/abandoned upgrades in ${(elapsed / 1000).toFixed(1)} s → ${count} of 500 slots taken; a new session ${outcome}`,
  );
  await service.close();
}

// ------------------------------------------------------------------ slowloris

async function slowloris(avatarsDir: string): Promise<void> {
  const service = await startTestService({ avatarsDir, standIn: true });
  const port = Number(new URL(service.url).port);
  const sockets: { socket: Socket; closed: boolean }[] = [];
  for (let i = 0; i < 300; i++) {
    const socket = connect(port, '127.0.0.1');
    const held = { socket, closed: false };
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.once('close', () => {
      held.closed = true;
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    sockets.push(held);
  }
  const drip = setInterval(() => {
    for (const h of sockets) if (!h.closed) h.socket.write(`X-${Date.now()}: 1\r\n`);
  }, 2000);
  await sleep(15_000);
  clearInterval(drip);
  const open = sockets.filter((h) => !h.closed).length;
  console.log(`slowloris: 300 sockets trickling headers → ${open} still open after 15 s`);
  for (const h of sockets) h.socket.destroy();
  await service.close();
}

// ------------------------------------------------------------------ rtc

async function rtc(avatarsDir: string): Promise<void> {
  const held: Socket[] = [];
  const hole = createServer((s) => {
    held.push(s);
    s.on('error', () => undefined);
    s.resume();
  });
  await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
  const holePort = (hole.address() as { port: number }).port;
  const service = await startServiceProcess({
    avatarsDir,
    args: ['--livekit-hosts', `127.0.0.1:${holePort}`],
  });
  const client = await TestClient.open(service, await mintToken(service));
  const before = await service.rssMiB();
  client.configure(16000, {
    egressType: wire.EgressType.LIVEKIT,
    livekitEgress: {
      url: `ws://127.0.0.1:${holePort}`,
      apiKey: 'k',
      apiSecret: 's',
      roomName: 'r',
      publisherId: 'a',
    },
  });
  const chunk = tone(200);
  let queued = 0;
  let peak = before;
  const started = Date.now();
  while (Date.now() - started < 5000 && client.ws.readyState === client.ws.OPEN) {
    while (client.ws.bufferedAmount < 4 * 1024 * 1024) {
      client.audio('r1', chunk);
      queued += chunk.byteLength + 8;
    }
    await sleep(20);
    peak = Math.max(peak, await service.rssMiB());
  }
  const delivered = (queued - client.ws.bufferedAmount) / 1024 / 1024;
  console.log(
    `rtc: audio flat out for 5 s into a never-answering egress → ${delivered.toFixed(1)} MiB into the socket; service RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`,
  );
  client.ws.terminate();
  await service.stop();
  for (const s of held) s.destroy();
  hole.close();
}

// ------------------------------------------------------------------ greedy

async function greedyRun(avatarsDir: string, factor: number, greedyCount: number) {
  const service = await startServiceProcess({
    avatarsDir,
    args: ['--engine-module', DRIVER_MODULE],
    env: { AVATAR_DRIVE_MAX_INTAKE_REALTIME_FACTOR: String(factor), AVATAR_DRIVE_TOKEN_RATE_LIMIT: '100000' },
  });
  const stop = { now: false };
  let greedyAudioMs = 0;
  const greedy = Array.from({ length: greedyCount }, async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000);
    await client.confirmed();
    const chunk = tone(200);
    const req = 0;
    while (!stop.now) {
      for (let i = 0; i < 25 && client.ws.bufferedAmount < 256 * 1024; i++) client.audio(`g${req}`, chunk);
      await sleep(5);
      if (client.inbox.length > 2000) client.inbox.length = 0;
    }
    client.ws.terminate();
    return client;
  });
  const health: number[] = [];
  const probe = (async () => {
    while (!stop.now) {
      const t = performance.now();
      await (await fetch(`${service.url}/healthz`)).text();
      health.push(performance.now() - t);
      await sleep(100);
    }
  })();
  await sleep(1000);
  const speaker = await TestClient.open(service, await mintToken(service));
  speaker.configure(16000);
  await speaker.confirmed();
  const utterances: number[] = [];
  const rssBefore = await service.rssMiB();
  const started = performance.now();
  for (let u = 0; u < 4; u++) {
    const reqId = `u${u}`;
    const t0 = performance.now();
    const chunk = tone(20);
    for (let i = 0; i < 100; i++) {
      speaker.audio(reqId, chunk, i === 99);
      const due = t0 + (i + 1) * 20;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
    }
    await speaker.waitFor(
      (m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === reqId && m.data.value.end,
      60_000,
    );
    utterances.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  stop.now = true;
  await probe;
  await Promise.all(greedy);
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  greedyAudioMs =
    1000 *
    Number(/^avatar_drive_audio_seconds_processed_total\S*\s+([\d.e+]+)/m.exec(metrics)?.[1] ?? Number.NaN);
  speaker.close();
  const rss = await service.rssMiB();
  await service.stop();
  return {
    health: median(health),
    utterance: median(utterances),
    utterances,
    audioRate: greedyAudioMs / (elapsed + 1000),
    rssBefore,
    rss,
  };
}

async function greedy(avatarsDir: string): Promise<void> {
  for (const [label, factor, count] of [
    ['no greedy client', 4, 0],
    ['4 greedy, cap off (old)', 0, 4],
    ['4 greedy, cap 4× (new)', 4, 4],
  ] as const) {
    const r = await greedyRun(avatarsDir, factor, count);
    console.log(
      `greedy: ${label.padEnd(24)} → engine audio in ${r.audioRate.toFixed(1)}× real time; /healthz p50 ${r.health.toFixed(1)} ms; 2 s utterance took ${(r.utterance / 1000).toFixed(2)} s (median of ${r.utterances.map((u) => (u / 1000).toFixed(2)).join(', ')}); RSS ${r.rss.toFixed(0)} MiB`,
    );
  }
}

const avatarsDir = await makeAvatarsDir();
console.log(`hardening figures (${new Date().toISOString()})`);
if (ONLY.has('slots')) await slots(avatarsDir);
if (ONLY.has('slowloris')) await slowloris(avatarsDir);
if (ONLY.has('rtc')) await rtc(avatarsDir);
if (ONLY.has('greedy')) await greedy(avatarsDir);
process.exit(0);
