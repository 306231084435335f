import {
  ARKIT_INDEX,
  type AvatarError,
  createDriveFrame,
  type DriveFrame,
  RelayEncoder,
  responseAnimationMessage,
} from '@avatar-drive/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarController, type AvatarControllerOptions } from '../../src/avatar-controller.js';
import { AvatarSDK } from '../../src/sdk.js';
import { type Behaviour, FakeIngress } from './fake-ingress.js';
import { FakeOutput } from './fakes.js';

const SR = 16000;
const PRIMARY = '127.0.0.1:9101';
const BACKUP = '127.0.0.1:9102';
const regions = {
  east: { consoleUrl: `http://${PRIMARY}`, ingressUrl: `ws://${PRIMARY}/v2/driveningress` },
  west: { consoleUrl: `http://${BACKUP}`, ingressUrl: `ws://${BACKUP}/v2/driveningress` },
};

function frames(from: number, count: number): DriveFrame[] {
  return Array.from({ length: count }, (_, i) => {
    const f = createDriveFrame(from + i);
    f.expression[ARKIT_INDEX.jawOpen] = 0.5;
    return f;
  });
}

interface Harness {
  controller: AvatarController;
  events: string[];
  output: FakeOutput;
  ingress: FakeIngress;
  cuts: number;
}

function setup(
  mode: 'sdk' | 'host',
  behaviours: Record<string, Behaviour> = {},
  extra: AvatarControllerOptions = {},
): Harness {
  AvatarSDK.initialize('app-1', {
    region: 'east',
    backupRegion: 'west',
    regions,
    drivingServiceMode: mode,
    audioFormat: { channelCount: 1, sampleRate: SR },
    logLevel: 'silent',
  });
  AvatarSDK.setSessionToken('token-1');
  const output = new FakeOutput();
  const ingress = new FakeIngress(behaviours);
  const h: Harness = { controller: undefined as never, events: [], output, ingress, cuts: 0 };
  h.controller = new AvatarController(
    { avatarId: 'mika', cutSpeech: () => (h.cuts += 1) },
    {
      createOutput: () => output,
      webSocket: ingress.factory,
      jitterBufferMs: 40,
      backoffMs: 100,
      // Exact backoff steps, so the timeline below can be asserted with fake timers.
      reconnect: { jitter: 0 },
      ...extra,
    },
  );
  let depth = 0;
  const rec = (kind: string) => (value: unknown) => {
    depth += 1;
    h.events.push(
      `${depth > 1 ? 'NESTED ' : ''}${kind}:${typeof value === 'string' ? value : (value as AvatarError).code}`,
    );
    depth -= 1;
  };
  h.controller.onConnectionState = rec('connection');
  h.controller.onConversationState = rec('conversation');
  h.controller.onError = rec('error');
  return h;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
  AvatarSDK.reset();
});
afterEach(() => {
  vi.useRealTimers();
  AvatarSDK.reset();
});

describe('AvatarSDK', () => {
  it('must be initialized once, before anything else', () => {
    expect(() => AvatarSDK.setSessionToken('x')).toThrow(expect.objectContaining({ code: 'notInitialized' }));
    expect(() => new AvatarController({ avatarId: 'a', cutSpeech() {} })).toThrow(
      expect.objectContaining({ code: 'notInitialized' }),
    );
    const options = {
      drivingServiceMode: 'sdk' as const,
      audioFormat: { channelCount: 1 as const, sampleRate: SR },
    };
    expect(() =>
      AvatarSDK.initialize('app', { ...options, audioFormat: { channelCount: 1, sampleRate: 11025 } }),
    ).toThrow(expect.objectContaining({ code: 'unsupportedSampleRate' }));
    expect(() => AvatarSDK.initialize('app', { ...options, region: 'mars' })).toThrow(
      expect.objectContaining({ code: 'invalidRequest' }),
    );
    AvatarSDK.initialize('app', options);
    expect(AvatarSDK.config.endpoints.map((e) => e.region)).toEqual(['ap-northeast', 'us-west']);
    expect(() => AvatarSDK.initialize('app', options)).toThrow(
      expect.objectContaining({ code: 'invalidState' }),
    );
  });
});

