/**
 * client-core's AvatarController against the real driving service over real WebSockets (the
 `ws` package as the platform's WebSocket), in Node: the spec's callback order in SDK mode, the
 * mouth moving with the audio clock, interrupt, expired and reused session tokens, region
 * fallback when the primary's process is killed, and Host mode fed by the real server SDK.
 */
import { ARKIT_INDEX, type AvatarError } from '@avatar-drive/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AvatarSession, createSessionToken } from '../../../server-sdk/src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  freePort,
  regionsFor,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  speech,
  startServiceProcess,
  stopAllServices,
} from '../../../server-sdk/test/support/service-process.js';
import {
  AvatarController,
  type AvatarControllerOptions,
  AvatarSDK,
  type AvatarSDKOptions,
  createAvatarManager,
  DrivingServiceMode,
  type LoadProgress,
  MemoryAssetStore,
  type WebSocketLike,
} from '../../src/index.js';
import { ClockOutput } from './clock-output.js';

let fixtures: ServiceFixtures;
let primary: ServiceProcess;
let backup: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  [primary, backup] = await Promise.all([
    startServiceProcess({ region: 'ap-northeast', fixtures }),
    startServiceProcess({ region: 'us-west', fixtures }),
  ]);
});
afterAll(async () => {
  await stopAllServices();
});
afterEach(() => {
  for (const c of controllers.splice(0)) c.dispose();
  AvatarSDK.reset();
});

const controllers: AvatarController[] = [];

interface Rig {
  c: AvatarController;
  output: ClockOutput;
  events: string[];
  /** Every ingress URL a WebSocket was opened to. */
  opened: string[];
  cuts: number;
}

function rig(
  mode: 'sdk' | 'host',
  options: Partial<AvatarSDKOptions> = {},
  extra: AvatarControllerOptions = {},
): Rig {
  AvatarSDK.initialize(fixtures.appId, {
    regions: regionsFor(primary, backup),
    region: 'ap-northeast',
    backupRegion: 'us-west',
    drivingServiceMode: mode === 'sdk' ? DrivingServiceMode.sdk : DrivingServiceMode.host,
    logLevel: 'none',
    ...options,
  });
  const output = new ClockOutput();
  const r: Rig = { c: undefined as never, output, events: [], opened: [], cuts: 0 };
  r.c = new AvatarController(
    { avatarId: AVATAR_ID, cutSpeech: () => (r.cuts += 1) },
    {
      createOutput: () => output,
      webSocket: (url) => {
        r.opened.push(url.slice(0, url.indexOf('?')));
        return new WebSocket(url) as unknown as WebSocketLike;
      },
      backoffMs: 50,
      ...extra,
    },
  );
  controllers.push(r.c);
  // `failed` carries the failure's code (as on iOS and Android); the same error then reaches onError.
  r.c.onConnectionState = (s, failure) =>
    r.events.push(s === 'failed' ? `connection:failed:${failure?.code}` : `connection:${s}`);
  r.c.onConversationState = (s) => r.events.push(`conversation:${s}`);
  r.c.onError = (e) => r.events.push(`error:${e.code}`);
  return r;
}

const token = (consoleUrl = backup.url, expireAt?: number) =>
  createSessionToken({
    apiKey: fixtures.apiKey,
    consoleUrl,
    ...(expireAt !== undefined && { expireAt }),
  });

/** Renders like a view does (every 20 ms) until the conversation is idle; returns the largest jawOpen seen. */
async function renderUntilIdle(r: Rig, limitMs = 15_000): Promise<{ maxJaw: number; frames: number }> {
  const deadline = Date.now() + limitMs;
  let maxJaw = 0;
  let frames = 0;
  while (r.c.conversationState !== 'idle') {
    if (Date.now() > deadline)
      throw new Error(`still ${r.c.conversationState} after ${limitMs} ms: ${r.events}`);
    const frame = r.c.frameForRender();
    if (frame) {
      frames += 1;
      maxJaw = Math.max(maxJaw, frame.expression[ARKIT_INDEX.jawOpen]!);
    }
    await sleep(20);
  }
  return { maxJaw, frames };
}

