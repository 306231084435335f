/**
 * The spec's names on client-web's public API: `environment`, the spec's log levels,
 * `DrivingServiceMode` at runtime, the 16000 Hz default, an assignable `AvatarSDK.sessionToken`,
 * `controller.yield()`, and `yieldFramesData(undefined | [], id)` → audio-only with later
 * animation ignored. (The same rules run against the real service in client-core's tests.)
 */
import { ARKIT_INDEX, createDriveFrame, RelayEncoder, responseAnimationMessage } from '@avatar-drive/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarController, AvatarSDK, DrivingServiceMode, Environment } from '../../src/index.js';
import { FakeOutput } from './fake-output.js';

afterEach(() => AvatarSDK.reset());

describe('AvatarSDK.initialize takes the spec names', () => {
  it('accepts environment: Environment.intl and maps it to ap-northeast with us-west as backup', () => {
    AvatarSDK.initialize('app', { environment: Environment.intl, drivingServiceMode: 'sdk' });
    expect(AvatarSDK.config.endpoints.map((e) => e.region)).toEqual(['ap-northeast', 'us-west']);
    AvatarSDK.reset();
    AvatarSDK.initialize('app', { environment: 'us-west', drivingServiceMode: 'sdk' });
    expect(AvatarSDK.config.endpoints.map((e) => e.region)).toEqual(['us-west', 'ap-northeast']);
    AvatarSDK.reset();
    expect(() =>
      AvatarSDK.initialize('app', { environment: 'prod' as never, drivingServiceMode: 'sdk' }),
    ).toThrow(/Unknown environment "prod"/);
  });

  it("accepts logLevel 'warning' and 'none' (and the aliases 'warn' and 'silent')", () => {
    for (const logLevel of ['warning', 'none', 'warn', 'silent', 'info', 'error'] as const) {
      AvatarSDK.initialize('app', { drivingServiceMode: 'sdk', logLevel });
      expect(AvatarSDK.config.logLevel).toBe(logLevel);
      AvatarSDK.reset();
    }
    expect(() =>
      AvatarSDK.initialize('app', { drivingServiceMode: 'sdk', logLevel: 'loud' as never }),
    ).toThrow(/logLevel must be one of/);
  });

  it('has DrivingServiceMode.sdk / .host at runtime and defaults the audio format to 16000 Hz mono', () => {
    expect(DrivingServiceMode.sdk).toBe('sdk');
    expect(DrivingServiceMode.host).toBe('host');
    AvatarSDK.initialize('app', { drivingServiceMode: DrivingServiceMode.host });
    expect(AvatarSDK.config).toMatchObject({ mode: 'host', sampleRate: 16000 });
    AvatarSDK.reset();
    AvatarSDK.initialize('app', { drivingServiceMode: 'sdk', audioFormat: { channelCount: 1 } });
    expect(AvatarSDK.config.sampleRate).toBe(16000);
    AvatarSDK.reset();
    expect(() =>
      AvatarSDK.initialize('app', { drivingServiceMode: 'sdk', audioFormat: { sampleRate: 11025 } }),
    ).toThrow(/11025/);
  });

  it('lets AvatarSDK.sessionToken be assigned (same rules as setSessionToken)', () => {
    expect(() => {
      AvatarSDK.sessionToken = 'early';
    }).toThrow(/AvatarSDK.initialize/);
    AvatarSDK.initialize('app', { drivingServiceMode: 'sdk' });
    AvatarSDK.sessionToken = 'token-1';
    expect(AvatarSDK.sessionToken).toBe('token-1');
    expect(() => {
      AvatarSDK.sessionToken = '';
    }).toThrow(/session token/);
  });
});

describe('Host-mode yield names and audio-only', () => {
  const SR = 16000;
  const animation = (reqId: string, count: number, end: boolean) => {
    const frames = Array.from({ length: count }, (_, i) => {
      const f = createDriveFrame(i);
      f.expression[ARKIT_INDEX.jawOpen] = 0.5;
      return f;
    });
    return responseAnimationMessage({ reqId, frames, end }).data.value as Parameters<
      RelayEncoder['animation']
    >[1];
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function controller(): { c: AvatarController; output: FakeOutput } {
    AvatarSDK.initialize('app', { drivingServiceMode: DrivingServiceMode.host, logLevel: 'none' });
    const output = new FakeOutput();
    const c = new AvatarController(
      { avatarId: 'mika', cutSpeech: () => undefined },
      { createOutput: () => output },
    );
    return { c, output };
  }

  it('controller.yield() is the general name of yieldAudioData()', async () => {
    const { c, output } = controller();
    const server = new RelayEncoder();
    const id = c.yield(server.audio('conv-1', new Int16Array(SR / 5), { sampleRate: SR }));
    expect(id).toBe('conv-1');
    expect(c.getCurrentConversationId()).toBe('conv-1');
    expect(c.conversationState).toBe('playing');
    c.yieldFramesData([server.animation('conv-1', animation('r', 5, true))], id);
    await vi.advanceTimersByTimeAsync(120);
    expect(output.played).toHaveLength(1);
    expect(c.frameForRender()?.expression[ARKIT_INDEX.jawOpen]).toBeCloseTo(0.5, 6);
    c.dispose();
  });

  for (const empty of [undefined, []] as const) {
    it(`yieldFramesData(${empty === undefined ? 'undefined' : '[]'}, id) → audio-only; animation yielded afterwards is ignored`, async () => {
      const { c, output } = controller();
      const server = new RelayEncoder();
      const id = c.yieldAudioData(
        server.audio('conv-2', new Int16Array(SR / 2), { sampleRate: SR, last: true }),
      );
      c.yieldFramesData(empty, id);
      await vi.advanceTimersByTimeAsync(120);
      expect(output.played).toHaveLength(1); // started without waiting for animation
      c.yieldFramesData([server.animation('conv-2', animation('r', 10, true))], id);
      for (let t = 0; t < 300; t += 40) {
        expect(c.frameForRender()).toBeUndefined();
        await vi.advanceTimersByTimeAsync(40);
      }
      await vi.advanceTimersByTimeAsync(300);
      expect(c.conversationState).toBe('idle');
      c.dispose();
    });
  }
});
