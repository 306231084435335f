import { SUPPORTED_SAMPLE_RATES, wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  states,
  TestClient,
  tone,
} from './support/harness.js';

const { PlaybackState } = wire;
let service: RunningService;

beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    limits: { maxMessageBytes: 64 * 1024, pauseTimeoutMs: 400 },
  });
});
afterAll(async () => {
  await service?.close();
});

async function session(sampleRate = 16000): Promise<TestClient> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(sampleRate);
  await client.confirmed();
  return client;
}

/** Streams `ms` of audio in 20 ms chunks, `realTime` paced or as fast as possible, then end. */
async function stream(
  client: TestClient,
  reqId: string,
  ms: number,
  options: { realTime?: boolean; end?: boolean; sampleRate?: number } = {},
) {
  const sampleRate = options.sampleRate ?? 16000;
  const pcm = tone(ms, sampleRate);
  const chunk = (sampleRate * 20) / 1000;
  for (let i = 0; i < pcm.length; i += chunk) {
    client.audio(reqId, pcm.subarray(i, i + chunk));
    if (options.realTime) await sleep(20);
  }
  if (options.end !== false) client.audio(reqId, new Int16Array(0), true);
}

/**
 * An interrupted request still gets exactly one `end`: an empty ServerResponseAnimation with
 * end = true, its last animation message, sent just before its INTERRUPTED state.
 */
function expectFinalEnd(client: TestClient, reqId: string) {
  const anims = animations(client, reqId);
  expect(anims.filter((a) => a.end)).toHaveLength(1);
  expect(anims.at(-1)!.end).toBe(true);
  expect(anims.at(-1)!.animation?.keyframes ?? []).toHaveLength(0);
  const at = (pick: (m: (typeof client.inbox)[number]) => boolean) => client.inbox.findIndex(pick);
  const endAt = at(
    (m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === reqId && m.data.value.end,
  );
  const interruptedAt = at(
    (m) =>
      m.data.case === 'serverPlaybackState' &&
      m.data.value.reqId === reqId &&
      m.data.value.state === PlaybackState.INTERRUPTED,
  );
  expect(interruptedAt).toBe(endAt + 1);
}

describe('session flow', () => {
  it('confirms with connection_id and both capabilities', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000);
    const confirm = await client.confirmed();
    expect(confirm.connectionId).toMatch(/^conn_/);
    expect(confirm.capabilities).toEqual(['playback_control', 'playback_state']);
    client.close();
  });

  it('streams animation back in order, the last with end=true, then reports PLAYING and ENDED', async () => {
    const client = await session();
    const startedAt = Date.now();
    await stream(client, 'r1', 400);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.ENDED,
    );
    const elapsed = Date.now() - startedAt;
    const anims = animations(client, 'r1');
    const frames = anims.flatMap((a) => a.animation?.keyframes ?? []);
    expect(frames.length).toBe(10); // 400 ms at 25 fps
    expect(anims.at(-1)!.end).toBe(true);
    expect(anims.slice(0, -1).every((a) => !a.end)).toBe(true);
    expect(anims.every((a) => a.avatarId === 'test-avatar' && a.connectionId)).toBe(true);
    expect(frames[0]!.expression).toHaveLength(52);
    const s = states(client, 'r1');
    expect(s.map((x) => x.state)).toEqual([PlaybackState.PLAYING, PlaybackState.ENDED]);
    expect(Number(s[1]!.playedMs)).toBe(400);
    // ENDED comes when the audio would have finished playing in real time.
    expect(elapsed).toBeGreaterThanOrEqual(390);
    // PLAYING precedes the first animation; ENDED follows the end animation.
    const order = client.inbox.map((m) => m.data.case);
    expect(order.indexOf('serverPlaybackState')).toBeLessThan(order.indexOf('serverResponseAnimation'));
    expect(order.lastIndexOf('serverPlaybackState')).toBeGreaterThan(
      order.lastIndexOf('serverResponseAnimation'),
    );
    client.close();
  });

  it('accepts each of the 7 sample rates', async () => {
    for (const rate of SUPPORTED_SAMPLE_RATES) {
      const client = await session(rate);
      await stream(client, `rate-${rate}`, 80, { sampleRate: rate });
      const end = await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
      expect(end.data.case).toBe('serverResponseAnimation');
      expect(animations(client).flatMap((a) => a.animation?.keyframes ?? [])).toHaveLength(2);
      client.close();
    }
  });

  it('queues a request sent while the previous one still plays', async () => {
    const client = await session();
    await stream(client, 'a', 200);
    await stream(client, 'b', 200);
    await client.waitFor(
      (m) =>
        m.data.case === 'serverPlaybackState' &&
        m.data.value.reqId === 'b' &&
        m.data.value.state === PlaybackState.ENDED,
    );
    expect(states(client).map((s) => `${s.reqId}:${PlaybackState[s.state]}`)).toEqual([
      'a:PLAYING',
      'a:ENDED',
      'b:PLAYING',
      'b:ENDED',
    ]);
    client.close();
  });

  it('ignores DrivenIngressConfig', async () => {
    const client = await session();
    client.send({ type: wire.MessageType.CLIENT_DRIVEN_CONFIG, data: { case: 'drivenConfig', value: {} } });
    await stream(client, 'x', 40);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    expect(client.inbox.some((m) => m.data.case === 'serverError')).toBe(false);
    client.close();
  });
});