function chunks(pcm: Int16Array, count: number): Int16Array[] {
  const size = Math.ceil(pcm.length / count);
  return Array.from({ length: count }, (_, i) =>
    pcm.subarray(i * size, Math.min(pcm.length, (i + 1) * size)),
  );
}

describe('SDK mode against the real service', () => {
  it('calls back in the spec order and moves the mouth with the audio (16000 Hz by default)', async () => {
    const r = rig('sdk');
    expect(AvatarSDK.config.sampleRate).toBe(16000); // audioFormat left out: the spec's default
    AvatarSDK.sessionToken = await token(primary.url);
    await r.c.start();
    expect(r.events).toEqual(['connection:connecting', 'connection:connected', 'conversation:idle']);
    expect(r.c.session?.endpoint.region).toBe('ap-northeast');

    const pcm = speech(1600);
    const parts = chunks(pcm, 4);
    parts.forEach((part, i) => {
      r.c.send(part, i === parts.length - 1);
    });
    const { maxJaw, frames } = await renderUntilIdle(r);
    expect(r.events.slice(3)).toEqual([
      'conversation:playing',
      'conversation:playing',
      'conversation:playing',
      'conversation:playing',
      'conversation:idle',
    ]);
    expect(frames).toBeGreaterThan(20);
    expect(maxJaw).toBeGreaterThan(0.1);
    expect(r.output.heardSeconds()).toBeCloseTo(pcm.length / 16000, 2);
    r.c.close();
    expect(r.events.at(-1)).toBe('connection:disconnected');
  });

  it('interrupt stops audio and mouth at once; the next utterance plays', async () => {
    const r = rig('sdk');
    AvatarSDK.sessionToken = await token(primary.url);
    await r.c.start();
    const pcm = speech(3000);
    for (const part of chunks(pcm, 6)) r.c.send(part, false);
    const deadline = Date.now() + 10_000;
    while (!r.c.frameForRender()) {
      if (Date.now() > deadline) throw new Error('no frame within 10 s');
      await sleep(20);
    }
    r.c.interrupt();
    const at = r.output.currentTime;
    expect(r.c.conversationState).toBe('idle');
    expect(r.cuts).toBe(1);
    // Every scheduled chunk is stopped (or had already finished) by the interrupt.
    for (const p of r.output.played) {
      const end = p.when + p.samples.length / p.sampleRate;
      expect(p.stoppedAt !== undefined || end <= at).toBe(true);
    }
    for (let i = 0; i < 15; i++) {
      expect(r.c.frameForRender()).toBeUndefined();
      await sleep(20);
    }
    expect(r.events.filter((e) => e.startsWith('error'))).toEqual([]);

    r.c.send(speech(800), true);
    const { maxJaw } = await renderUntilIdle(r);
    expect(maxJaw).toBeGreaterThan(0.1);
    expect(r.events.slice(-2)).toEqual(['conversation:playing', 'conversation:idle']);
  });

  it('an expired session token is refused once, never retried: failed + sessionTokenExpired', async () => {
    const r = rig('sdk');
    const expireAt = Math.floor(Date.now() / 1000) + 2;
    AvatarSDK.setSessionToken(await token(primary.url, expireAt));
    while (Date.now() / 1000 <= expireAt + 0.2) await sleep(100);
    const error = (await r.c.start().catch((e: AvatarError) => e)) as AvatarError;
    expect(error).toMatchObject({ code: 'sessionTokenExpired', retryable: false });
    expect(r.events).toEqual([
      'connection:connecting',
      'connection:failed:sessionTokenExpired',
      'error:sessionTokenExpired',
    ]);
    expect(r.opened).toEqual([primary.ingressUrl]);
  });

  it('a reused session token is refused (sessionTokenInvalid), not retried in another region', async () => {
    const r = rig('sdk');
    AvatarSDK.sessionToken = await token(primary.url);
    await r.c.start();
    r.c.close();
    r.events.length = 0;
    const error = (await r.c.start().catch((e: AvatarError) => e)) as AvatarError;
    // The refusal is named (Node's ws reports the upgrade's 401) and not retried elsewhere,
    // where a region with its own single-use ledger would have taken the spent token again.
    expect(error).toMatchObject({ code: 'sessionTokenInvalid', retryable: false, httpStatus: 401 });
    expect(error.message).toMatch(/^Invalid session token/);
    expect(r.events).toEqual([
      'connection:connecting',
      'connection:failed:sessionTokenInvalid',
      'error:sessionTokenInvalid',
    ]);
    expect(r.opened).toEqual([primary.ingressUrl, primary.ingressUrl]);
  });
});

