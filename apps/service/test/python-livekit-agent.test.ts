/**
 * Interop: a Python LiveKit agent with the commercial `livekit-plugins-spatius` avatar plugin
 * (installed by scripts/setup.sh into .venv, pinned in test/python/requirements.txt), pointed at
 * this service and the real LiveKit server. The plugin learns about playout only from the
 * avatar's `lk.playback_started` / `lk.playback_finished` RPCs, so `say()` completing proves the
 * egress speaks the LiveKit avatar contract. Its worker prewarm reuses one session token for every
 * job, which the app's `sequential` token policy allows.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findRepoRoot } from '../src/config.js';
import type { RunningService } from '../src/service.js';
import { API_SECRET, API_KEY as LIVEKIT_KEY } from './helpers/room-listener.js';
import {
  API_KEY,
  APP_ID,
  AVATAR_ID,
  LogCapture,
  makeAvatarsDir,
  startTestService,
} from './support/harness.js';

const run = promisify(execFile);
const python = process.env.AVATAR_DRIVE_PYTHON ?? join(findRepoRoot(import.meta.dirname), '.venv/bin/python');
const livekitUrl = inject('livekitUrl');
const log = new LogCapture();
let service: RunningService;
/** Stands in for the self-hoster's OTLP collector: counts what the SDK exports. */
let collector: Server;
const exported: string[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    exported.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    log,
    extra: { liveKitEgress: { allowedHosts: [livekitUrl] } },
  });
});
afterAll(async () => {
  await service?.close();
  collector?.close();
});

interface Finished {
  position: number;
  interrupted: boolean;
}
interface JobRecord {
  error?: string;
  say?: { seconds: number; completed_at_epoch_ms: number; finished: Finished | null };
  say_twice?: { elapsed_s: number; finished: Finished[] };
  interrupt?: {
    played_before_interrupt_s: number;
    reported_after_s: number | null;
    finished: Finished | null;
    handle_interrupted: boolean;
    interrupted_at_epoch_ms: number;
  };
}

async function runAgent(jobs: number): Promise<{ jobs: JobRecord[]; stderr: string }> {
  const { stdout, stderr } = await run(
    python,
    [
      join(import.meta.dirname, 'python/livekit_agent.py'),
      '--jobs',
      String(jobs),
      '--telemetry-endpoint',
      `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    ],
    {
      timeout: 150_000,
      maxBuffer: 32 * 1024 * 1024,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LIVEKIT_URL: livekitUrl,
        LIVEKIT_API_KEY: LIVEKIT_KEY,
        LIVEKIT_API_SECRET: API_SECRET,
        SPATIUS_API_KEY: API_KEY,
        SPATIUS_APP_ID: APP_ID,
        SPATIUS_AVATAR_ID: AVATAR_ID,
        SPATIUS_CONSOLE_ENDPOINT: `${service.url}/v1/console`,
        SPATIUS_INGRESS_ENDPOINT: service.ingressUrl,
      },
    },
  );
  const last = stdout.trim().split('\n').at(-1) ?? '{}';
  return { ...(JSON.parse(last) as { jobs: JobRecord[] }), stderr };
}

async function setPolicy(tokenUse: 'single' | 'sequential'): Promise<void> {
  const response = await fetch(`${service.url}/v1/console/token-policy`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ tokenUse }),
  });
  expect(response.status).toBe(200);
}

describe('Python LiveKit agent with livekit-plugins-spatius', () => {
  it('say() completes, two say() in a row play, an interrupt reports the played position, prewarm works under sequential', async () => {
    expect(existsSync(python), `${python} missing: run bash scripts/setup.sh`).toBe(true);
    await setPolicy('sequential');
    const { jobs, stderr } = await runAgent(2);
    const [first, second] = jobs;
    expect(first?.error, stderr.slice(-4000)).toBeUndefined();

    // say(): completes within 1 s of its audio's end, told by lk.playback_finished. The service
    // logs each request's end when its last audio left the avatar's track (same machine clock).
    const lines = log.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ends = lines.filter((l) => l.msg === 'request finished');
    const say = first!.say!;
    const lag = say.completed_at_epoch_ms - (ends[0]!.time as number);
    console.log(
      `[python agent] say() completed ${lag.toFixed(0)} ms after its audio left the avatar's track`,
    );
    expect(ends[0]!.state).toBe('ended');
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThan(1000);
    expect(say.finished).toEqual({ position: 1.5, interrupted: false });

    // Two say() in a row: both play (each reported finished, not interrupted).
    const twice = first!.say_twice!;
    expect(twice.finished).toEqual([
      { position: 1, interrupted: false },
      { position: 1, interrupted: false },
    ]);
    expect(twice.elapsed_s).toBeGreaterThan(1.9);

    // Interrupt: reported by the avatar with the position played (the plugin's own fallback would
    // report 0 after 2 s).
    const interrupt = first!.interrupt!;
    console.log(
      `[python agent] interrupt after ${interrupt.played_before_interrupt_s.toFixed(2)} s: reported at ${interrupt.finished?.position} s, ${interrupt.reported_after_s?.toFixed(3)} s later`,
    );
    expect(interrupt.handle_interrupted).toBe(true);
    expect(interrupt.finished?.interrupted).toBe(true);
    expect(interrupt.finished!.position).toBeGreaterThan(0.5);
    expect(interrupt.finished!.position).toBeLessThan(7.5);
    expect(interrupt.reported_after_s!).toBeLessThan(1.5);
    // The position is the service's own count of what left the avatar's track when it stopped.
    const cut = ends.find((l) => l.state === 'interrupted');
    expect(cut?.playedMs as number).toBeCloseTo(interrupt.finished!.position * 1000, 0);
    expect(cut!.time as number).toBeGreaterThanOrEqual(Math.floor(interrupt.interrupted_at_epoch_ms) - 5);

    // Prewarm: the second job reuses the process's prefetched token, which sequential allows.
    expect(second?.error, stderr.slice(-4000)).toBeUndefined();
    expect(second!.say!.finished).toEqual({ position: 1.5, interrupted: false });

    // The SDK's trace_context reaches the service's logs: every request line carries a trace id.
    const started = log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request started');
    expect(started.length).toBeGreaterThanOrEqual(5);
    for (const line of started) expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
    // Its telemetry went to the collector it was given (flushed at exit), nowhere else.
    expect(exported.some((path) => path === '/v1/traces')).toBe(true);
  }, 180_000);
});
