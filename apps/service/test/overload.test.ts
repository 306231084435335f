/**
 * Graceful overload, against the real service over real WebSockets: while the service's event
 * loop is made late (a busy loop in this process, which is the service's), new sessions get a
 * ServerError + close 4503 without their token being spent, /readyz answers 503 and the refusal
 * is counted; a session opened before keeps streaming; once the loop is free again, new sessions
 * (with the refused token) are accepted. Plus the guard alone (utilization trigger, hysteresis)
 * and its flags. And the capacity rule: with sessions that each cost a known share of the event
 * loop, a new session past the capacity estimated from that cost is refused the same way while
 * the open ones keep streaming, and taken once sessions have left.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OverloadGuard } from '../src/capacity/overload-guard.js';
import { resolveConfig } from '../src/config.js';
import type { DriverFactory } from '../src/engine-pool/engine-pool.js';
import type { RunningService } from '../src/service.js';
import {
  animations,
  type Json,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { createDriver as createStandInDriver } from './support/test-driver.js';

/** Blocks this thread for `busyMs` of every `periodMs` until stopped: a late event loop. */
function busyLoop(busyMs: number, periodMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + busyMs;
    while (performance.now() < until) {
      // spin
    }
  }, periodMs - busyMs);
  return () => clearInterval(timer);
}

/** Polls until `check` holds, at most `timeoutMs` (then fails with `what`). */
async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Opens and confirms a session, retrying (with the same, unspent token) while the node refuses it
 * with 4503, as a client with backoff would: a stall of a busy test machine can make the node
 * shed for a moment on its own.
 */
async function openAccepted(service: RunningService, token: string, attempts = 10): Promise<TestClient> {
  for (let attempt = 1; ; attempt++) {
    const client = await TestClient.open(service, token);
    client.configure(16000);
    const first = await client.waitFor(
      (m) => m.data.case === 'serverConfirmSession' || m.data.case === 'serverError',
    );
    if (first.data.case === 'serverConfirmSession') return client;
    const refusedForLoad = first.data.case === 'serverError' && first.data.value.code === 4503;
    if (!refusedForLoad || attempt === attempts) throw new Error(`not accepted: ${client.describe()}`);
    await until('a ready node', async () => (await readyStatus(service)).status === 200);
  }
}

async function readyStatus(service: RunningService): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${service.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Json };
}

async function metric(service: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

describe('overload: new sessions refused, open ones kept', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startTestService({
      avatarsDir: await makeAvatarsDir(),
      standIn: true,
      // Lateness only (utilization has its own test below); short windows keep the test short; no
      // CPU floor, as a busy test machine may give this process little CPU even while it spins.
      extra: { overload: { lagMs: 100, busyPercent: 0, minCpuCores: 0, windowMs: 200, calmWindows: 3 } },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('refuses with 4503 while the event loop is late, keeps streaming the open session, then accepts again', async () => {
    // A busy test machine can make the loop late on its own: start from a ready node.
    await until('a ready node', async () => (await readyStatus(service)).status === 200);
    const open = await openAccepted(service, await mintToken(service));
    const chunk = tone(20);
    open.audio('before', chunk);
    open.audio('before', chunk, true);
    await open.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    const refusedToken = await mintToken(service);

    const stop = busyLoop(250, 300);
    let refused: TestClient | undefined;
    try {
      await until('/readyz to turn 503', async () => (await readyStatus(service)).status === 503);
      const ready = await readyStatus(service);
      expect(ready.body.checks.load).toMatch(/^overloaded: refusing new sessions \(event loop p99 lateness/);

      refused = await TestClient.open(service, refusedToken);
      const closed = await refused.closed;
      expect(closed).toEqual({ code: 4503, reason: 'upstreamError' });
      const error = refused.inbox.find((m) => m.data.case === 'serverError');
      expect(error?.data.case).toBe('serverError');
      if (error?.data.case === 'serverError') {
        expect(error.data.value.code).toBe(4503);
        expect(error.data.value.message).toMatch(/^upstreamError: This node is at capacity/);
        expect(error.data.value.message).toMatch(/Retry with backoff/);
        expect(error.data.value.message).toMatch(/token was not spent/);
      }
      expect(refused.inbox.some((m) => m.data.case === 'serverConfirmSession')).toBe(false);

      // The session opened before keeps streaming: a new utterance during the overload is
      // animated to its end, and nothing closes it.
      const from = open.inbox.length;
      for (let i = 0; i < 10; i++) open.audio('during', chunk, i === 9);
      await open.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 20_000, from);
      expect(animations(open, 'during').reduce((n, a) => n + (a.animation?.keyframes.length ?? 0), 0)).toBe(
        5,
      );
      expect(open.ws.readyState).toBe(open.ws.OPEN);

      expect(await metric(service, 'avatar_drive_sessions_refused_overload_total')).toBeGreaterThanOrEqual(1);
      expect(await metric(service, 'avatar_drive_overloaded')).toBe(1);
      expect(await metric(service, 'avatar_drive_event_loop_lag_p99_seconds')).toBeGreaterThan(0.1);
    } finally {
      stop();
    }

    // Load gone: ready again after the calm windows, and the refused token still opens a session
    // (a client retrying with backoff; a transient stall on a busy test machine may cost a retry).
    await until('/readyz to turn 200', async () => (await readyStatus(service)).status === 200);
    const accepted = await openAccepted(service, refusedToken);
    accepted.audio('after', chunk, true);
    await accepted.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);

    // And the session that lived through the overload still works.
    const from = open.inbox.length;
    open.audio('later', chunk, true);
    await open.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 5000, from);
    accepted.close();
    open.close();
  });
});