describe('AvatarController, SDK mode', () => {
  it('reports connecting → connected → idle, playing per chunk, idle once the final chunk has played', async () => {
    const h = setup('sdk', { [PRIMARY]: { kind: 'accept' } });
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(10);
    await started;
    expect(h.events).toEqual(['connection:connecting', 'connection:connected', 'conversation:idle']);
    expect(h.controller.session?.endpoint.region).toBe('east');
    const socket = h.ingress.last;
    expect(socket.url).toContain('id=mika');
    expect(socket.url).toContain('sessionKey=token-1');
    expect(socket.received[0]!.data.case).toBe('clientConfigureSession');

    const reqId = h.controller.send(new Int16Array(SR / 5), false); // 200 ms
    h.controller.send(new Int16Array(SR / 5), true);
    expect(h.events.slice(3)).toEqual(['conversation:playing', 'conversation:playing']);
    expect(socket.received.filter((m) => m.data.case === 'clientAudioInput')).toHaveLength(2);
    socket.animate(reqId, frames(0, 10), true);
    await vi.advanceTimersByTimeAsync(5);
    expect(h.output.played).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(300);
    expect(h.controller.conversationState).toBe('playing');
    await vi.advanceTimersByTimeAsync(200);
    expect(h.events.slice(5)).toEqual(['conversation:idle']);
    expect(h.events.every((e) => !e.startsWith('NESTED'))).toBe(true);

    h.controller.close();
    expect(h.events.at(-1)).toBe('connection:disconnected');
  });

  it('validates audio against the configured format and needs a connection', async () => {
    const h = setup('sdk', { [PRIMARY]: { kind: 'accept' } });
    expect(() => h.controller.send(new Int16Array(10))).toThrow(
      expect.objectContaining({ code: 'invalidState' }),
    );
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(10);
    await started;
    expect(() => h.controller.send(new Uint8Array(3))).toThrow(
      expect.objectContaining({ code: 'invalidAudio' }),
    );
    expect(() => h.controller.send(new Float32Array(4) as never)).toThrow(
      expect.objectContaining({ code: 'invalidAudio' }),
    );
    expect(() => h.controller.yieldAudioData(new Uint8Array(10))).toThrow(
      expect.objectContaining({ code: 'invalidState' }),
    );
  });

  it('interrupt stops audio and animation at once and names the request', async () => {
    const h = setup('sdk', { [PRIMARY]: { kind: 'accept' } });
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(10);
    await started;
    const reqId = h.controller.send(new Int16Array(SR), true);
    h.ingress.last.animate(reqId, frames(0, 25), true);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.output.played.some((c) => !c.stopped)).toBe(true);
    h.controller.interrupt();
    expect(h.output.played.every((c) => c.stopped)).toBe(true);
    expect(h.cuts).toBe(1);
    expect(h.controller.conversationState).toBe('idle');
    expect(h.events.slice(-2)).toEqual(['conversation:playing', 'conversation:idle']);
    const sent = h.ingress.last.received.at(-1)!;
    expect(sent.data.case).toBe('clientInterrupt');
    expect(sent.data.value).toMatchObject({ reqId });
    // Late animation of the interrupted request is ignored.
    h.ingress.last.animate(reqId, frames(25, 5), true);
    await vi.advanceTimersByTimeAsync(50);
    expect(h.controller.frameForRender()).toBeUndefined();
  });

  it('pause stops the audio clock and resume continues, with one control message each', async () => {
    const h = setup('sdk', {
      [PRIMARY]: { kind: 'accept', capabilities: ['playback_control', 'playback_state'] },
    });
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(10);
    await started;
    await expect(h.controller.pause()).rejects.toMatchObject({ code: 'invalidState' });
    const reqId = h.controller.send(new Int16Array(SR / 2), true);
    h.ingress.last.animate(reqId, frames(0, 13), true);
    await vi.advanceTimersByTimeAsync(100);
    await h.controller.pause();
    expect(h.output.suspended).toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.controller.conversationState).toBe('paused');
    await h.controller.resume();
    expect(h.output.suspended).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(h.events.slice(3)).toEqual([
      'conversation:playing',
      'conversation:paused',
      'conversation:playing',
      'conversation:idle',
    ]);
    const cases = h.ingress.last.received.map((m) => m.data.case);
    expect(cases.filter((c) => c === 'clientPause')).toHaveLength(1);
    expect(cases.filter((c) => c === 'clientResume')).toHaveLength(1);
  });

  it('moves to the backup region after a retryable failure', async () => {
    const h = setup('sdk', { [PRIMARY]: { kind: 'refuse' }, [BACKUP]: { kind: 'accept' } });
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(20);
    await started;
    expect(h.ingress.sockets.map((s) => new URL(s.url).host)).toEqual([PRIMARY, BACKUP]);
    expect(h.controller.session?.endpoint.region).toBe('west');
    expect(h.events).toEqual(['connection:connecting', 'connection:connected', 'conversation:idle']);
  });

  it('retries 45xx with backoff across regions, then fails', async () => {
    const down: Behaviour = { kind: 'close', code: 4503, message: 'upstream down' };
    const h = setup('sdk', { [PRIMARY]: down, [BACKUP]: down }, { maxConnectAttempts: 4 });
    const started = h.controller.start().catch((e: AvatarError) => e);
    await vi.advanceTimersByTimeAsync(20);
    expect(h.ingress.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(70); // backoff of 100 ms not over yet
    expect(h.ingress.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(40);
    expect(h.ingress.sockets).toHaveLength(4);
    const error = (await started) as AvatarError;
    expect(error).toMatchObject({ code: 'upstreamError', closeCode: 4503, retryable: true });
    expect(h.events).toEqual(['connection:connecting', 'connection:failed', 'error:upstreamError']);
  });

  it('never retries 40xx on its own', async () => {
    const h = setup('sdk', {
      [PRIMARY]: { kind: 'close', code: 4003, message: 'concurrencyLimit: too many sessions' },
      [BACKUP]: { kind: 'accept' },
    });
    const started = h.controller.start().catch((e: AvatarError) => e);
    await vi.advanceTimersByTimeAsync(50);
    expect(await started).toMatchObject({ code: 'concurrencyLimit', closeCode: 4003, retryable: false });
    expect(h.ingress.sockets).toHaveLength(1);
    expect(h.events).toEqual(['connection:connecting', 'connection:failed', 'error:concurrencyLimit']);
  });

  it('reports a dropped session as failed, and callbacks that call back in are queued, not nested', async () => {
    const h = setup('sdk', { [PRIMARY]: { kind: 'accept' } });
    h.controller.onError = (error) => {
      h.events.push(`error:${error.code}`);
      h.controller.close(); // re-entrant call from a callback
      h.events.push('after close');
    };
    const started = h.controller.start();
    await vi.advanceTimersByTimeAsync(10);
    await started;
    h.controller.send(new Int16Array(1600), false);
    h.ingress.last.serverClose(4002, 'session duration limit');
    await vi.advanceTimersByTimeAsync(10);
    expect(h.events.slice(3)).toEqual([
      'conversation:playing',
      'conversation:idle',
      'connection:failed',
      'error:sessionDurationExceeded',
      'after close',
      'connection:disconnected',
    ]);
  });
});

