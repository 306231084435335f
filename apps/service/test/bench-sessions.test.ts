/**
 * The service bench's two clients against the real service on loopback: the raw client (its own
 * handshake and framing) must see what the ws client sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BenchSession,
  newStats,
  type SessionOptions,
  type SessionStats,
} from '../bench/bench-session.js';
import { audioTemplates, configureMessage, framedTemplates } from '../bench/drive-messages.js';
import { RawBenchSession } from '../bench/raw-session.js';
import { clientFrame, OPCODE_BINARY } from '../bench/websocket-frames.js';
import { WsBenchSession } from '../bench/ws-session.js';
import type { RunningService } from '../src/service.js';
import {
  APP_ID,
  AVATAR_ID,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  tone,
} from './support/harness.js';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    standIn: true,
    // Pings every 100 ms, and a peer that misses one pong is dropped: the sessions must answer.
    limits: { pingIntervalMs: 100 },
  });
});
afterAll(async () => {
  await service?.close();
});

/** 400 ms utterances: 20 chunks of 20 ms, 10 frames at 25 fps. */
const audio = audioTemplates(tone(400, 16000), 320);
const configure = configureMessage(16000);

function open(kind: 'raw' | 'ws', token: string, s: SessionStats, target = service): BenchSession {
  const options: SessionOptions =
    kind === 'raw'
      ? {
          audio: framedTemplates(audio),
          configure: clientFrame(OPCODE_BINARY, configure),
          stats: s,
          offset: 0,
          expectedFrames: 10,
          confirmTimeoutMs: 5000,
        }
      : { audio, configure, stats: s, offset: 0, expectedFrames: 10, confirmTimeoutMs: 5000 };
  const { port } = new URL(target.url);
  const headers = { 'X-App-ID': APP_ID, 'X-Session-Key': token };
  const path = `/v2/driveningress?id=${AVATAR_ID}`;
  return kind === 'raw'
    ? new RawBenchSession({ host: '127.0.0.1', port: Number(port), path, headers }, options)
    : new WsBenchSession(`ws://127.0.0.1:${port}${path}`, headers, options);
}

/** Streams with a 5 ms pacing timer, as the bench does, until `utterances` have ended. */
async function drive(sessions: BenchSession[], all: SessionStats[], utterances: number): Promise<void> {
  const ticker = setInterval(() => {
    const now = performance.now();
    for (const s of sessions) s.tick(now);
  }, 5);
  try {
    const until = Date.now() + 10_000;
    while (all.some((s) => s.utteranceFrames.length < utterances) && Date.now() < until) await sleep(20);
  } finally {
    clearInterval(ticker);
  }
}

describe('bench sessions', () => {
  it.each(['raw', 'ws'] as const)(
    '%s: every utterance gets its 10 frames, timed, then end; pings are answered',
    async (kind) => {
      const all = [newStats(), newStats()];
      const sessions = await Promise.all(
        all.map(async (s) => {
          const session = open(kind, await mintToken(service), s);
          await session.ready;
          return session;
        }),
      );
      await drive(sessions, all, 3);
      for (const s of all) {
        expect(s.errors).toBe(0);
        expect(s.incomplete).toBe(0);
        expect([...s.utteranceFrames.values()]).toEqual(Array(s.utteranceFrames.length).fill(10));
        // One first-frame time per utterance, and every frame timed against its own utterance: frame
        // k needs chunk 2k+1, sent no earlier than (k+1)·40 − 20 ms after the utterance began.
        expect(s.firstFrame.length).toBeGreaterThanOrEqual(3);
        expect(s.lateness.length).toBeGreaterThanOrEqual(30);
        expect(s.lateness.percentile(0)).toBeGreaterThanOrEqual(-20);
      }
      for (const session of sessions) session.close();
      await sleep(100);
      expect(all.map((s) => s.errors)).toEqual([0, 0]); // closing is no error
    },
  );

  it.each(['raw', 'ws'] as const)(
    '%s: a refused upgrade fails the session with the HTTP status',
    async (kind) => {
      const token = await mintToken(service);
      const first = open(kind, token, newStats());
      await first.ready;
      const second = open(kind, token, newStats()); // tokens are single-use
      await expect(second.ready).rejects.toThrow(/401/);
      first.close();
    },
  );

  it('raw: a session the service closes counts as an error', async () => {
    const own = await startTestService({ avatarsDir: await makeAvatarsDir(), standIn: true });
    const s = newStats();
    const session = open('raw', await mintToken(own), s, own);
    await session.ready;
    // Closing the service closes its live sessions from the service side.
    await own.close();
    const until = Date.now() + 5000;
    while (s.errors === 0 && Date.now() < until) await sleep(20);
    await sleep(50);
    // The close, and the ServerError the service may send before it.
    expect(s.errors).toBeGreaterThanOrEqual(1);
    expect(s.errors).toBeLessThanOrEqual(2);
    session.terminate();
  });
});
