/**
 * RTC mode end to end against the real LiveKit server: a Chromium page with AvatarPlayer joins a
 * room; a server-side AvatarSession of @avatar-drive/server-sdk in RTC mode (LiveKit egress
 * config) says an espeak-ng WAV through the real service, whose engine animates it and whose
 * LiveKit egress publishes the avatar's audio and frames. The page measures the energy of the
 * received track and the jawOpen the view renders per animation frame (support/utterance-sync.ts):
 * the mouth must follow the sound within 2 frames (80 ms), and an interrupt must stop both.
 * agent-plugin.test.ts is the same path with a LiveKit agent in front of the session.
 */
import { randomUUID } from 'node:crypto';
import { Room, RoomEvent, TrackSource } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession, type PlaybackStateInfo } from '../../../packages/server-sdk/src/index.js';
import { LiveKitEgressProvider } from '../../service/src/egress/index.js';
import { type DrivingService, rtcSessionOptions, startDrivingService } from './support/driving-service.js';
import { type LiveKitServer, livekitServer, RtcViewer } from './support/rtc-viewer.js';
import { type Speech, synthesize } from './support/speech.js';
import {
  assertInStep,
  assertStopped,
  describeStop,
  measureSteady,
  measureStop,
} from './support/utterance-sync.js';

const lk = livekitServer();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wallNow = () => performance.timeOrigin + performance.now();

/** The avatar's join token, as a developer's server mints it (docs/rtc.md): kind agent. */
function avatarToken(server: LiveKitServer, roomName: string, identity: string): Promise<string> {
  const at = new AccessToken(server.apiKey, server.apiSecret, { identity });
  at.kind = 'agent';
  at.addGrant({
    room: roomName,
    roomJoin: true,
    canPublish: true,
    canPublishData: true,
    canUpdateOwnMetadata: true,
  });
  return at.toJwt();
}