describe('AvatarController, Host mode', () => {
  const animation = (reqId: string, from: number, count: number, end: boolean) => {
    const m = responseAnimationMessage({ reqId, frames: frames(from, count), end });
    return m.data.value as Parameters<RelayEncoder['animation']>[1];
  };

  it('returns the conversation id, drops other conversations silently, plays audio-only on empty animation', async () => {
    const h = setup('host');
    const server = new RelayEncoder();
    const a1 = server.audio('conv-a', new Int16Array(SR / 10), { sampleRate: SR });
    expect(h.controller.yieldAudioData(a1)).toBe('conv-a');
    expect(h.controller.getCurrentConversationId()).toBe('conv-a');
    const other = new RelayEncoder().animation('conv-x', animation('r', 0, 5, true));
    h.controller.yieldFramesData([other], 'conv-a'); // another conversation's message inside
    h.controller.yieldFramesData(
      [new RelayEncoder().animation('conv-a', animation('r', 0, 3, false))],
      'conv-x',
    ); // wrong id
    await vi.advanceTimersByTimeAsync(10);
    expect(h.output.played).toHaveLength(0); // still waiting for conv-a's animation
    h.controller.yieldFramesData([server.animation('conv-a', animation('r', 0, 3, true))], 'conv-a');
    await vi.advanceTimersByTimeAsync(50);
    expect(h.output.played).toHaveLength(1);
    expect(h.controller.frameForRender()?.expression[ARKIT_INDEX.jawOpen]).toBeCloseTo(0.5, 6);

    // A new conversation replaces the current one; it has no animation at all.
    const b1 = server.audio('conv-b', new Int16Array(SR / 10), { sampleRate: SR, last: true });
    expect(h.controller.yieldAudioData(b1)).toBe('conv-b');
    expect(h.output.played[0]!.stopped).toBe(true);
    h.controller.yieldFramesData([], 'conv-b');
    await vi.advanceTimersByTimeAsync(50);
    expect(h.output.played).toHaveLength(2);
    expect(h.controller.frameForRender()).toBeUndefined(); // audio-only: idle animation only
    // Late audio of the replaced conversation is ignored.
    expect(h.controller.yieldAudioData(server.audio('conv-a', new Int16Array(10), { sampleRate: SR }))).toBe(
      'conv-a',
    );
    expect(h.output.played).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.events).toEqual(['conversation:playing', 'conversation:playing', 'conversation:idle']);
    expect(h.controller.getCurrentConversationId()).toBeUndefined();
  });

  it('reports duplicated, lost and reordered relay messages as protocolError', async () => {
    const h = setup('host');
    const server = new RelayEncoder();
    const m0 = server.audio('c', new Int16Array(10), { sampleRate: SR });
    const m1 = server.audio('c', new Int16Array(10), { sampleRate: SR });
    const m2 = server.audio('c', new Int16Array(10), { sampleRate: SR });
    h.controller.yieldAudioData(m0);
    expect(() => h.controller.yieldAudioData(m0)).toThrow(
      expect.objectContaining({
        code: 'protocolError',
        details: expect.objectContaining({ problem: 'duplicate' }),
      }),
    );
    expect(() => h.controller.yieldAudioData(m2)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ problem: 'missing' }) }),
    );
    expect(() => h.controller.yieldAudioData(m1)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ problem: 'out-of-order' }) }),
    );
    expect(() => h.controller.yieldAudioData(new Uint8Array([1, 2, 3]))).toThrow(
      expect.objectContaining({ code: 'protocolError' }),
    );
    await expect(h.controller.start()).rejects.toMatchObject({ code: 'invalidState' });
  });
});
