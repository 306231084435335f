import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';

let inline: RunningService;
let workers: RunningService;

beforeAll(async () => {
  const avatarsDir = await makeAvatarsDir();
  inline = await startTestService({ avatarsDir });
  workers = await startTestService({ avatarsDir, workers: 2 });
});
afterAll(async () => {
  await inline?.close();
  await workers?.close();
});

async function run(service: RunningService, sessions: number) {
  const clients = await Promise.all(
    Array.from({ length: sessions }, async () => {
      const c = await TestClient.open(service, await mintToken(service));
      c.configure(24000);
      await c.confirmed();
      return c;
    }),
  );
  const pcm = tone(500, 24000);
  for (let i = 0; i < pcm.length; i += 480) for (const c of clients) c.audio('u', pcm.subarray(i, i + 480));
  for (const c of clients) c.audio('u', new Int16Array(0), true);
  await Promise.all(
    clients.map((c) => c.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end)),
  );
  const result = clients.map((c) => animations(c, 'u').flatMap((a) => a.animation!.keyframes ?? []));
  for (const c of clients) c.close();
  return result;
}

describe('engine on worker threads', () => {
  it('reports its mode', () => {
    expect(workers.engine.mode).toBe('workers');
    expect(inline.engine.mode).toBe('inline');
  });

  it('sessions pinned to workers get the same frames, in the same order, as inline', async () => {
    const [expected] = await run(inline, 1);
    const results = await run(workers, 4);
    expect(expected!.length).toBe(13);
    for (const frames of results) {
      expect(frames.map((f) => f.expression)).toEqual(expected!.map((f) => f.expression));
    }
  });

  it('a worker that dies fails its sessions with 4503 and is replaced', async () => {
    // The stand-in driver has a hook that kills its thread.
    const fragile = await startTestService({ avatarsDir: await makeAvatarsDir(), workers: 1, standIn: true });
    try {
      await crashAndRecover(fragile);
    } finally {
      await fragile.close();
    }
  });
});

async function crashAndRecover(workers: RunningService): Promise<void> {
  const victim = await TestClient.open(workers, await mintToken(workers));
  victim.configure(16000);
  await victim.confirmed();
  const poison = tone(40);
  poison[0] = -32768;
  poison[1] = -32768;
  victim.audio('boom', poison);
  const error = await victim.waitFor((m) => m.data.case === 'serverError', 10_000);
  expect(error.data.case === 'serverError' && error.data.value.code).toBe(4503);
  expect((await victim.closed).code).toBe(4503);
  // New sessions still work (the pool respawned the worker).
  const results = await run(workers, 2);
  expect(results.every((frames) => frames.length === 13)).toBe(true);
}
