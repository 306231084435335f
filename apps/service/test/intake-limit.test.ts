/**
 * One session's audio intake is capped at a multiple of real time by pausing its socket (the data
 * is kept, in order, and processed later): a greedy client sending audio as fast as the socket
 * takes it, against the real service, is held near the cap; with the cap off (factor 0, what the
 * service did before), the same client gets tens of times more in. Every chunk the client managed
 * to send is still processed (no data dropped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';

const FACTOR = 8;
const WINDOW_MS = 500;
/** Audio the greedy client sends, as fast as its socket takes it. */
const AUDIO_MS = 40_000;

let limited: RunningService;
let unlimited: RunningService;
beforeAll(async () => {
  const avatarsDir = await makeAvatarsDir();
  const limits = { intakeWindowMs: WINDOW_MS };
  limited = await startTestService({
    avatarsDir,
    standIn: true,
    limits: { ...limits, maxIntakeRealtimeFactor: FACTOR },
  });
  unlimited = await startTestService({
    avatarsDir,
    standIn: true,
    limits: { ...limits, maxIntakeRealtimeFactor: 0 },
  });
});
afterAll(async () => {
  await limited?.close();
  await unlimited?.close();
});

/** Sends AUDIO_MS in 200 ms chunks flat out, then the end; resolves with the time until the last frame. */
async function greedy(service: RunningService): Promise<{ elapsedMs: number; frames: number }> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(16000);
  await client.confirmed();
  const chunk = tone(200);
  const started = Date.now();
  for (let sent = 0; sent < AUDIO_MS; sent += 200) {
    while (client.ws.bufferedAmount > 256 * 1024) await sleep(5);
    client.audio('r1', chunk);
  }
  client.audio('r1', new Int16Array(0), true);
  await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 60_000);
  const elapsedMs = Date.now() - started;
  const frames = animations(client, 'r1').reduce((n, a) => n + (a.animation?.keyframes.length ?? 0), 0);
  client.close();
  await client.closed;
  return { elapsedMs, frames };
}

describe('intake rate limit', () => {
  it(`holds a greedy client to ${FACTOR}× real time and processes all it sent`, {
    timeout: 60_000,
  }, async () => {
    const capped = await greedy(limited);
    const free = await greedy(unlimited);
    const rate = (r: { elapsedMs: number }) => AUDIO_MS / r.elapsedMs;
    console.log(
      `[intake] ${AUDIO_MS / 1000} s of audio sent flat out: capped at ${FACTOR}× → taken in at ${rate(capped).toFixed(1)}× real time (${capped.elapsedMs} ms); uncapped → ${rate(free).toFixed(1)}× (${free.elapsedMs} ms)`,
    );
    // Over any interval T at most factor × (window + T) gets in, give or take one socket read
    // (at most 64 KiB, 2 s of 16 kHz audio).
    expect(AUDIO_MS).toBeLessThanOrEqual(FACTOR * (WINDOW_MS + capped.elapsedMs) + 2048);
    // The same client without the cap is taken in far faster.
    expect(free.elapsedMs).toBeLessThan(capped.elapsedMs / 2);
    // Nothing dropped: every 40 ms of audio became a frame, capped or not.
    expect(capped.frames).toBe(AUDIO_MS / 40);
    expect(free.frames).toBe(AUDIO_MS / 40);
  });
});