describe('interrupt, pause, resume', () => {
  it('interrupt stops the request output at once and reports INTERRUPTED (explicit)', async () => {
    const client = await session();
    await stream(client, 'talk', 200, { end: false });
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation');
    client.control('interrupt', 'talk');
    const s = await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.INTERRUPTED,
    );
    expect(s.data.case === 'serverPlaybackState' && s.data.value.reason).toBe('explicit');
    const count = animations(client, 'talk').length;
    // Audio still in flight for the interrupted request is dropped: no more animation for it.
    await stream(client, 'talk', 200);
    await stream(client, 'next', 40);
    await client.waitFor(
      (m) => m.data.case === 'serverResponseAnimation' && m.data.value.reqId === 'next' && m.data.value.end,
    );
    expect(animations(client, 'talk')).toHaveLength(count);
    expectFinalEnd(client, 'talk');
    client.close();
  });

  it('a new request preempts one whose input has not ended', async () => {
    const client = await session();
    await stream(client, 'old', 100, { end: false });
    await stream(client, 'new', 40);
    await client.waitFor(
      (m) =>
        m.data.case === 'serverPlaybackState' &&
        m.data.value.reqId === 'new' &&
        m.data.value.state === PlaybackState.ENDED,
    );
    const old = states(client, 'old');
    expect(old.map((s) => PlaybackState[s.state])).toEqual(['PLAYING', 'INTERRUPTED']);
    expect(old[1]!.reason).toBe('preempted');
    expectFinalEnd(client, 'old');
    client.close();
  });

  it('acknowledges pause and resume with exactly one state each; played_ms excludes paused time', async () => {
    const client = await session();
    await stream(client, 'p', 1000);
    await sleep(200);
    const before = client.inbox.length;
    client.control('pause', 'p');
    const paused = await client.waitFor((m) => m.data.case === 'serverPlaybackState', 2000, before);
    expect(paused.data.case === 'serverPlaybackState' && paused.data.value.state).toBe(PlaybackState.PAUSED);
    const playedAtPause = Number(paused.data.case === 'serverPlaybackState' && paused.data.value.playedMs);
    expect(playedAtPause).toBeGreaterThanOrEqual(150);
    expect(playedAtPause).toBeLessThan(600);
    await sleep(300);
    const mid = client.inbox.length;
    client.control('pause', 'p'); // a second pause is acknowledged too, time did not move
    const again = await client.waitFor((m) => m.data.case === 'serverPlaybackState', 2000, mid);
    expect(again.data.case === 'serverPlaybackState' && Number(again.data.value.playedMs)).toBe(
      playedAtPause,
    );
    const beforeResume = client.inbox.length;
    client.control('resume', 'p');
    const resumed = await client.waitFor((m) => m.data.case === 'serverPlaybackState', 2000, beforeResume);
    expect(resumed.data.case === 'serverPlaybackState' && resumed.data.value.state).toBe(
      PlaybackState.PLAYING,
    );
    const ended = await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.ENDED,
    );
    expect(ended.data.case === 'serverPlaybackState' && Number(ended.data.value.playedMs)).toBe(1000);
    // PLAYING, PAUSED, PAUSED, PLAYING (resume ack), ENDED: one message per operation.
    expect(states(client, 'p').map((s) => PlaybackState[s.state])).toEqual([
      'PLAYING',
      'PAUSED',
      'PAUSED',
      'PLAYING',
      'ENDED',
    ]);
    client.close();
  });

  it('pausing an ended request acknowledges ENDED', async () => {
    const client = await session();
    await stream(client, 'done', 40);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.ENDED,
    );
    client.control('pause', 'done');
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.ENDED,
      2000,
      client.inbox.length,
    );
    expect(states(client, 'done').map((s) => PlaybackState[s.state])).toEqual(['PLAYING', 'ENDED', 'ENDED']);
    client.close();
  });

  it('a pause held past the limit interrupts the request (pause_timeout)', async () => {
    const client = await session();
    await stream(client, 'held', 400);
    client.control('pause', 'held');
    const s = await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.INTERRUPTED,
    );
    expect(s.data.case === 'serverPlaybackState' && s.data.value.reason).toBe('pause_timeout');
    // Its input had ended, so its end went out with the animation: no second one.
    expect(animations(client, 'held').filter((a) => a.end)).toHaveLength(1);
    client.close();
  });

  it('a pause held past the limit on a request still streaming sends its final end (pause_timeout)', async () => {
    const client = await session();
    await stream(client, 'held-open', 200, { end: false });
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation');
    client.control('pause', 'held-open');
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.INTERRUPTED,
    );
    expectFinalEnd(client, 'held-open');
    client.close();
  });

  it('control naming an unknown req_id is a ServerError and the session continues', async () => {
    const client = await session();
    client.control('pause', 'nope');
    const e = await client.waitFor((m) => m.data.case === 'serverError');
    expect(e.data.case === 'serverError' && e.data.value.message).toMatch(/invalidRequest/);
    await stream(client, 'ok', 40);
    await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    client.close();
  });
});