/** Sends `speech` as one request in 100 ms chunks (the service paces playout); returns its id. */
function say(session: AvatarSession, speech: Speech): string {
  const step = Math.round(speech.sampleRate / 10);
  let reqId = '';
  for (let at = 0; at < speech.pcm.length; at += step) {
    const end = at + step >= speech.pcm.length;
    reqId = session.sendAudio(speech.pcm.slice(at, Math.min(speech.pcm.length, at + step)), end);
  }
  return reqId;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('AvatarPlayer in Chromium, a server-sdk AvatarSession in RTC mode on the real service and LiveKit server', () => {
  const roomName = `rtc-e2e-${randomUUID()}`;
  const viewerIdentity = `viewer-${randomUUID().slice(0, 8)}`;
  let viewer: RtcViewer;
  let driving: DrivingService;
  let session: AvatarSession;
  let speech: Speech;
  const states: PlaybackStateInfo[] = [];

  /** Resolves with the playback state `state` of `reqId` (generous timeout: shared machine). */
  const reached = async (reqId: string, state: PlaybackStateInfo['state'], timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = states.find((s) => s.reqId === reqId && s.state === state);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`${reqId} never reached ${state}: ${JSON.stringify(states)}`);
      await sleep(20);
    }
  };

  beforeAll(async () => {
    speech = synthesize(
      'Hello there. The quick brown fox jumps over the lazy dog, twice, and then it rests.',
      22050,
    );
    driving = await startDrivingService();
    viewer = await RtcViewer.join(lk, roomName, viewerIdentity);
    session = new AvatarSession(
      rtcSessionOptions(driving, speech.sampleRate, {
        url: lk.url,
        roomName,
        apiToken: await avatarToken(lk, roomName, 'avatar-e2e'),
        publisherId: 'avatar-e2e',
      }),
    );
    session.onPlaybackState = (info) => void states.push(info);
    await session.start();
    await viewer.waitForAvatarAudio('avatar-e2e');
  });

  afterAll(async () => {
    await session?.close().catch(() => {});
    await viewer?.close();
    await driving?.service.close();
  });

  it('subscribes to the avatar audio only and plays it through one native audio element', async () => {
    const state = await viewer.read();
    expect(state.state).toBe('connected');
    expect(state.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
    expect(state.audioElements).toBe(1);
  });

  it('plays the audio and moves the mouth in step with it (lag within 2 frames)', async () => {
    // A first short utterance lets the jitter buffer settle (docs/rtc.md: the first one after
    // subscribing runs ~30 ms late); the measured one follows.
    await reached(say(session, synthesize('Warming up.', speech.sampleRate)), 'ended');
    await sleep(400);

    let playedMs = 0;
    let events: string[] = [];
    const sync = await measureSteady(
      async () => {
        const since = wallNow();
        const reqId = say(session, speech);
        playedMs = (await reached(reqId, 'ended')).playedMs;
        await sleep(600);
        const r = await viewer.read(since, 'rtc-utterance');
        events = r.events;
        const stats = r.sync[r.sync.length - 1];
        console.log(
          `[rtc e2e] ${speech.durationMs.toFixed(0)} ms of speech (${speech.sampleRate} Hz), played ${playedMs} ms; ` +
            `clock offset ${stats?.clockOffsetMs?.toFixed(1)} ms, playout delay ${stats?.playoutDelayMs.toFixed(1)} ms`,
        );
        return { read: r, reqId };
      },
      speech,
      (line) => console.log(`[rtc e2e] ${line}`),
    );
    expect(playedMs).toBeCloseTo(speech.durationMs, -1);
    assertInStep(sync, speech);
    expect(events.filter((e) => e.startsWith('error') || e.startsWith('stalled'))).toEqual([]);
  });

  it('interrupt stops the audio and the mouth at once', async () => {
    const since = wallNow();
    const reqId = say(session, speech);
    await reached(reqId, 'playing');
    await sleep(1500);
    const interruptAt = wallNow();
    expect(session.interrupt()).toBe(reqId);
    const { playedMs } = await reached(reqId, 'interrupted');
    await sleep(1000);
    const stopped = measureStop(await viewer.read(since), interruptAt);
    console.log(
      `[rtc e2e] interrupt after ${playedMs} ms of ${speech.durationMs.toFixed(0)}: ${describeStop(stopped)}`,
    );
    expect(playedMs).toBeGreaterThan(1000);
    expect(playedMs).toBeLessThan(speech.durationMs - 1000);
    expect(states.some((s) => s.reqId === reqId && s.state === 'ended')).toBe(false);
    assertStopped(stopped);
  });

  it('publishes the user audio for the agent without ever playing it back, and reconnects', async () => {
    const agent = new Room();
    const at = new AccessToken(lk.apiKey, lk.apiSecret, { identity: 'agent-listener' });
    at.kind = 'agent';
    at.addGrant({ room: roomName, roomJoin: true, canSubscribe: true });
    await agent.connect(lk.url, await at.toJwt(), { autoSubscribe: true, dynacast: false });
    const page = viewer.browser.page;
    try {
      // The agent hears the user's audio (it also gets the avatar's; only the viewer's counts here).
      const heard = new Promise<string>((resolve) =>
        agent.on(RoomEvent.TrackSubscribed, (_track, publication, participant) => {
          if (participant.identity === viewerIdentity) resolve(`viewer:${publication.source}`);
        }),
      );
      await page.evaluate(() =>
        (window as never as { rtc: { publishTone(): Promise<void> } }).rtc.publishTone(),
      );
      expect(await heard).toMatch(/^viewer:/);
      const state = await viewer.read();
      expect(state.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
      expect(state.audioElements).toBe(1);
      await page.evaluate(() => (window as never as { rtc: { unpublish(): Promise<void> } }).rtc.unpublish());

      const reconnected = await page.evaluate(() =>
        (window as never as { rtc: { reconnect(): Promise<string> } }).rtc.reconnect(),
      );
      expect(reconnected).toBe('connected');
      const deadline = Date.now() + 30_000;
      let after = await viewer.read();
      while (after.subscribed.length === 0 && Date.now() < deadline) {
        await sleep(100);
        after = await viewer.read();
      }
      expect(after.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
      expect(after.audioElements).toBe(1);
      expect(after.events.filter((e) => e.startsWith('connected@'))).toHaveLength(2);
      expect(after.events.some((e) => e.startsWith('disconnected@'))).toBe(true);
    } finally {
      await agent.disconnect();
    }
  });

  it('isConnected follows the connection; startPublishing publishes the microphone, stopPublishing stops it', async () => {
    const page = viewer.browser.page;
    type Api = {
      rtc: {
        isConnected(): boolean;
        startMicrophone(): Promise<void>;
        stopMicrophone(): Promise<void>;
        isConnectedThroughLife(c: unknown): Promise<boolean[]>;
      };
    };
    expect(await page.evaluate(() => (window as never as Api).rtc.isConnected())).toBe(true);
    const probe = new AccessToken(lk.apiKey, lk.apiSecret, { identity: `probe-${randomUUID().slice(0, 8)}` });
    probe.addGrant({ room: roomName, roomJoin: true, canSubscribe: true });
    const life = await page.evaluate((c) => (window as never as Api).rtc.isConnectedThroughLife(c), {
      url: lk.url,
      token: await probe.toJwt(),
      roomName,
    });
    expect(life, 'isConnected before connect, connected, after disconnect').toEqual([false, true, false]);

    const agent = new Room();
    const at = new AccessToken(lk.apiKey, lk.apiSecret, { identity: 'agent-microphone' });
    at.kind = 'agent';
    at.addGrant({ room: roomName, roomJoin: true, canSubscribe: true });
    await agent.connect(lk.url, await at.toJwt(), { autoSubscribe: true, dynacast: false });
    try {
      // Resolves with the source of the viewer's next track the agent subscribes to.
      const viewerSubscribed = new Promise<unknown>((resolve) =>
        agent.on(RoomEvent.TrackSubscribed, (_track, publication, participant) => {
          if (participant.identity === viewerIdentity) resolve(publication.source);
        }),
      );
      // livekit-client stops the microphone by muting its publication (the track stays published).
      const viewerMuted = new Promise<unknown>((resolve) =>
        agent.on(RoomEvent.TrackMuted, (publication, participant) => {
          if (participant.identity === viewerIdentity) resolve(publication.source);
        }),
      );
      await page.evaluate(() => (window as never as Api).rtc.startMicrophone());
      expect(await withTimeout(viewerSubscribed, 30_000, 'the agent never got the microphone')).toBe(
        TrackSource.SOURCE_MICROPHONE,
      );
      await page.evaluate(() => (window as never as Api).rtc.stopMicrophone());
      expect(await withTimeout(viewerMuted, 30_000, 'the microphone was never stopped')).toBe(
        TrackSource.SOURCE_MICROPHONE,
      );
      // The user's own audio is never played back on the page.
      expect((await viewer.read()).audioElements).toBe(1);
    } finally {
      await agent.disconnect();
    }
  });

  it('maps connection failures to typed errors', async () => {
    const attempt = (config: { url: string; token: string; roomName?: string }) =>
      viewer.browser.page.evaluate(
        (c) => (window as never as { rtc: { tryConnect(c: unknown): Promise<string> } }).rtc.tryConnect(c),
        config,
      );
    const good = await new AccessToken(lk.apiKey, lk.apiSecret, { identity: 'probe' });
    good.addGrant({ room: roomName, roomJoin: true, canSubscribe: true });
    const token = await good.toJwt();
    const forged = new AccessToken(lk.apiKey, 'not-the-secret-of-this-server-at-all', { identity: 'x' });
    forged.addGrant({ room: roomName, roomJoin: true });
    expect(await attempt({ url: lk.url, token, roomName })).toBe('connected->disconnected');
    expect(await attempt({ url: 'http://127.0.0.1:1', token })).toBe('invalidRequest');
    expect(await attempt({ url: lk.url, token: 'not-a-jwt' })).toBe('invalidRequest');
    expect(await attempt({ url: lk.url, token: await forged.toJwt() })).toBe('sessionTokenInvalid');
    expect(await attempt({ url: lk.url, token, roomName: 'another-room' })).toBe('invalidRequest');
    expect(await attempt({ url: 'ws://127.0.0.1:9', token })).toBe('connectionFailed');
  });

  it('reports stalled when the audio plays without frames (an egress fed directly: the service always animates)', async () => {
    await session.close(); // the service's avatar leaves; a bare egress takes its place
    const egress = await new LiveKitEgressProvider({ allowedHosts: [lk.url] }).open({
      connectionId: 'conn-e2e-no-frames',
      avatarId: 'rtc-test-head',
      sampleRate: speech.sampleRate,
      livekit: {
        url: lk.url,
        apiKey: lk.apiKey,
        apiSecret: lk.apiSecret,
        roomName,
        publisherId: 'avatar-no-frames',
        extraAttributes: {},
        idleTimeout: 0,
        apiToken: '',
      },
    });
    try {
      await viewer.waitForAvatarAudio('avatar-no-frames');
      const ended = new Promise<void>((resolve) => egress.on('ended', () => resolve()));
      const step = Math.round(speech.sampleRate / 10);
      for (let at = 0; at < speech.pcm.length; at += step) {
        const end = at + step >= speech.pcm.length;
        egress.pushAudio(
          speech.pcm.subarray(at, Math.min(speech.pcm.length, at + step)),
          speech.sampleRate,
          'no-frames',
          end,
        );
      }
      await ended;
      expect((await viewer.read()).events.some((e) => e.startsWith('stalled@'))).toBe(true);
    } finally {
      await egress.close();
    }
  });
});
