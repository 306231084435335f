/**
 * The controller in drivingServiceMode 'local' with a fake LocalEngine (the real one, a Worker
 * running the engine, is client-web's; its Chromium test compares it with the service): the
 * states and callbacks, what goes to the engine and when, frames into playback, failures.
 */
import { ARKIT_INDEX, AvatarError, createDriveFrame, type DriveFrame } from '@avatar-drive/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarController } from '../../src/avatar-controller.js';
import type { LocalEngine, LocalEngineEvents } from '../../src/local-engine.js';
import { AvatarSDK } from '../../src/sdk.js';
import { FakeOutput } from './fakes.js';

const SR = 16000;

/** Records every call; the test delivers frames and failures through `events`. */
class FakeEngine implements LocalEngine {
  readonly calls: string[] = [];
  events: LocalEngineEvents | undefined;
  openError: Error | undefined;
  #opened: (() => void) | undefined;
  manualOpen = false;

  open(sampleRate: number, events: LocalEngineEvents): Promise<void> {
    this.calls.push(`open ${sampleRate}`);
    this.events = events;
    if (this.openError) return Promise.reject(this.openError);
    if (this.manualOpen) return new Promise((resolve) => (this.#opened = resolve));
    return Promise.resolve();
  }

  finishOpen(): void {
    this.#opened?.();
  }

  push(id: string, pcm: Int16Array, end: boolean): void {
    this.calls.push(`push ${id.slice(0, 4)} ${pcm.length}${end ? ' end' : ''}`);
  }

  cancel(id: string): void {
    this.calls.push(`cancel ${id.slice(0, 4)}`);
  }

  close(): void {
    this.calls.push('close');
  }
}

function frames(count: number): DriveFrame[] {
  return Array.from({ length: count }, () => {
    const f = createDriveFrame(99); // the controller numbers them
    f.expression[ARKIT_INDEX.jawOpen] = 0.5;
    return f;
  });
}

function setup(engine: FakeEngine) {
  AvatarSDK.initialize('app-1', {
    drivingServiceMode: 'local',
    audioFormat: { channelCount: 1, sampleRate: SR },
    logLevel: 'silent',
  });
  const output = new FakeOutput();
  const events: string[] = [];
  let cuts = 0;
  const controller = new AvatarController(
    { avatarId: 'mika', cutSpeech: () => (cuts += 1) },
    { createOutput: () => output, createLocalEngine: () => engine },
  );
  controller.onConnectionState = (s) => events.push(`connection:${s}`);
  controller.onConversationState = (s) => events.push(`conversation:${s}`);
  controller.onError = (e) => events.push(`error:${e.code}`);
  return { controller, output, events, cuts: () => cuts };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  AvatarSDK.reset();
  vi.useRealTimers();
});

describe("AvatarController, drivingServiceMode 'local'", () => {
  it('starts the engine (no token), sends the audio to it and plays its frames in sync', async () => {
    const engine = new FakeEngine();
    const { controller, output, events } = setup(engine);
    expect(() => controller.send(new Int16Array(160))).toThrow(/start\(\)/);
    await controller.start();
    expect(controller.connectionState).toBe('connected');
    expect(controller.session).toBeUndefined();
    const id = controller.send(new Int16Array(1600));
    controller.send(new Int16Array(640), true);
    expect(engine.calls).toEqual([
      'open 16000',
      `push ${id.slice(0, 4)} 1600`,
      `push ${id.slice(0, 4)} 640 end`,
    ]);
    // Nothing plays before the first frame (the jitter buffer starts then).
    expect(output.played).toEqual([]);
    engine.events!.onFrames(id, frames(3), false);
    engine.events!.onFrames(id, frames(3), true);
    expect(output.played.length).toBe(2);
    const t0 = output.played[0]!.when;
    const shown = controller.frameForRender();
    expect(shown).toBeUndefined(); // before t0
    expect(t0).toBeGreaterThan(output.currentTime);
    controller.close();
    await flush();
    expect(engine.calls.at(-1)).toBe('close');
    expect(events).toEqual([
      'connection:connecting',
      'connection:connected',
      'conversation:idle',
      'conversation:playing',
      'conversation:playing',
      'conversation:idle',
      'connection:disconnected',
    ]);
  });

  it('numbers frames across batches, ignores frames of an interrupted utterance and cancels it in the engine', async () => {
    vi.useFakeTimers();
    const engine = new FakeEngine();
    const { controller, output, cuts } = setup(engine);
    await controller.start();
    const first = controller.send(new Int16Array(3200));
    const batch = frames(2);
    engine.events!.onFrames(first, batch, false);
    expect(batch.map((f) => f.index)).toEqual([0, 1]);
    const more = frames(2);
    engine.events!.onFrames(first, more, false);
    expect(more.map((f) => f.index)).toEqual([2, 3]);
    vi.advanceTimersByTime(200); // past the jitter buffer: audio scheduled
    expect(output.played.length).toBe(1);
    controller.interrupt();
    expect(engine.calls.at(-1)).toBe(`cancel ${first.slice(0, 4)}`);
    expect(output.played[0]!.stopped).toBe(true);
    expect(cuts()).toBe(1);
    // Late frames of the interrupted utterance change nothing.
    engine.events!.onFrames(first, frames(2), true);
    expect(controller.frameForRender()).toBeUndefined();
    // The next utterance is a new id.
    const next = controller.send(new Int16Array(320), true);
    expect(next).not.toBe(first);
    controller.close();
  });

  it('reports an engine that cannot start as failed, once, and one that crashes later as a dropped session', async () => {
    const broken = new FakeEngine();
    broken.openError = new AvatarError('invalidState', 'workers blocked');
    const a = setup(broken);
    await expect(a.controller.start()).rejects.toMatchObject({ code: 'invalidState' });
    await flush();
    expect(a.events).toEqual(['connection:connecting', 'connection:failed', 'error:invalidState']);
    expect(a.controller.connectionFailure?.code).toBe('invalidState');
    expect(broken.calls).toEqual(['open 16000', 'close']);
    AvatarSDK.reset();

    const engine = new FakeEngine();
    const b = setup(engine);
    await b.controller.start();
    const id = b.controller.send(new Int16Array(1600));
    engine.events!.onFrames(id, frames(2), false);
    engine.events!.onFailure(new AvatarError('upstreamError', 'The on-device engine crashed'));
    await flush();
    expect(b.controller.connectionState).toBe('failed');
    expect(b.controller.connectionFailure?.code).toBe('upstreamError');
    expect(b.events.slice(-3)).toEqual(['conversation:idle', 'connection:failed', 'error:upstreamError']);
    expect(() => b.controller.send(new Int16Array(160))).toThrow(/start\(\)/);
    // Frames from the dead engine are ignored.
    engine.events!.onFrames(id, frames(2), true);
    expect(b.controller.frameForRender()).toBeUndefined();
  });

  it('close() while the engine loads ends in disconnected without a late connected', async () => {
    const engine = new FakeEngine();
    engine.manualOpen = true;
    const { controller, events } = setup(engine);
    const starting = controller.start();
    controller.close();
    engine.finishOpen();
    await starting;
    await flush();
    expect(events).toEqual(['connection:connecting', 'connection:disconnected']);
    expect(engine.calls).toEqual(['open 16000', 'close']);
  });

  it('refuses Host-mode calls and is refused by AvatarSDK only for an unknown mode', () => {
    const engine = new FakeEngine();
    const { controller } = setup(engine);
    expect(() => controller.yieldAudioData(new Uint8Array(8))).toThrow(/host/);
    AvatarSDK.reset();
    expect(() =>
      AvatarSDK.initialize('app-1', { drivingServiceMode: 'remote' as never, logLevel: 'silent' }),
    ).toThrow(/'sdk', 'host' or 'local'/);
  });
});
