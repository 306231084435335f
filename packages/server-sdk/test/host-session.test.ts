import { ARKIT_INDEX, type AvatarError } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AvatarSession,
  type AvatarSessionOptions,
  type PlaybackStateInfo,
  type RelayEvent,
} from '../src/index.js';
import { decodeRelay } from './support/relay-check.js';
import {
  AVATAR_ID,
  createFixtures,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  speech,
  startServiceProcess,
  stopAllServices,
  tone,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'ap-northeast', fixtures });
});
afterAll(stopAllServices);

function session(extra: Partial<AvatarSessionOptions> = {}): AvatarSession {
  return new AvatarSession({
    avatarId: AVATAR_ID,
    appId: fixtures.appId,
    apiKey: fixtures.apiKey,
    consoleUrl: service.url,
    ingressUrl: service.ingressUrl,
    sampleRate: 16000,
    ...extra,
  });
}

/** Sends `pcm` in `chunkMs` chunks, the last with end = true. */
function sendUtterance(s: AvatarSession, pcm: Int16Array, chunkMs = 100, sampleRate = 16000): string {
  const step = (sampleRate * chunkMs) / 1000;
  let reqId = '';
  for (let i = 0; i < pcm.length; i += step) {
    reqId = s.sendAudio(pcm.subarray(i, Math.min(pcm.length, i + step)), i + step >= pcm.length);
  }
  return reqId;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

describe('Host mode against the real service', () => {
  it('relays a full utterance: audio as sent, every frame, in order, last flags set', async () => {
    const relayed: Uint8Array[] = [];
    const order: string[] = [];
    const states: PlaybackStateInfo[] = [];
    const s = session({
      onAudio: (msg, info) => {
        relayed.push(msg);
        order.push(`audio${info.last ? ':last' : ''}`);
      },
      onFrames: (msg, isLast) => {
        relayed.push(msg);
        order.push(`frames${isLast ? ':last' : ''}`);
      },
      onPlaybackState: (state) => {
        states.push(state);
      },
    });
    const stream = s.relay();
    const streamed: RelayEvent[] = [];
    const consumed = (async () => {
      for await (const event of stream) streamed.push(event);
    })();
    const connectionId = await s.start();
    expect(connectionId).toMatch(/^conn_/);
    expect(s.state).toBe('connected');
    expect(s.capabilities).toEqual(expect.arrayContaining(['playback_control', 'playback_state']));
    const pcm = speech(1000);
    const reqId = sendUtterance(s, pcm);
    await until(() => order.includes('frames:last'));
    await until(() => states.some((x) => x.state === 'ended'), 5000);
    await s.close();
    await consumed;

    const conversations = decodeRelay(relayed);
    expect([...conversations.keys()]).toEqual([reqId]);
    const conv = conversations.get(reqId)!;
    expect(conv.audio).toEqual(pcm);
    expect(conv.audioMessages).toBe(10);
    expect(conv.audioLast).toBe(true);
    expect([...conv.sampleRates]).toEqual([16000]);
    expect(conv.frames).toHaveLength(25); // 1 s at 25 fps
    expect(conv.frames.map((f) => f.index)).toEqual([...Array(25).keys()]);
    // Real speech: the engine opens the mouth somewhere in this second.
    expect(Math.max(...conv.frames.map((f) => f.expression[ARKIT_INDEX.jawOpen]!))).toBeGreaterThan(0.1);
    expect(conv.animationLast).toBe(true);
    expect(order.filter((x) => x.endsWith(':last'))).toEqual(['audio:last', 'frames:last']);
    expect(order.at(-1)).toBe('frames:last');

    // The relay stream carried the same messages in the same order, then the end control.
    const media = streamed.filter((e) => e.type !== 'control').map((e) => e.data);
    expect(media).toEqual(relayed);
    expect(streamed.at(-1)).toMatchObject({ type: 'control', control: { type: 'end', reason: 'closed' } });
    expect(states.map((x) => x.state)).toEqual(['playing', 'ended']);
    expect(states.at(-1)!.playedMs).toBeGreaterThanOrEqual(990);
  });

  it('a sample-rate mismatch raises no error: 48 kHz audio on a 16 kHz session is read at 16 kHz (three times as long)', async () => {
    // The spec: audio at a rate other than the configured one plays distorted or silent, and no
    // error is raised. The service cannot tell the rates apart; it reads the samples at the
    // configured rate, so 1 s recorded at 48 kHz becomes 3 s of (slowed) speech and animation.
    const relayed: Uint8Array[] = [];
    const errors: AvatarError[] = [];
    const states: PlaybackStateInfo[] = [];
    const s = session({
      onAudio: (m) => {
        relayed.push(m);
      },
      onFrames: (m) => {
        relayed.push(m);
      },
      onPlaybackState: (state) => {
        states.push(state);
      },
      onError: (error) => {
        errors.push(error);
      },
    });
    await s.start();
    const recordedAt48k = speech(1000, 48000);
    const reqId = sendUtterance(s, recordedAt48k);
    await until(() => decodeRelay(relayed).get(reqId)?.animationLast === true);
    await until(() => states.some((x) => x.state === 'ended'), 10_000);
    expect(s.state).toBe('connected');
    await s.close();
    const conv = decodeRelay(relayed).get(reqId)!;
    expect(errors).toEqual([]);
    expect([...conv.sampleRates]).toEqual([16000]);
    expect(conv.audio).toEqual(recordedAt48k);
    expect(conv.frames).toHaveLength(75); // 48,000 samples at 16 kHz = 3 s at 25 fps
    expect(states.map((x) => x.state)).toEqual(['playing', 'ended']);
  });

  it('resamples when asked: 11025 Hz input is sent (and relayed) at 16000 Hz', async () => {
    const relayed: Uint8Array[] = [];
    const s = session({
      sampleRate: 11025,
      resample: true,
      onAudio: (m) => {
        relayed.push(m);
      },
      onFrames: (m) => {
        relayed.push(m);
      },
    });
    await s.start();
    expect(s.sampleRate).toBe(16000);
    const input = tone(500, 11025);
    const reqId = sendUtterance(s, input, 100, 11025);
    await until(() => decodeRelay(relayed).get(reqId)?.animationLast === true);
    await s.close();
    const conv = decodeRelay(relayed).get(reqId)!;
    expect([...conv.sampleRates]).toEqual([16000]);
    expect(conv.audio.length).toBe(Math.ceil((input.length * 16000) / 11025));
    expect(conv.frames).toHaveLength(Math.ceil(conv.audio.length / 640));
  });

  it('validates audio and state before sending', async () => {
    const s = session();
    expect(() => s.sendAudio(new Int16Array(10))).toThrow(/await session.start\(\) first/);
    await s.start();
    expect(() => s.sendAudio(new Uint8Array(3))).toThrow(expect.objectContaining({ code: 'invalidAudio' }));
    expect(() => s.sendAudio([1, 2] as unknown as Int16Array)).toThrow(
      expect.objectContaining({ code: 'invalidAudio' }),
    );
    await expect(s.pause()).rejects.toMatchObject({ code: 'invalidState' });
    await s.close();
    expect(() => s.sendAudio(new Int16Array(10))).toThrow(/closed/);
    await expect(s.start()).rejects.toMatchObject({ code: 'invalidState' });
    expect(() => session({ sampleRate: 11025 })).toThrow(
      expect.objectContaining({ code: 'unsupportedSampleRate' }),
    );
    expect(() => session({ avatarId: '' })).toThrow(/avatarId is required/);
    expect(() => session({ apiKey: undefined })).toThrow(/apiKey .* or sessionToken/);
    expect(() => session({ egress: { provider: 'livekit', url: 'wss://lk.example', room: 'r' } })).toThrow(
      expect.objectContaining({ code: 'invalidEgressConfig' }),
    );
  });

  it('interrupt stops the output at once and tells the browser; the next utterance plays', async () => {
    const relayed: Uint8Array[] = [];
    const events: RelayEvent[] = [];
    const states: PlaybackStateInfo[] = [];
    const s = session({
      onAudio: (m) => {
        relayed.push(m);
      },
      onFrames: (m) => {
        relayed.push(m);
      },
      onPlaybackState: (x) => {
        states.push(x);
      },
    });
    s.relay().on('event', (e) => events.push(e));
    await s.start();
    const first = s.sendAudio(tone(2000)); // no end: still streaming
    await until(() => events.some((e) => e.type === 'animation'));
    expect(s.interrupt()).toBe(first);
    const atInterrupt = events.length;
    expect(events.at(-1)).toMatchObject({
      type: 'control',
      control: { type: 'interrupt', conversationId: first },
    });
    await until(() => states.some((x) => x.reqId === first && x.state === 'interrupted'));
    expect(states.find((x) => x.state === 'interrupted')!.reason).toBe('explicit');
    // The rest of the interrupted turn (a TTS stream still running) is dropped: same id, nothing
    // sent or relayed, until its end chunk (or startTurn()).
    expect(s.turnInterrupted).toBe(true);
    expect(s.sendAudio(tone(200))).toBe(first);
    expect(s.sendAudio(tone(200), true)).toBe(first);
    expect(s.turnInterrupted).toBe(false);
    // Nothing more for the interrupted conversation; the next turn plays.
    const second = sendUtterance(s, tone(400));
    expect(second).not.toBe(first);
    await until(() => decodeRelay(relayed).get(second)?.animationLast === true);
    expect(events.slice(atInterrupt).every((e) => e.type === 'control' || e.conversationId === second)).toBe(
      true,
    );
    const decoded = decodeRelay(relayed);
    expect(decoded.get(first)!.animationLast).toBe(false);
    expect(decoded.get(second)!.frames).toHaveLength(10);
    await s.close();
  });

  it('pause and resume are acknowledged by the service and relayed to the browser', async () => {
    const events: RelayEvent[] = [];
    const states: PlaybackStateInfo[] = [];
    const s = session({
      onPlaybackState: (x) => {
        states.push(x);
      },
    });
    s.relay().on('event', (e) => events.push(e));
    await s.start();
    const reqId = sendUtterance(s, tone(1500));
    await until(() => states.some((x) => x.state === 'playing'));
    await sleep(200);
    const paused = await s.pause();
    expect(paused).toMatchObject({ reqId, state: 'paused' });
    expect(paused.playedMs).toBeGreaterThan(100);
    expect(paused.playedMs).toBeLessThan(1500);
    await sleep(300);
    const resumed = await s.resume();
    expect(resumed).toMatchObject({ reqId, state: 'playing' });
    // Paused time does not count as played.
    expect(resumed.playedMs - paused.playedMs).toBeLessThan(150);
    await until(() => states.some((x) => x.state === 'ended'), 5000);
    const controls = events
      .filter((e) => e.type === 'control')
      .map((e) => (e.type === 'control' ? e.control.type : ''));
    expect(controls).toEqual(['pause', 'resume']);
    // After the end, pause reports ENDED.
    expect((await s.pause()).state).toBe('ended');
    await s.close();
  });

  it('delivers callbacks in order, one at a time, across many concurrent sessions; a throwing callback is reported', async () => {
    const SESSIONS = 12;
    const started = performance.now();
    let totalFrames = 0;
    let totalCallbacks = 0;
    const results = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, n) => {
        let active = 0;
        let overlapped = false;
        const relayed: Uint8Array[] = [];
        const errors: AvatarError[] = [];
        let closes = 0;
        const enter = async (msg: Uint8Array) => {
          active += 1;
          if (active > 1) overlapped = true;
          relayed.push(msg);
          totalCallbacks += 1;
          // Slow, async consumers must hold back the next delivery.
          if (relayed.length % 3 === 0) await sleep(1);
          active -= 1;
          if (relayed.length === 5 && n % 2 === 0) throw new Error('consumer bug');
        };
        const s = session({
          onAudio: (m) => enter(m),
          onFrames: (m) => enter(m),
          onError: (e) => {
            errors.push(e);
          },
          onClose: () => {
            closes += 1;
          },
        });
        await s.start();
        const ids = [sendUtterance(s, tone(400), 20), sendUtterance(s, tone(400), 20)];
        await until(() => ids.every((id) => decodeRelay(relayed).get(id)?.animationLast === true), 20_000);
        await s.close();
        await s.close();
        return { s, ids, relayed, errors, overlapped, closes, n };
      }),
    );
    const elapsed = performance.now() - started;
    for (const r of results) {
      expect(r.overlapped).toBe(false);
      expect(r.closes).toBe(1);
      const decoded = decodeRelay(r.relayed); // throws on any duplicate, gap or reordering
      for (const id of r.ids) {
        expect(decoded.get(id)!.frames).toHaveLength(10);
        expect(decoded.get(id)!.audioMessages).toBe(20);
      }
      if (r.n % 2 === 0) {
        expect(r.errors.map((e) => e.code)).toEqual(['unknown']);
        expect(r.errors[0]!.message).toMatch(/onAudio callback threw \(consumer bug\)/);
      } else {
        expect(r.errors).toEqual([]);
      }
      totalFrames += r.ids.reduce((sum, id) => sum + decodeRelay(r.relayed).get(id)!.frames.length, 0);
    }
    console.log(
      `[server-sdk] ${SESSIONS} concurrent sessions: ${totalCallbacks} ordered callbacks, ${totalFrames} frames in ${Math.round(elapsed)} ms`,
    );
  });

  it('RTC mode sends the egress config: Agora, which this service lacks, answers egressUnavailable', async () => {
    const s = session({
      reconnect: false,
      egress: { provider: 'agora', channel: 'demo', token: 'an-agora-token', uid: 7 },
    });
    expect(() => s.relay()).toThrow(/Host mode/);
    const error = await s.start().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    expect(error).toMatchObject({ code: 'egressUnavailable', phase: 'configure', closeCode: 4502 });
    expect(error!.message).toMatch(/Agora egress is not configured on this server/);
    expect(error!.message).not.toContain('an-agora-token');
  });

  it('RTC mode with LiveKit credentials the room server rejects answers invalidEgressConfig, secret kept out', async () => {
    const livekitUrl = process.env.LIVEKIT_URL;
    if (!livekitUrl) {
      console.log(
        'skipped: LIVEKIT_URL is not set (scripts/test-all.sh starts the LiveKit server and sets it)',
      );
      return;
    }
    const s = session({
      reconnect: false,
      egress: {
        provider: 'livekit',
        url: livekitUrl,
        room: 'demo',
        apiKey: 'devkey',
        apiSecret: 'a-wrong-livekit-secret',
        publisherId: 'agent-1',
        extraAttributes: { role: 'avatar' },
        idleTimeout: 30,
      },
    });
    const error = await s.start().then(
      () => undefined,
      (e: AvatarError) => e,
    );
    expect(error).toMatchObject({ code: 'invalidEgressConfig', phase: 'configure' });
    expect(error!.message).not.toContain('a-wrong-livekit-secret');
  });
});
