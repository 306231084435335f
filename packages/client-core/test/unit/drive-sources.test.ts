/**
 * The drive sources on their own (the controller tests drive them through the controller): the
 * factory's choice per mode, the events each reports in order, and the typed refusals of what a
 * mode does not do.
 */
import { AvatarError, type ConnectionState, createDriveFrame, RelayEncoder } from '@avatar-drive/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalEngineEvents } from '../../src/local-engine.js';
import { AvatarSDK, requireConfig } from '../../src/sdk.js';
import { createDriveSource } from '../../src/sources/create-drive-source.js';
import type { DriveSource, DriveSourceContext } from '../../src/sources/drive-source.js';
import { IngressSource } from '../../src/sources/ingress-source.js';
import { LocalSource } from '../../src/sources/local-source.js';
import { RelaySource } from '../../src/sources/relay-source.js';

afterEach(() => AvatarSDK.reset());

function contextFor(
  mode: 'sdk' | 'local' | 'host',
  extra: Partial<DriveSourceContext> = {},
): DriveSourceContext & { state: ConnectionState; current: string | undefined } {
  AvatarSDK.initialize('app-1', { drivingServiceMode: mode, logLevel: 'none' });
  const context = {
    config: requireConfig('test'),
    avatarId: 'mika',
    options: {},
    state: 'disconnected' as ConnectionState,
    current: undefined as string | undefined,
    connectionState: (): ConnectionState => context.state,
    playing: (): string | undefined => context.current,
    ...extra,
  };
  return context;
}

/** Every event of `source`, as text, in order. */
function record(source: DriveSource): string[] {
  const events: string[] = [];
  source
    .on('state', (state, failure) => events.push(`state ${state}${failure ? ` ${failure.code}` : ''}`))
    .on('reconnecting', () => events.push('reconnecting'))
    .on('utterance', (id, rate) => events.push(`utterance ${id} ${rate}`))
    .on('audio', (id, pcm, end) => events.push(`audio ${id} ${pcm.length}${end ? ' end' : ''}`))
    .on('frames', (id, frames) => events.push(`frames ${id} ${frames.map((f) => f.index).join(',')}`))
    .on('audioOnly', (id) => events.push(`audioOnly ${id}`))
    .on('error', (error) => events.push(`error ${error.code}`));
  return events;
}

describe('createDriveSource', () => {
  it('picks one source per drivingServiceMode', () => {
    expect(createDriveSource(contextFor('sdk'))).toBeInstanceOf(IngressSource);
    AvatarSDK.reset();
    expect(createDriveSource(contextFor('local'))).toBeInstanceOf(LocalSource);
    AvatarSDK.reset();
    expect(createDriveSource(contextFor('host'))).toBeInstanceOf(RelaySource);
  });
});

describe('RelaySource (Host mode)', () => {
  it('reports a conversation as utterance, audio and audio-only; retires it when finished', () => {
    const context = contextFor('host');
    const source = createDriveSource(context);
    const events = record(source);
    const server = new RelayEncoder();
    expect(source.yieldAudio(server.audio('c1', new Int16Array(160), { sampleRate: 24000 }))).toBe('c1');
    context.current = 'c1';
    source.yieldAudio(server.audio('c1', new Int16Array(80), { sampleRate: 24000, last: true }));
    source.yieldFrames([], 'c1');
    source.yieldFrames(undefined, 'c1'); // already audio-only: nothing more
    expect(source.conversationId).toBe('c1');
    source.finished('c1');
    expect(source.conversationId).toBeUndefined();
    // A late message of a retired conversation (here a duplicate of its first) is ignored, not decoded.
    const late = new RelayEncoder().audio('c1', new Int16Array(80), { sampleRate: 24000 });
    expect(source.yieldAudio(late)).toBe('c1');
    expect(events).toEqual(['utterance c1 24000', 'audio c1 160', 'audio c1 80 end', 'audioOnly c1']);
  });

  it('refuses start() and send() with the Host-mode calls to use; has no link state', async () => {
    const source = createDriveSource(contextFor('host'));
    const events = record(source);
    await expect(source.open()).rejects.toThrow(expect.objectContaining({ code: 'invalidState' }));
    expect(() => source.send(new Int16Array(10), false)).toThrow(/yieldAudioData/);
    expect(() => source.yieldFrames('x' as never, 'c')).toThrow(
      expect.objectContaining({ code: 'invalidRequest' }),
    );
    expect(events).toEqual([]);
  });
});

describe('LocalSource (local mode)', () => {
  it('follows the engine: connecting → connected, numbered frames of the playing utterance, failed when it dies', async () => {
    const pushed: string[] = [];
    let deliver: LocalEngineEvents | undefined;
    const context = contextFor('local', {
      options: {
        createLocalEngine: () => ({
          open: async (_rate, events) => {
            deliver = events;
          },
          push: (_id, pcm, end) => pushed.push(`push ${pcm.length}${end ? ' end' : ''}`),
          cancel: () => pushed.push('cancel'),
          close: () => pushed.push('close'),
        }),
      },
    });
    const source = createDriveSource(context);
    const events = record(source);
    expect(() => source.send(new Int16Array(160), false)).toThrow(/start\(\)/);
    await source.open();
    context.state = 'connected';
    const id = source.send(new Int16Array(160), false);
    context.current = id;
    expect(source.send(new Int16Array(160), true)).toBe(id);
    deliver!.onFrames(id, [createDriveFrame(7), createDriveFrame(7)], false);
    deliver!.onFrames(id, [createDriveFrame(7)], true);
    deliver!.onFrames('other', [createDriveFrame(7)], true); // not playing: dropped
    source.interrupt();
    deliver!.onFailure(new AvatarError('connectionFailed', 'engine crashed'));
    expect(() => source.yieldAudio(new Uint8Array(8))).toThrow(/host/);
    expect(events).toEqual([
      'state connecting',
      'state connected',
      `utterance ${id} 16000`,
      `audio ${id} 160`,
      `audio ${id} 160 end`,
      `frames ${id} 0,1`,
      `frames ${id} 2`,
      'state failed connectionFailed',
    ]);
    expect(pushed).toEqual(['push 160', 'push 160 end', 'cancel', 'close']);
  });
});
