/**
 * LiveKit egress against the real LiveKit server (started by test/livekit-global-setup.ts):
 * a second rtc-node participant measures what the avatar publishes.
 */
import { randomUUID } from 'node:crypto';
import { ARKIT_INDEX, type AvatarError, createDriveFrame, type DriveFrame, wire } from '@avatar-drive/core';
import { ParticipantKind } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  AVATAR_AUDIO_TRACK_NAME,
  EgressRegistry,
  egressKindOf,
  LiveKitEgressProvider,
  PUBLISH_ON_BEHALF_ATTRIBUTE,
} from '../src/egress/index.js';
import type { EgressOpenConfig, EgressSession, LiveKitEgressSettings } from '../src/egress/types.js';
import { API_KEY, API_SECRET, RoomListener, tone, wallNow } from './helpers/room-listener.js';

const url = inject('livekitUrl');
const JAW = ARKIT_INDEX.jawOpen;

function settings(overrides: Partial<LiveKitEgressSettings>): LiveKitEgressSettings {
  return {
    url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    roomName: '',
    publisherId: 'avatar',
    extraAttributes: {},
    idleTimeout: 0,
    apiToken: '',
    ...overrides,
  };
}

function openConfig(sampleRate: number, livekit: LiveKitEgressSettings): EgressOpenConfig {
  return { connectionId: 'conn-1', avatarId: 'avatar-test', sampleRate, livekit };
}

/** Frames whose jawOpen encodes their index, so the receiver can check order and content. */
function framesFor(first: number, count: number): DriveFrame[] {
  return Array.from({ length: count }, (_, j) => {
    const frame = createDriveFrame(first + j);
    frame.expression[JAW] = ((first + j) % 50) / 50;
    return frame;
  });
}

/** Pushes `pcm` as a session would: 100 ms of audio, then the frames that audio completes. */
function speak(session: EgressSession, reqId: string, pcm: Int16Array, rate: number): void {
  const step = rate / 10;
  let sentFrames = 0;
  for (let at = 0; at < pcm.length; at += step) {
    const end = at + step >= pcm.length;
    session.pushAudio(pcm.subarray(at, Math.min(pcm.length, at + step)), rate, reqId, end);
    const ready = end ? Math.ceil((pcm.length * 25) / rate) : Math.floor(((at + step) * 25) / rate);
    session.pushFrames(framesFor(sentFrames, ready - sentFrames), reqId, end);
    sentFrames = ready;
  }
}

