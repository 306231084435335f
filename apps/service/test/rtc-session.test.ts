/**
 * RTC mode through the real service: a driveningress.v2 client configures LiveKit egress, the
 * service runs the audio through the real engine and publishes audio + frames into a room on the
 * real LiveKit server (test/livekit-global-setup.ts), where an rtc-node participant measures them.
 */
import { randomUUID } from 'node:crypto';
import { SERVER_ERROR_CODES, wire } from '@avatar-drive/core';
import { ParticipantKind, RoomEvent } from '@livekit/rtc-node';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { AVATAR_AUDIO_TRACK_NAME, PUBLISH_ON_BEHALF_ATTRIBUTE } from '../src/egress/index.js';
import type { RunningService } from '../src/service.js';
import { API_KEY, API_SECRET, RoomListener, tone, wallNow } from './helpers/room-listener.js';
import {
  type Message,
  makeAvatarsDir,
  mintToken,
  sleep,
  startTestService,
  states,
  TestClient,
} from './support/harness.js';

const url = inject('livekitUrl');
const { PlaybackState, EgressType } = wire;
const RATE = 16000;

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    extra: { liveKitEgress: { allowedHosts: [url] } },
  });
});
afterAll(async () => {
  await service?.close();
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function livekitEgress(roomName: string, extra: Record<string, unknown> = {}) {
  return {
    egressType: EgressType.LIVEKIT,
    livekitEgress: {
      url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      roomName,
      publisherId: 'avatar-1',
      extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-1' },
      ...extra,
    },
  };
}

/** A listener in a fresh room and a client whose session publishes the avatar into it. */
async function rtcSession(extra: Record<string, unknown> = {}) {
  const roomName = `rtc-${randomUUID()}`;
  const listener = new RoomListener();
  await listener.join(url, roomName);
  cleanups.push(() => listener.leave());
  const client = await TestClient.open(service, await mintToken(service));
  cleanups.push(() => client.close());
  client.configure(RATE, livekitEgress(roomName, extra));
  await client.confirmed();
  // Confirmed once the avatar joined with its track published: the listener sees it next.
  await listener.recordAudio(5000);
  return { roomName, listener, client };
}

/** Sends `pcm` as 100 ms chunks of `reqId`, the last with end=true. */
function speak(client: TestClient, reqId: string, pcm: Int16Array): void {
  const step = RATE / 10;
  for (let at = 0; at < pcm.length; at += step) {
    client.audio(reqId, pcm.subarray(at, at + step), at + step >= pcm.length);
  }
}

const isState = (reqId: string, state: wire.PlaybackState) => (m: Message) =>
  m.data.case === 'serverPlaybackState' && m.data.value.reqId === reqId && m.data.value.state === state;

function serverError(m: Message): wire.ServerError {
  if (m.data.case !== 'serverError') throw new Error(`expected ServerError, got ${m.data.case}`);
  return m.data.value;
}

describe('RTC mode through the service (real LiveKit server)', () => {
  it('publishes the engine-driven avatar into the room and reports its playout on the WebSocket', async () => {
    const { listener, client } = await rtcSession();
    const avatar = listener.avatar!;
    expect(avatar.identity).toBe('avatar-1');
    expect(avatar.kind).toBe(ParticipantKind.AGENT);
    expect(avatar.attributes[PUBLISH_ON_BEHALF_ATTRIBUTE]).toBe('agent-1');
    expect(listener.trackName).toBe(AVATAR_AUDIO_TRACK_NAME);

    speak(client, 'r1', tone(RATE, 1));
    await client.waitFor(isState('r1', PlaybackState.ENDED), 15_000);
    const lifecycle = states(client, 'r1').map((s) => PlaybackState[s.state]);
    expect(lifecycle).toEqual(['PLAYING', 'ENDED']);
    expect(Number(states(client, 'r1')[1]!.playedMs)).toBe(1000);

    // On the WebSocket: one end marker, no keyframes (they went to the room), no audio.
    const animations = client.inbox.flatMap((m) =>
      m.data.case === 'serverResponseAnimation' ? [m.data.value] : [],
    );
    expect(animations.map((a) => [a.reqId, a.end, a.animation?.keyframes.length ?? 0])).toEqual([
      ['r1', true, 0],
    ]);

    // In the room: a second of audio with energy, and the engine's 25 frames in order.
    await listener.until(() => listener.controlOf('r1', 'ended').length === 1, 'the ended control');
    await sleep(200);
    expect(listener.loud().length).toBeGreaterThanOrEqual(70);
    const indices = listener
      .framesOf('r1')
      .flatMap((p) =>
        (p.value.animation.animation?.keyframes ?? []).map((_, j) => p.value.firstFrameIndex + j),
      );
    expect(indices).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(listener.framesOf('r1').at(-1)?.value.end).toBe(true);

    // Closing the WebSocket makes the avatar leave the room.
    const left = new Promise<string>((resolve) =>
      listener.room.once(RoomEvent.ParticipantDisconnected, (p) => resolve(p.identity)),
    );
    client.close();
    expect(await left).toBe('avatar-1');
  });

  it('acknowledges pause and resume once each, and interrupt stops the audio at once', async () => {
    const { listener, client } = await rtcSession();
    speak(client, 'r2', tone(RATE, 3));
    await client.waitFor(isState('r2', PlaybackState.PLAYING), 15_000);
    await sleep(300);

    const before = client.inbox.length;
    client.control('pause', 'r2');
    await client.waitFor(isState('r2', PlaybackState.PAUSED), 5000, before);
    client.control('resume', 'r2');
    await client.waitFor(isState('r2', PlaybackState.PLAYING), 5000, before);
    await sleep(300);
    const acks = client.inbox.slice(before).filter((m) => m.data.case === 'serverPlaybackState');
    expect(
      acks.map((m) => m.data.case === 'serverPlaybackState' && PlaybackState[m.data.value.state]),
    ).toEqual(['PAUSED', 'PLAYING']);

    const interruptedAt = wallNow();
    client.control('interrupt', 'r2');
    const interrupted = await client.waitFor(isState('r2', PlaybackState.INTERRUPTED));
    const state = interrupted.data.case === 'serverPlaybackState' ? interrupted.data.value : undefined;
    expect(state?.reason).toBe('explicit');
    expect(Number(state?.playedMs)).toBeGreaterThan(0);
    expect(Number(state?.playedMs)).toBeLessThan(3000);
    await sleep(800);
    // What was already in flight may still arrive; nothing loud after that.
    const lateLoud = listener.loud().filter((b) => b.atMs > interruptedAt + 500);
    expect(lateLoud).toEqual([]);
    expect(listener.loud().filter((b) => b.atMs < interruptedAt).length).toBeGreaterThan(20);
    expect(states(client, 'r2').filter((s) => s.state === PlaybackState.ENDED)).toEqual([]);
    expect(listener.controlOf('r2', 'interrupted')).toHaveLength(1);
    // On the WebSocket the interrupted request gets its one end marker too, just before INTERRUPTED.
    const ends = client.inbox.flatMap((m, i) =>
      m.data.case === 'serverResponseAnimation' && m.data.value.reqId === 'r2' && m.data.value.end ? [i] : [],
    );
    expect(ends).toHaveLength(1);
    expect(client.inbox.indexOf(interrupted)).toBe(ends[0]! + 1);
  });

  it('closes with idleTimeout when no audio comes for the egress idle timeout', async () => {
    const { listener, client } = await rtcSession({ idleTimeout: 1 });
    const left = new Promise<void>((resolve) =>
      listener.room.once(RoomEvent.ParticipantDisconnected, () => resolve()),
    );
    const error = serverError(await client.waitFor((m) => m.data.case === 'serverError', 5000));
    expect(error.code).toBe(SERVER_ERROR_CODES.idleTimeout);
    expect((await client.closed).code).toBe(SERVER_ERROR_CODES.idleTimeout);
    await left;
  });

  it('refuses a LiveKit config it cannot use with invalidEgressConfig before confirming', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    cleanups.push(() => client.close());
    client.configure(RATE, livekitEgress('', { url: 'not a url' }));
    const error = serverError(await client.waitFor((m) => m.data.case === 'serverError', 10_000));
    expect(error.code).toBe(SERVER_ERROR_CODES.invalidEgressConfig);
    expect(error.message).toMatch(/^invalidEgressConfig: /);
    expect(client.inbox.some((m) => m.data.case === 'serverConfirmSession')).toBe(false);
    expect((await client.closed).code).toBe(SERVER_ERROR_CODES.invalidEgressConfig);
  });

  it('refuses credentials the LiveKit server rejects with invalidEgressConfig', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    cleanups.push(() => client.close());
    client.configure(
      RATE,
      livekitEgress(`rtc-${randomUUID()}`, { apiSecret: 'wrong-secret-wrong-secret-wrong-secret' }),
    );
    const error = serverError(await client.waitFor((m) => m.data.case === 'serverError', 15_000));
    expect(error.code).toBe(SERVER_ERROR_CODES.invalidEgressConfig);
    expect(error.message).not.toContain('wrong-secret');
  });

  it('answers AGORA with a clear error: not configured on this server', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    cleanups.push(() => client.close());
    client.configure(RATE, {
      egressType: EgressType.AGORA,
      agoraEgress: { channelName: 'c', token: 't', uid: 1, publisherId: 'avatar' },
    });
    const error = serverError(await client.waitFor((m) => m.data.case === 'serverError'));
    expect(error.code).toBe(SERVER_ERROR_CODES.egressUnavailable);
    expect(error.message).toMatch(/^egressUnavailable: The Agora egress is not configured on this server/);
    expect(error.message).toMatch(/it offers: LiveKit/);
  });
});
