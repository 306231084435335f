/**
 * RTC mode end to end against the real LiveKit server: a Chromium page with AvatarPlayer joins a
 * room; the service's LiveKit egress (driven directly, as a session would drive it) speaks an
 * espeak-ng WAV with frames whose jawOpen follows its loudness. The page measures the loudness of
 * the avatar's track and the jawOpen the view renders on one clock; the lag between the two must
 * stay within 2 frames (80 ms), and an interrupt must stop both.
 */
import { randomUUID } from 'node:crypto';
import type { DriveFrame } from '@avatar-drive/core';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LiveKitEgressProvider, PUBLISH_ON_BEHALF_ATTRIBUTE } from '../../service/src/egress/index.js';
import type { EgressSession } from '../../service/src/egress/types.js';
import { openPage, type TestBrowser } from './support/browser.js';
import { loudnessFrames, type Speech, synthesize } from './support/speech.js';
import { firstAbove, lagMs, lastAbove, onGrid, type Series } from './support/sync-analysis.js';

const url = inject('livekitUrl');
const apiKey = inject('livekitApiKey');
const apiSecret = inject('livekitApiSecret');

interface PageRead {
  audio: Series;
  jaw: Series;
  events: string[];
  sync: Array<Record<string, unknown>>;
  state: string;
  subscribed: string[];
  audioElements: number;
  now: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wallNow = () => performance.timeOrigin + performance.now();

/** Pushes speech as a driving session does: 100 ms of audio, then the frames it completes. */
function speak(
  session: EgressSession,
  reqId: string,
  speech: Speech,
  frames: DriveFrame[] | undefined,
): void {
  const { pcm, sampleRate } = speech;
  const step = Math.round(sampleRate / 10);
  let sent = 0;
  for (let at = 0; at < pcm.length; at += step) {
    const end = at + step >= pcm.length;
    session.pushAudio(pcm.subarray(at, Math.min(pcm.length, at + step)), sampleRate, reqId, end);
    if (!frames) continue;
    const ready = end ? frames.length : Math.min(frames.length, Math.floor(((at + step) * 25) / sampleRate));
    session.pushFrames(frames.slice(sent, ready), reqId, end);
    sent = ready;
  }
}

function once<T>(
  session: EgressSession,
  event: 'playing' | 'ended' | 'interrupted',
  reqId: string,
): Promise<T> {
  return new Promise<T>((resolve) => {
    const listener = (e: { reqId: string }) => {
      if (e.reqId !== reqId) return;
      session.off(event, listener as never);
      resolve(e as T);
    };
    session.on(event, listener as never);
  });
}

async function viewerToken(roomName: string): Promise<string> {
  const at = new AccessToken(apiKey, apiSecret, { identity: `viewer-${randomUUID().slice(0, 8)}` });
  at.addGrant({
    room: roomName,
    roomJoin: true,
    canSubscribe: true,
    canPublish: true,
    canPublishData: false,
  });
  return at.toJwt();
}

describe('AvatarPlayer in Chromium against the real LiveKit server (egress driven directly)', () => {
  const roomName = `rtc-e2e-${randomUUID()}`;
  let browser: TestBrowser;
  let session: EgressSession;
  let speech: Speech;
  let frames: DriveFrame[];

  const read = (since = 0) =>
    browser.page.evaluate(
      (s) => (window as never as { rtc: { read(s: number): PageRead } }).rtc.read(s),
      since,
    );

  beforeAll(async () => {
    // espeak-ng's own 22050 Hz: the egress publishes it at 44.1 kHz (its resampling path).
    speech = synthesize(
      'Hello there. The quick brown fox jumps over the lazy dog, twice, and then it rests.',
      22050,
    );
    frames = loudnessFrames(speech);
    browser = await openPage('rtc-page');
    const token = await viewerToken(roomName);
    await browser.page.evaluate(
      (o) => (window as never as { rtc: { start(o: unknown): Promise<void> } }).rtc.start(o),
      // No fades: the view shows exactly what the player aligned.
      {
        url,
        token,
        roomName,
        viewTransitions: 0,
        player: { transitionStartFrameCount: 0, transitionEndFrameCount: 0 },
      },
    );
    session = await new LiveKitEgressProvider().open({
      connectionId: 'conn-e2e',
      avatarId: 'rtc-test-head',
      sampleRate: speech.sampleRate,
      livekit: {
        url,
        apiKey,
        apiSecret,
        roomName,
        publisherId: 'avatar-e2e',
        extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-e2e' },
        idleTimeout: 0,
        apiToken: '',
      },
    });
    const deadline = Date.now() + 15_000;
    while (!(await read()).events.includes('avatarAudio:avatar-e2e')) {
      if (Date.now() > deadline)
        throw new Error(`the page never got the avatar's audio: ${JSON.stringify(await read())}`);
      await sleep(100);
    }
  });

  afterAll(async () => {
    await session?.close();
    await browser?.page
      .evaluate(() => (window as never as { rtc: { stop(): Promise<void> } }).rtc.stop())
      .catch(() => {});
    await browser?.close();
  });

  it('subscribes to the avatar audio only and plays it through one native audio element', async () => {
    const state = await read();
    expect(state.state).toBe('connected');
    expect(state.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
    expect(state.audioElements).toBe(1);
  });

  it('plays the audio and moves the mouth in step with it (lag within 2 frames)', async () => {
    // A first short utterance lets the jitter buffer settle (docs/rtc.md: the first one after
    // subscribing runs ~30 ms late); the measured one follows.
    const warmUp = synthesize('Warming up.', 22050);
    speak(session, 'warm-up', warmUp, loudnessFrames(warmUp));
    await once(session, 'ended', 'warm-up');
    await sleep(400);

    const since = wallNow();
    const ended = once<{ playedMs: number }>(session, 'ended', 'utterance-1');
    speak(session, 'utterance-1', speech, frames);
    const { playedMs } = await ended;
    await sleep(600);
    const r = await read(since);

    const audioPeak = Math.max(...r.audio.map(([, v]) => v));
    const audioOn = firstAbove(r.audio, audioPeak * 0.1);
    const jawOn = firstAbove(r.jaw, 0.1);
    const audioOff = lastAbove(r.audio, audioPeak * 0.1);
    const jawOff = lastAbove(r.jaw, 0.1);
    expect(audioOn, 'no audio energy measured on the avatar track').toBeDefined();
    expect(jawOn, 'the mouth never moved').toBeDefined();
    const from = Math.min(audioOn!, jawOn!) - 300;
    const to = Math.max(audioOff!, jawOff!) + 300;
    const lag = lagMs(onGrid(r.audio, from, to), onGrid(r.jaw, from, to));
    const sync = r.sync[r.sync.length - 1] ?? {};
    console.log(
      `[rtc e2e] ${speech.durationMs.toFixed(0)} ms of speech (${speech.sampleRate} Hz), played ${playedMs} ms; ` +
        `audio peak RMS ${audioPeak.toFixed(3)}; jaw − audio lag (xcorr) ${lag.lagMs} ms (r = ${lag.correlation.toFixed(2)}); ` +
        `onset jaw − audio ${(jawOn! - audioOn!).toFixed(0)} ms; end jaw − audio ${(jawOff! - audioOff!).toFixed(0)} ms; ` +
        `clock offset ${Number(sync.clockOffsetMs).toFixed(1)} ms, jitter buffer ${Number(sync.jitterBufferMs).toFixed(1)} ms, ` +
        `playout delay ${Number(sync.playoutDelayMs).toFixed(1)} ms`,
    );
    expect(audioPeak).toBeGreaterThan(0.02);
    expect(audioOff! - audioOn!).toBeGreaterThan(speech.durationMs * 0.6);
    expect(lag.correlation).toBeGreaterThan(0.5);
    expect(Math.abs(lag.lagMs)).toBeLessThanOrEqual(80);
    expect(Math.abs(jawOn! - audioOn!)).toBeLessThanOrEqual(80);
    expect(r.events.filter((e) => e.startsWith('error') || e.startsWith('stalled'))).toEqual([]);
  });

  it('interrupt stops the audio and the mouth at once', async () => {
    const since = wallNow();
    const playing = once(session, 'playing', 'utterance-2');
    speak(session, 'utterance-2', speech, frames);
    await playing;
    await sleep(1200);
    const { sync } = await read();
    const interruptAt = wallNow();
    const interrupted = once<{ playedMs: number }>(session, 'interrupted', 'utterance-2');
    session.interrupt('utterance-2');
    const { playedMs } = await interrupted;
    await sleep(1000);
    const r = await read(since);
    const before = r.audio.filter(([t]) => t < interruptAt);
    const audioPeak = Math.max(...before.map(([, v]) => v));
    const audioOff = lastAbove(r.audio, audioPeak * 0.1)!;
    const jawOff = lastAbove(r.jaw, 0.1)!;
    console.log(
      `[rtc e2e] interrupt after ${playedMs} ms of ${speech.durationMs.toFixed(0)}: last audible audio ${(audioOff - interruptAt).toFixed(0)} ms ` +
        `and last open mouth ${(jawOff - interruptAt).toFixed(0)} ms after the call`,
    );
    expect(playedMs).toBeLessThan(speech.durationMs - 1000);
    expect(audioPeak).toBeGreaterThan(0.02);
    expect(firstAbove(r.jaw, 0.1), 'the mouth moved before the interrupt').toBeLessThan(interruptAt);
    // What is already in the receiver's jitter buffer still plays (on this shared machine it
    // reached 270 ms under load); nothing of the remaining seconds does.
    const inFlight = Math.max(...sync.map((x) => Number(x.playoutDelayMs)));
    expect(audioOff - interruptAt).toBeLessThan(Math.max(300, inFlight + 150));
    expect(jawOff - interruptAt).toBeLessThan(300);
  });

  it('publishes the user audio for the agent without ever playing it back, and reconnects', async () => {
    const { Room, RoomEvent } = await import('@livekit/rtc-node');
    const agent = new Room();
    const at = new AccessToken(apiKey, apiSecret, { identity: 'agent-listener' });
    at.kind = 'agent';
    at.addGrant({ room: roomName, roomJoin: true, canSubscribe: true });
    await agent.connect(url, await at.toJwt(), { autoSubscribe: true, dynacast: false });
    try {
      // The agent hears the user's audio (it also gets the avatar's; only the viewer's counts here).
      const heard = new Promise<string>((resolve) =>
        agent.on(RoomEvent.TrackSubscribed, (_track, publication, participant) => {
          if (participant.identity.startsWith('viewer-')) resolve(`viewer:${publication.source}`);
        }),
      );
      await browser.page.evaluate(() =>
        (window as never as { rtc: { publishTone(): Promise<void> } }).rtc.publishTone(),
      );
      expect(await heard).toMatch(/^viewer:/);
      const state = await read();
      expect(state.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
      expect(state.audioElements).toBe(1);
      await browser.page.evaluate(() =>
        (window as never as { rtc: { unpublish(): Promise<void> } }).rtc.unpublish(),
      );

      const reconnected = await browser.page.evaluate(() =>
        (window as never as { rtc: { reconnect(): Promise<string> } }).rtc.reconnect(),
      );
      expect(reconnected).toBe('connected');
      const deadline = Date.now() + 10_000;
      let after = await read();
      while (after.subscribed.length === 0 && Date.now() < deadline) {
        await sleep(100);
        after = await read();
      }
      expect(after.subscribed).toEqual(['avatar-e2e/avatar-drive.audio']);
      expect(after.audioElements).toBe(1);
      expect(after.events.filter((e) => e.startsWith('connected@'))).toHaveLength(2);
      expect(after.events.some((e) => e.startsWith('disconnected@'))).toBe(true);
    } finally {
      await agent.disconnect();
    }
  });

  it('maps connection failures to typed errors', async () => {
    const attempt = (config: { url: string; token: string; roomName?: string }) =>
      browser.page.evaluate(
        (c) => (window as never as { rtc: { tryConnect(c: unknown): Promise<string> } }).rtc.tryConnect(c),
        config,
      );
    const good = await viewerToken(roomName);
    const forged = await new AccessToken(apiKey, 'not-the-secret-of-this-server-at-all', { identity: 'x' });
    forged.addGrant({ room: roomName, roomJoin: true });
    expect(await attempt({ url, token: good, roomName })).toBe('connected->disconnected');
    expect(await attempt({ url: 'http://127.0.0.1:1', token: good })).toBe('invalidRequest');
    expect(await attempt({ url, token: 'not-a-jwt' })).toBe('invalidRequest');
    expect(await attempt({ url, token: await forged.toJwt() })).toBe('sessionTokenInvalid');
    expect(await attempt({ url, token: good, roomName: 'another-room' })).toBe('invalidRequest');
    expect(await attempt({ url: 'ws://127.0.0.1:9', token: good })).toBe('connectionFailed');
  });

  it('reports stalled when the audio plays without frames, and nothing is left playing afterwards', async () => {
    const ended = once(session, 'ended', 'no-frames');
    speak(session, 'no-frames', speech, undefined);
    await ended;
    const r = await read();
    expect(r.events.some((e) => e.startsWith('stalled@'))).toBe(true);
  });
});