describe('bad input ends only that session, with ServerError and the right close code', () => {
  const audioMessage = (reqId: string, audio: Uint8Array) =>
    ({
      type: wire.MessageType.CLIENT_AUDIO_INPUT,
      data: { case: 'clientAudioInput', value: { reqId, audio } },
    }) as const;
  const cases: [string, (c: TestClient) => void, number, RegExp, boolean][] = [
    ['a text frame', (c) => c.ws.send('hello'), 4005, /^protocolError: .*text/, false],
    [
      'malformed protobuf',
      (c) => c.ws.send(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff])),
      4005,
      /not a valid driveningress.v2 Message/,
      true,
    ],
    ['audio before configure', (c) => c.audio('r', tone(20)), 4005, /before ClientConfigureSession/, false],
    ['odd-length PCM', (c) => c.send(audioMessage('r', new Uint8Array(3))), 4007, /^invalidAudio: /, true],
    [
      'an unknown message type',
      (c) => c.ws.send(Buffer.from([0x08, 0x63])),
      4005,
      /Message.type is unknown/,
      true,
    ],
    [
      'a server message type',
      (c) => c.send({ type: wire.MessageType.SERVER_ERROR, data: { case: 'serverError', value: {} } }),
      4005,
      /not one a client may send/,
      true,
    ],
    [
      'an oversize message',
      (c) => c.audio('r', new Int16Array(40_000)),
      4005,
      /exceeds the 65536-byte limit/,
      true,
    ],
    ['a second configure', (c) => c.configure(16000), 4005, /already configured/, true],
    ['audio without req_id', (c) => c.audio('', tone(20)), 4000, /^invalidRequest: .*req_id/, true],
    [
      'a type without its payload',
      (c) => c.ws.send(Buffer.from([0x08, 0x03])),
      4005,
      /payload is empty/,
      true,
    ],
    [
      'an unknown audio format',
      (c) => c.configure(16000, { audioFormat: 7 as wire.AudioFormat }),
      4007,
      /^invalidAudio: Audio format 7 is not supported by this server/,
      false,
    ],
    ['an unsupported sample rate', (c) => c.configure(11025), 4006, /^unsupportedSampleRate: /, false],
    [
      'a LiveKit egress config without a room',
      (c) => c.configure(16000, { egressType: wire.EgressType.LIVEKIT, livekitEgress: { url: 'wss://x' } }),
      4008,
      /^invalidEgressConfig: /,
      false,
    ],
    [
      'Agora egress (not configured here)',
      (c) => c.configure(16000, { egressType: wire.EgressType.AGORA }),
      4502,
      /^egressUnavailable: The Agora egress is not configured on this server \(it offers: LiveKit\)/,
      false,
    ],
  ];

  it.each(cases)('%s', async (_name, act, closeCode, message, configured) => {
    const bystander = await session();
    const client = await TestClient.open(service, await mintToken(service));
    if (configured) {
      client.configure(16000);
      await client.confirmed();
    }
    act(client);
    const error = await client.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value.code).toBe(closeCode);
    expect(error.data.case === 'serverError' && error.data.value.message).toMatch(message);
    expect((await client.closed).code).toBe(closeCode);
    // The other session keeps running.
    await stream(bystander, 'still-here', 80);
    await bystander.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
    bystander.close();
  });

  it('audio for a req_id that already ended', async () => {
    const client = await session();
    await stream(client, 'once', 40);
    client.audio('once', tone(20));
    const error = await client.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value.message).toMatch(/already ended/);
    expect((await client.closed).code).toBe(4000);
  });
});