/** The stand-in driver, made to cost `busyMs` of this thread per audio chunk (a known cost per session). */
function costlyDriver(busyMs: number): DriverFactory {
  return (options) => {
    const inner = createStandInDriver(options);
    return {
      ...inner,
      push(pcm) {
        const until = performance.now() + busyMs;
        while (performance.now() < until) {
          // spin
        }
        return inner.push(pcm);
      },
    };
  };
}

describe('capacity: new sessions refused at the estimate from the measured cost per session', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startTestService({
      avatarsDir: await makeAvatarsDir(),
      extra: {
        engine: { driverFactory: costlyDriver(1.2) },
        // The capacity rule alone. 12 sessions streaming 20 ms chunks cost 12 × 50 × 1.2 ms = 72 %
        // of the loop (more on a busy machine; at least half that if a busy machine delays the
        // test's sending timer), so at a 20 % target the estimate is at most 12 × 20 / 36 ≈ 6, and
        // at least 2 (a saturated loop). No CPU floor: a busy test machine may give this process
        // little CPU.
        // (lagMs and busyPercent both 0 would turn every rule off: a lateness threshold no loop reaches.)
        overload: {
          lagMs: 60_000,
          busyPercent: 0,
          frameLateMs: 0,
          targetBusyPercent: 20,
          minCpuCores: 0,
          windowMs: 200,
          capacityWindows: 2,
        },
      },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('refuses a new session at the estimated capacity, keeps the open ones streaming, then takes it once sessions left', async () => {
    const clients: TestClient[] = [];
    for (let i = 0; i < 12; i++) clients.push(await openAccepted(service, await mintToken(service)));
    const chunk = tone(20);
    let sent = 0;
    // Each session streams in real time: one 20 ms chunk per 20 ms, a new utterance every second.
    const streaming = setInterval(() => {
      const reqId = `u${Math.floor(sent / 50)}`;
      const end = sent % 50 === 49;
      for (const client of clients)
        if (client.ws.readyState === client.ws.OPEN) client.audio(reqId, chunk, end);
      sent++;
    }, 20);
    const refusedToken = await mintToken(service);
    try {
      await until('a capacity estimate under the 12 open sessions', async () => {
        const capacity = await metric(service, 'avatar_drive_estimated_session_capacity');
        return capacity >= 0 && capacity < 12;
      });
      const ready = await readyStatus(service);
      expect(ready.status).toBe(503);
      expect(ready.body.checks.load).toMatch(/12 sessions \(estimated capacity \d+\)/);

      const refused = await TestClient.open(service, refusedToken);
      expect(await refused.closed).toEqual({ code: 4503, reason: 'upstreamError' });
      const error = refused.inbox.find((m) => m.data.case === 'serverError');
      expect(error?.data.case === 'serverError' && error.data.value.message).toMatch(
        /^upstreamError: This node is at capacity.*Retry with backoff.*token was not spent/,
      );
      expect(refused.inbox.some((m) => m.data.case === 'serverConfirmSession')).toBe(false);
      expect(await metric(service, 'avatar_drive_sessions_refused_overload_total')).toBeGreaterThanOrEqual(1);
      expect(await metric(service, 'avatar_drive_overloaded')).toBe(1);

      // The open sessions keep streaming: each gets animation after the refusal, none is closed.
      const marks = clients.map((c) => c.inbox.length);
      await Promise.all(
        clients.map((c, i) => c.waitFor((m) => m.data.case === 'serverResponseAnimation', 10_000, marks[i])),
      );
      expect(clients.every((c) => c.ws.readyState === c.ws.OPEN)).toBe(true);
      expect(await metric(service, 'avatar_drive_frames_timed_total')).toBeGreaterThan(0);
    } finally {
      clearInterval(streaming);
    }

    // Sessions leave: the same token opens a session now (the estimate is at least 2).
    for (const client of clients.splice(1)) {
      client.close();
      await client.closed;
    }
    await until('/readyz to turn 200', async () => (await readyStatus(service)).status === 200);
    const accepted = await openAccepted(service, refusedToken);
    accepted.audio('after', chunk, true);
    await accepted.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    accepted.close();
    for (const client of clients) client.close();
  });
});

describe('OverloadGuard', () => {
  it('sheds on event-loop utilization, then recovers only after its calm windows', async () => {
    const changes: boolean[] = [];
    const guard = new OverloadGuard(
      { lagMs: 0, busyPercent: 60, minCpuCores: 0, windowMs: 100, calmWindows: 3 },
      (on) => changes.push(on),
    );
    try {
      expect(guard.enabled).toBe(true);
      const stop = busyLoop(90, 100);
      try {
        await until('the guard to shed', () => guard.shedding);
      } finally {
        stop();
      }
      expect(guard.reading.utilization).toBeGreaterThan(0.6);
      await until('the guard to recover', () => !guard.shedding);
      // The change was announced once each way, recovery after the calm windows.
      expect(changes.slice(0, 2)).toEqual([true, false]);
      expect(guard.reading.utilization).toBeLessThan(0.45);
    } finally {
      guard.close();
    }
  });

  it('does not shed when the process uses less CPU than its floor, however late its loop', async () => {
    // A floor above what this machine has: the late, busy loop below is never this process's own overload.
    const guard = new OverloadGuard({ lagMs: 20, busyPercent: 50, minCpuCores: 64, windowMs: 100 });
    const stop = busyLoop(90, 100);
    try {
      await until('eight windows measured', () => guard.windows >= 8);
      expect(guard.reading.lagP99Ms).toBeGreaterThan(20);
      expect(guard.shedding).toBe(false);
    } finally {
      stop();
      guard.close();
    }
  });

  it('is off when both thresholds are 0', () => {
    const guard = new OverloadGuard({ lagMs: 0, busyPercent: 0 });
    expect(guard.enabled).toBe(false);
    expect(guard.shedding).toBe(false);
    guard.close();
  });

  it('reads its thresholds from flags and environment (flags win)', async () => {
    const apps = JSON.stringify([{ appId: 'app_x', apiKeyHashes: [] }]);
    const env = {
      AVATAR_DRIVE_APPS: apps,
      AVATAR_DRIVE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64url'),
      AVATAR_DRIVE_OVERLOAD_LAG_MS: '80',
      AVATAR_DRIVE_OVERLOAD_BUSY_PERCENT: '90',
    };
    const fromEnv = await resolveConfig([], env);
    if ('help' in fromEnv) throw new Error('unexpected help');
    expect(fromEnv.options.overload).toEqual({ lagMs: 80, busyPercent: 90 });
    const fromFlags = await resolveConfig(['--overload-lag-ms', '0', '--overload-busy-percent', '0'], env);
    if ('help' in fromFlags) throw new Error('unexpected help');
    expect(fromFlags.options.overload).toEqual({ lagMs: 0, busyPercent: 0 });
    await expect(resolveConfig(['--overload-busy-percent', '150'], env)).rejects.toThrow(/0 … 100/);
  });
});