describe('region fallback against real processes', () => {
  it('a killed primary: the session drops as failed; the next start() lands in the backup region', async () => {
    const doomed = await startServiceProcess({ region: 'ap-northeast', fixtures, port: await freePort() });
    const r = rig('sdk', { regions: regionsFor(doomed, backup) });
    AvatarSDK.sessionToken = await token(backup.url);
    await r.c.start();
    expect(r.c.session?.endpoint.region).toBe('ap-northeast');
    r.c.send(speech(2000), false);
    await doomed.stop('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (r.c.connectionState !== 'failed') {
      if (Date.now() > deadline) throw new Error(`no failure after the kill: ${r.events}`);
      await sleep(20);
    }
    expect(r.events.slice(-2)).toEqual(['connection:failed:connectionClosed', 'error:connectionClosed']);
    expect(r.c.conversationState).toBe('idle');

    // A fresh token (the old one was consumed): the dead primary refuses, the backup takes it.
    r.events.length = 0;
    AvatarSDK.sessionToken = await token(backup.url);
    await r.c.start();
    expect(r.c.session?.endpoint.region).toBe('us-west');
    expect(r.opened.slice(-2)).toEqual([doomed.ingressUrl, backup.ingressUrl]);
    expect(r.events).toEqual(['connection:connecting', 'connection:connected', 'conversation:idle']);
    r.c.send(speech(600), true);
    expect((await renderUntilIdle(r)).maxJaw).toBeGreaterThan(0.05);
  });
});

describe('reconnect after a drop (refreshSessionToken)', () => {
  it('a primary shut down mid-session: failed, then connecting → connected in the backup region on its own', async () => {
    const doomed = await startServiceProcess({ region: 'ap-northeast', fixtures, port: await freePort() });
    let refreshed = 0;
    const r = rig(
      'sdk',
      { regions: regionsFor(doomed, backup) },
      {
        refreshSessionToken: async () => {
          refreshed += 1;
          return token(backup.url);
        },
      },
    );
    AvatarSDK.sessionToken = await token(backup.url);
    await r.c.start();
    r.events.length = 0;
    await doomed.stop('SIGTERM');
    const deadline = Date.now() + 20_000;
    while (r.c.connectionState !== 'connected' || r.c.session?.endpoint.region !== 'us-west') {
      if (Date.now() > deadline) throw new Error(`no reconnect: ${r.events}`);
      await sleep(20);
    }
    expect(refreshed).toBe(1);
    // The service's ServerError (4503, shutting down) and its close are one error, reported once.
    expect(r.events).toEqual([
      'connection:failed:upstreamError',
      'error:upstreamError',
      'connection:connecting',
      'connection:connected',
      'conversation:idle',
    ]);
    r.c.send(speech(600), true);
    expect((await renderUntilIdle(r)).maxJaw).toBeGreaterThan(0.05);
  });
});