function nextEvent<T>(session: EgressSession, event: 'playing' | 'ended' | 'interrupted', reqId: string) {
  return new Promise<T>((resolve) => {
    const listener = (e: { reqId: string }) => {
      if (e.reqId !== reqId) return;
      session.off(event, listener as never);
      resolve(e as T);
    };
    session.on(event, listener as never);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(rate: number, overrides: Partial<LiveKitEgressSettings> = {}) {
  const roomName = `egress-${randomUUID()}`;
  const listener = new RoomListener();
  await listener.join(url, roomName);
  cleanups.push(() => listener.leave());
  const session = await new LiveKitEgressProvider({ allowedHosts: [url] }).open(
    openConfig(rate, settings({ roomName, ...overrides })),
  );
  cleanups.push(() => session.close());
  await listener.recordAudio();
  return { roomName, listener, session };
}

describe('LiveKit egress (real server)', () => {
  it('joins as an agent acting for the agent, publishes paced audio and aligned frames', async () => {
    const { listener, session } = await setUp(16000, {
      publisherId: 'avatar-7',
      extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-7', 'avatar-drive.style': 'test' },
    });
    expect(listener.avatar?.identity).toBe('avatar-7');
    expect(listener.avatar?.kind).toBe(ParticipantKind.AGENT);
    expect(listener.avatar?.attributes).toMatchObject({
      [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-7',
      'avatar-drive.style': 'test',
    });
    expect(listener.trackName).toBe(AVATAR_AUDIO_TRACK_NAME);

    const order: string[] = [];
    session.on('playing', () => order.push('playing'));
    const ended = nextEvent<{ playedMs: number }>(session, 'ended', 'r1');
    const pushedAt = wallNow();
    speak(session, 'r1', tone(16000, 1), 16000);
    const { playedMs } = await ended;
    order.push('ended');
    expect(order).toEqual(['playing', 'ended']);
    expect(playedMs).toBe(1000);
    const elapsed = wallNow() - pushedAt;
    await listener.until(() => listener.controlOf('r1', 'ended').length === 1, 'the ended control message');
    await sleep(300);

    // Audio: one second of tone, paced in real time (not a burst).
    const loud = listener.loud();
    expect(loud.length).toBeGreaterThanOrEqual(80);
    expect(loud.length).toBeLessThanOrEqual(115);
    const heardMs = loud[loud.length - 1]!.atMs - loud[0]!.atMs;
    expect(heardMs).toBeGreaterThan(800);
    expect(elapsed).toBeGreaterThan(900);

    // Frames: all 25, in order, with their content, the last packet marked end.
    const packets = listener.framesOf('r1').map((r) => r.value);
    const keyframes = packets.flatMap((p) =>
      (p.animation.animation?.keyframes ?? []).map((k, j) => ({
        index: p.firstFrameIndex + j,
        jaw: k.expression[JAW]!,
        playAtMs: p.playAtMs[j]!,
      })),
    );
    expect(keyframes.map((k) => k.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    for (const k of keyframes) expect(k.jaw).toBeCloseTo((k.index % 50) / 50, 5);
    expect(packets.at(-1)?.end).toBe(true);
    expect(packets.at(-1)?.animation.end).toBe(true);
    expect(packets.slice(0, -1).every((p) => !p.end)).toBe(true);
    expect(packets.every((p) => p.sampleRate === 16000 && p.animation.avatarId === 'avatar-test')).toBe(true);
    // 40 ms apart, more where the audio had a gap (an event-loop stall longer than the lead).
    const spacing = keyframes.slice(1).map((k, i) => k.playAtMs - keyframes[i]!.playAtMs);
    expect(Math.min(...spacing)).toBeGreaterThan(39.5);
    expect(spacing.filter((d) => Math.abs(d - 40) < 0.5).length).toBeGreaterThanOrEqual(20);
    // How long before its audio leaves the avatar's track each frame reached the listener.
    const lead = listener
      .framesOf('r1')
      .filter((r) => r.value.playAtMs.length > 0)
      .map((r) => r.value.playAtMs[0]! - r.atMs);
    // Alignment: the tone's first loud block arrives shortly after frame 0's stamped time
    // (network + jitter buffer); the player adds the measured playout delay (docs/rtc.md).
    const onsetOffset = loud[0]!.atMs - keyframes[0]!.playAtMs;
    console.log(
      `[egress] onset − playAt(frame 0) = ${onsetOffset.toFixed(1)} ms; frame lead min ${Math.min(...lead).toFixed(1)} ms`,
    );
    expect(onsetOffset).toBeGreaterThan(-20);
    expect(onsetOffset).toBeLessThan(400);

    // Control messages, in order.
    expect(listener.controlOf('r1').map((c) => c.value.type)).toEqual(['playing', 'ended']);
  });

  it('interrupt stops the audio and the frames at once; the next request still plays', async () => {
    const { listener, session } = await setUp(24000, {
      extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-1' },
    });
    const playing = nextEvent(session, 'playing', 'r2');
    const interrupted = nextEvent<{ playedMs: number }>(session, 'interrupted', 'r2');
    speak(session, 'r2', tone(24000, 3), 24000);
    await playing;
    await sleep(400);
    const interruptAt = wallNow();
    const snap = session.interrupt('r2');
    expect(snap.state).toBe('idle');
    const { playedMs } = await interrupted;
    expect(playedMs).toBeGreaterThan(250);
    expect(playedMs).toBeLessThan(1500);

    // Late input for the interrupted request is dropped, not played.
    session.pushAudio(tone(24000, 0.2), 24000, 'r2', true);
    await sleep(700);
    // Audio already on its way (≤ 10 ms) still arrives; what the source had queued (up to
    // 200 ms ahead) must not: without clearing it the last loud block comes up to 200 ms later.
    const lateLoud = listener.loud().filter((b) => b.atMs > interruptAt + 150);
    const lastLoud = listener.loud().at(-1)!;
    console.log(`[egress] interrupt → last loud audio after ${(lastLoud.atMs - interruptAt).toFixed(1)} ms`);
    expect(lateLoud).toEqual([]);
    const stop = listener.controlOf('r2', 'interrupted')[0]!;
    expect(stop.value).toMatchObject({ type: 'interrupted', reqId: 'r2' });
    expect(listener.framesOf('r2').filter((f) => f.atMs > stop.atMs)).toEqual([]);
    expect(listener.controlOf('r2', 'ended')).toEqual([]);

    const ended = nextEvent<{ playedMs: number }>(session, 'ended', 'r3');
    speak(session, 'r3', tone(24000, 0.3), 24000);
    expect((await ended).playedMs).toBe(300);
  });

  it('pause holds the audio and resume plays the rest, nothing lost or repeated', async () => {
    const { listener, session } = await setUp(48000);
    const playing = nextEvent(session, 'playing', 'r4');
    const ended = nextEvent<{ playedMs: number }>(session, 'ended', 'r4');
    speak(session, 'r4', tone(48000, 1), 48000);
    await playing;
    await sleep(300);
    const paused = session.pause();
    const pausedAt = wallNow();
    expect(paused.state).toBe('paused');
    expect(paused.reqId).toBe('r4');
    expect(paused.playedMs).toBeGreaterThan(150);
    expect(paused.playedMs).toBeLessThan(700);
    await sleep(600);
    const resumed = session.resume();
    expect(resumed.state).toBe('playing');
    expect((await ended).playedMs).toBe(1000);
    await sleep(300);
    const silentWhilePaused = listener
      .loud()
      .filter((b) => b.atMs > pausedAt + 150 && b.atMs < pausedAt + 550);
    expect(silentWhilePaused).toEqual([]);
    expect(listener.loud().length).toBeGreaterThanOrEqual(80);
    expect(listener.loud().length).toBeLessThanOrEqual(120);
    expect(listener.controlOf('r4').map((c) => c.value.type)).toEqual([
      'playing',
      'paused',
      'resumed',
      'ended',
    ]);
    // Frames cut by the pause are sent again with their new times: the last copy of each wins.
    const latest = new Map<number, number>();
    for (const { value } of listener.framesOf('r4')) {
      for (const [j, t] of value.playAtMs.entries()) latest.set(value.firstFrameIndex + j, t);
    }
    expect([...latest.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const times = [...latest.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.filter((g) => g > 400)).toHaveLength(1); // the pause
  });

  it('joins with an api_token of kind agent, applies extra attributes, and plays 22050 Hz audio', async () => {
    const roomName = `egress-${randomUUID()}`;
    const at = new AccessToken(API_KEY, API_SECRET, {
      identity: 'avatar-token',
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-token' },
    });
    at.kind = 'agent';
    at.addGrant({
      room: roomName,
      roomJoin: true,
      canPublish: true,
      canPublishData: true,
      canUpdateOwnMetadata: true,
    });
    const listener = new RoomListener();
    await listener.join(url, roomName);
    cleanups.push(() => listener.leave());
    const session = await new LiveKitEgressProvider({ allowedHosts: [url] }).open(
      openConfig(
        22050,
        settings({
          apiKey: '',
          apiSecret: '',
          publisherId: '',
          apiToken: await at.toJwt(),
          extraAttributes: { scene: 'lobby' },
        }),
      ),
    );
    cleanups.push(() => session.close());
    await listener.recordAudio();
    await listener.until(() => listener.avatar?.attributes.scene === 'lobby', 'the extra attribute');
    expect(listener.avatar?.identity).toBe('avatar-token');
    expect(listener.avatar?.kind).toBe(ParticipantKind.AGENT);
    expect(listener.avatar?.attributes[PUBLISH_ON_BEHALF_ATTRIBUTE]).toBe('agent-token');

    const ended = nextEvent<{ playedMs: number }>(session, 'ended', 'r5');
    speak(session, 'r5', tone(22050, 0.5), 22050);
    expect((await ended).playedMs).toBeCloseTo(500, -1);
    await sleep(250);
    expect(listener.loud().length).toBeGreaterThanOrEqual(35);
    expect(listener.loud().length).toBeLessThanOrEqual(62);
    expect(listener.framesOf('r5').at(-1)?.value.sampleRate).toBe(44100);
  });

  it('leaves the room after the idle timeout', async () => {
    const roomName = `egress-${randomUUID()}`;
    const listener = new RoomListener();
    await listener.join(url, roomName);
    cleanups.push(() => listener.leave());
    const session = await new LiveKitEgressProvider({ allowedHosts: [url] }).open(
      openConfig(16000, settings({ roomName, idleTimeout: 1 })),
    );
    cleanups.push(() => session.close());
    const idle = new Promise<{ idleMs: number }>((resolve) => session.on('idle-timeout', resolve));
    const closed = new Promise<void>((resolve) => session.on('closed', resolve));
    expect((await idle).idleMs).toBe(1000);
    await closed;
    expect(session.isOpen).toBe(false);
    await listener.until(() => listener.room.remoteParticipants.size === 0, 'the avatar to leave');
  });
});

describe('LiveKit egress and its agent', () => {
  it('leaves the room when the agent it speaks for leaves', async () => {
    const roomName = `egress-${randomUUID()}`;
    const agent = new RoomListener();
    await agent.join(url, roomName, 'agent-9');
    const observer = new RoomListener();
    await observer.join(url, roomName, 'observer');
    cleanups.push(() => observer.leave());
    const session = await new LiveKitEgressProvider({ allowedHosts: [url] }).open(
      openConfig(
        16000,
        settings({ roomName, extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-9' } }),
      ),
    );
    cleanups.push(() => session.close());
    await observer.until(() => observer.room.remoteParticipants.has('avatar'), 'the avatar to join');
    const failed = new Promise<AvatarError>((resolve) => session.on('error', resolve));
    const closed = new Promise<void>((resolve) => session.on('closed', resolve));
    await agent.leave();
    const error = await failed;
    expect(error.code).toBe('connectionClosed');
    expect(error.message).toMatch(/Agent "agent-9" left/);
    await closed;
    await observer.until(() => !observer.room.remoteParticipants.has('avatar'), 'the avatar to leave');
  });
});

describe('LiveKit egress configuration', () => {
  const provider = new LiveKitEgressProvider({ connectTimeoutMs: 5000, allowedHosts: [url, '127.0.0.1:9'] });

  async function rejection(livekit: Partial<LiveKitEgressSettings>): Promise<AvatarError> {
    const error = await provider
      .open(openConfig(16000, settings({ roomName: 'bad-config', ...livekit })))
      .then(
        () => {
          throw new Error('open() accepted a bad config');
        },
        (e: unknown) => e as AvatarError,
      );
    expect(error.name).toBe('AvatarError');
    return error;
  }

  it.each([
    ['no credentials', { apiKey: '', apiSecret: '' }, /api_token/],
    ['a key without its secret', { apiSecret: '' }, /api_secret is empty/],
    ['a secret without its key', { apiKey: '' }, /api_key is empty/],
    ['no url', { url: '' }, /url is empty/],
    ['a url of another scheme', { url: 'ftp://127.0.0.1:7880' }, /use wss:\/\//],
    ['no room', { roomName: '' }, /room_name is empty/],
    ['no publisher id', { publisherId: '' }, /publisher_id is empty/],
    ['a negative idle timeout', { idleTimeout: -1 }, /idle_timeout/],
    ['an api_token that is not a JWT', { apiToken: 'not-a-token' }, /not a JWT/],
    ['an empty attribute name', { extraAttributes: { '': 'x' } }, /empty attribute name/],
  ])('rejects %s with invalidEgressConfig', async (_name, livekit, message) => {
    const error = await rejection(livekit);
    expect(error.code).toBe('invalidEgressConfig');
    expect(error.message).toMatch(message);
  });

  it('rejects an api_token that is not of kind agent or names another room', async () => {
    const standard = new AccessToken(API_KEY, API_SECRET, { identity: 'avatar' });
    standard.addGrant({ room: 'bad-config', roomJoin: true });
    const notAgent = await rejection({ apiToken: await standard.toJwt() });
    expect(notAgent.code).toBe('invalidEgressConfig');
    expect(notAgent.message).toMatch(/kind "agent"/);

    const other = new AccessToken(API_KEY, API_SECRET, { identity: 'avatar' });
    other.kind = 'agent';
    other.addGrant({ room: 'another-room', roomJoin: true });
    const wrongRoom = await rejection({ apiToken: await other.toJwt() });
    expect(wrongRoom.code).toBe('invalidEgressConfig');
    expect(wrongRoom.message).toMatch(/differs from the api_token room/);
  });

  it('reports credentials the real server rejects as invalidEgressConfig, without the secret', async () => {
    const error = await rejection({ apiSecret: 'not-the-secret' });
    expect(error.code).toBe('invalidEgressConfig');
    expect(error.message).toMatch(/rejected the avatar's credentials/);
    expect(error.message).not.toContain('not-the-secret');
  });

  it('reports an unreachable server as egressUnavailable (retryable)', async () => {
    const error = await rejection({ url: 'ws://127.0.0.1:9' });
    expect(error.code).toBe('egressUnavailable');
    expect(error.retryable).toBe(true);
  });
});

describe('egress registry', () => {
  const config = openConfig(16000, settings({ roomName: 'registry' }));

  it('maps egress_type and rejects unknown values', () => {
    expect(egressKindOf(wire.EgressType.UNSPECIFIED)).toBeUndefined();
    expect(egressKindOf(wire.EgressType.LIVEKIT)).toBe('livekit');
    expect(egressKindOf(wire.EgressType.AGORA)).toBe('agora');
    expect(() => egressKindOf(99)).toThrow(expect.objectContaining({ code: 'invalidEgressConfig' }));
  });

  it('says clearly that AGORA is not configured on this server', async () => {
    const registry = new EgressRegistry().register(new LiveKitEgressProvider());
    const error = (await registry
      .open('agora', { ...config, agora: { channelName: 'c', token: 't', uid: 1, publisherId: 'p' } })
      .catch((e: unknown) => e)) as AvatarError;
    expect(error.code).toBe('egressUnavailable');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/The Agora egress is not configured on this server \(it offers: LiveKit\)/);
  });

  it('requires the settings of the asked kind', async () => {
    const registry = new EgressRegistry().register(new LiveKitEgressProvider());
    const error = (await registry
      .open('livekit', { ...config, livekit: undefined })
      .catch((e: unknown) => e)) as AvatarError;
    expect(error.code).toBe('invalidEgressConfig');
  });
});
