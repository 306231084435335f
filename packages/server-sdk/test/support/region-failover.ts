/**
 * The region-failover scenario shared by the test and the bench: a Host-mode conversation on the
 * primary region, the primary's service (and its Redis) killed mid-utterance, the conversation
 * continued on the backup region by the same AvatarSession.
 */
import type { AvatarError } from '@avatar-drive/core';
import type { TestRedis } from '../../../../apps/service/test/support/redis-server.js';
import { AvatarSession, type RelayEvent, type SessionState } from '../../src/index.js';
import { AVATAR_ID, type ServiceFixtures, type ServiceProcess, sleep, tone } from './service-process.js';

export interface FailoverRun {
  /** The session's region before and after. */
  regions: [string, string | undefined];
  /** The utterance open when the primary died. */
  inFlight: string;
  /** The utterance sent on the backup. */
  continued: string;
  events: RelayEvent[];
  errors: AvatarError[];
  states: SessionState[];
  /** From the kill to the session being connected again (ms). */
  killToConnectedMs: number;
  /** From the kill to the first animation of the next utterance, sent as soon as connected (ms). */
  killToFirstFrameMs: number;
  /** The connection attempts after the kill: region, start (ms after the kill), error code. */
  retries: Array<{ region: string; atMs: number; error?: string }>;
  /** When the session saw the drop (ms after the kill). */
  dropAtMs: number;
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/**
 * Runs the scenario. `signal` is how the primary's service dies (SIGKILL: a crash; SIGTERM: an
 * orderly shutdown that closes sessions with 4503); `primaryRedis`, when given, is killed with it.
 */
export async function regionFailover(options: {
  fixtures: ServiceFixtures;
  primary: ServiceProcess;
  backup: ServiceProcess;
  primaryRedis?: TestRedis;
  signal: 'SIGKILL' | 'SIGTERM';
}): Promise<FailoverRun> {
  const { fixtures, primary, backup } = options;
  const events: RelayEvent[] = [];
  const errors: AvatarError[] = [];
  const states: SessionState[] = [];
  let dropAt = 0;
  const session = new AvatarSession({
    avatarId: AVATAR_ID,
    appId: fixtures.appId,
    apiKey: fixtures.apiKey,
    sampleRate: 16000,
    regions: {
      'ap-northeast': { consoleUrl: primary.url, ingressUrl: primary.ingressUrl },
      'us-west': { consoleUrl: backup.url, ingressUrl: backup.ingressUrl },
    },
    reconnect: { initialDelayMs: 50, maxDelayMs: 400 },
    onError: (e) => {
      errors.push(e);
    },
    onStateChange: (to) => {
      states.push(to);
      if (to === 'reconnecting') dropAt = performance.now();
    },
  });
  session.relay().on('event', (e) => events.push(e));
  const animated = (id: string, last = false) =>
    events.some((e) => e.type === 'animation' && e.conversationId === id && (!last || e.last));
  try {
    await session.start();
    const before = session.region!;
    const firstId = session.connectionId;

    // A whole utterance, then one still being spoken when the region dies.
    const first = session.sendAudio(tone(400), true);
    await until(() => animated(first, true), 'the first utterance');
    const inFlight = session.sendAudio(tone(600));
    await until(() => animated(inFlight), 'the in-flight utterance');

    const t0 = performance.now();
    const t0Epoch = Date.now();
    const attemptsBefore = session.attempts.length;
    options.primary.child.kill(options.signal);
    await options.primaryRedis?.kill();
    await until(() => session.state === 'connected' && session.connectionId !== firstId, 'the reconnect');
    const t1 = performance.now();
    // The turn that was in flight died with region A; the next reply is a new turn.
    session.startTurn();
    const continued = session.sendAudio(tone(400), true);
    await until(() => animated(continued), 'the next utterance on the backup');
    const t2 = performance.now();
    await until(() => animated(continued, true), 'the end of the next utterance');
    return {
      regions: [before, session.region],
      inFlight,
      continued,
      // Copies: close() below adds its own states and events.
      events: [...events],
      errors: [...errors],
      states: [...states],
      killToConnectedMs: t1 - t0,
      killToFirstFrameMs: t2 - t0,
      retries: session.attempts.slice(attemptsBefore).map((a) => ({
        region: a.region,
        atMs: a.startedAt - t0Epoch,
        ...(a.error && { error: a.error.code }),
      })),
      dropAtMs: dropAt - t0,
    };
  } finally {
    await session.close();
  }
}