describe('Host mode fed by the real server SDK', () => {
  /** A Host-mode AvatarSession whose relay messages go straight to `deliver`, in order. */
  async function hostSession(deliver: (kind: 'audio' | 'frames', msg: Uint8Array, id: string) => void) {
    const session = new AvatarSession({
      avatarId: AVATAR_ID,
      appId: fixtures.appId,
      apiKey: fixtures.apiKey,
      sampleRate: 16000,
      regions: regionsFor(backup, primary),
      region: 'ap-northeast',
      onAudio: (msg, info) => deliver('audio', msg, info.conversationId),
      onFrames: (msg, _last, info) => deliver('frames', msg, info.conversationId),
    });
    await session.start();
    return session;
  }

  it('yield() / yieldFramesData play audio with animation, states in order, no connection events', async () => {
    const r = rig('host');
    const ids = new Set<string>();
    const session = await hostSession((kind, msg, id) => {
      if (kind === 'audio') ids.add(r.c.yield(msg));
      else r.c.yieldFramesData([msg], id);
    });
    try {
      const parts = chunks(speech(1600), 4);
      parts.forEach((part, i) => {
        session.sendAudio(part, i === parts.length - 1);
      });
      const deadline = Date.now() + 10_000;
      while (r.c.conversationState === 'idle') {
        if (Date.now() > deadline) throw new Error('nothing relayed');
        await sleep(10);
      }
      const { maxJaw, frames } = await renderUntilIdle(r);
      expect(ids.size).toBe(1);
      expect(frames).toBeGreaterThan(20);
      expect(maxJaw).toBeGreaterThan(0.1);
      expect(r.events.at(-1)).toBe('conversation:idle');
      expect(r.events.every((e) => e.startsWith('conversation:'))).toBe(true);
      expect(new Set(r.events.slice(0, -1))).toEqual(new Set(['conversation:playing']));
      expect(r.c.connectionState).toBe('disconnected');
    } finally {
      await session.close();
    }
  });

  it('yieldFramesData(undefined, id) → audio-only: the audio plays, animation yielded later is ignored', async () => {
    const r = rig('host');
    let framesOffered = 0;
    const session = await hostSession((kind, msg, id) => {
      if (kind === 'audio') {
        const conversationId = r.c.yieldAudioData(msg);
        r.c.yieldFramesData(undefined, conversationId);
      } else {
        framesOffered += 1;
        r.c.yieldFramesData([msg], id);
      }
    });
    try {
      const pcm = speech(1200);
      session.sendAudio(pcm, true);
      const deadline = Date.now() + 10_000;
      while (r.c.conversationState === 'idle') {
        if (Date.now() > deadline) throw new Error('nothing relayed');
        await sleep(10);
      }
      const { frames } = await renderUntilIdle(r);
      expect(framesOffered).toBeGreaterThan(0);
      expect(frames).toBe(0);
      expect(r.output.heardSeconds()).toBeCloseTo(pcm.length / 16000, 2);
    } finally {
      await session.close();
    }
  });
});

describe('AvatarManager over a platform asset store, from the real console', () => {
  it('loads with byte progress, loads again from the store, downloads again after clear(id)', async () => {
    AvatarSDK.initialize(fixtures.appId, {
      regions: regionsFor(primary, backup),
      region: 'ap-northeast',
      drivingServiceMode: 'sdk',
      logLevel: 'none',
    });
    const manager = createAvatarManager(async () => new MemoryAssetStore());
    const progress: LoadProgress[] = [];
    const first = await manager.load(AVATAR_ID, (p) => progress.push(p));
    expect(first.id).toBe(AVATAR_ID);
    expect(first.model.byteLength).toBeGreaterThan(1000);
    expect(first.downloadedBytes).toBe(first.model.byteLength);
    expect(progress.at(-1)).toMatchObject({ progress: 1, loadedBytes: first.model.byteLength });
    expect(progress.some((p) => p.progress < 1)).toBe(true);

    const again = await manager.load(AVATAR_ID);
    expect(again.downloadedBytes).toBe(0);
    expect(new Uint8Array(again.model)).toEqual(new Uint8Array(first.model));

    await manager.clear(AVATAR_ID);
    expect((await manager.load(AVATAR_ID)).downloadedBytes).toBe(first.model.byteLength);
    await expect(manager.load('no-such-avatar')).rejects.toMatchObject({ code: 'avatarNotFound' });
  });
});
