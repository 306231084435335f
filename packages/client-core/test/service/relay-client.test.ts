/**
 * RelayClient (the browser end of Host mode; it lived in server-sdk until the drive sources
 * moved it here) fed by a real server-sdk AvatarSession against the real service process.
 */
import { type AvatarError, animationToDriveFrames, int16FromBytes, RelayDecoder } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession, type RelayEvent, relayEventToText } from '../../../server-sdk/src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  startServiceProcess,
  stopAllServices,
  tone,
} from '../../../server-sdk/test/support/service-process.js';
import { RelayClient, type RelayControl, type RelayTarget } from '../../src/index.js';

/**
 * A stand-in for client-web's AvatarController in Host mode: decodes what it is given with
 * core's RelayDecoder (which rejects loss, duplicates and reordering) and drops frames of
 * conversations other than the current one, as client-web does.
 */
class RecordingController implements RelayTarget {
  readonly decoder = new RelayDecoder();
  current: string | undefined;
  readonly samples = new Map<string, number>();
  readonly frames = new Map<string, number>();
  readonly calls: string[] = [];
  paused = false;
  yieldAudioData(encoded: Uint8Array): string {
    const message = this.decoder.decode(encoded);
    if (message.kind !== 'audio') throw new Error('not audio');
    this.current = message.conversationId;
    this.samples.set(
      message.conversationId,
      (this.samples.get(message.conversationId) ?? 0) + int16FromBytes(message.pcm).length,
    );
    this.calls.push('audio');
    return message.conversationId;
  }
  yieldFramesData(encoded: Uint8Array[], conversationId: string): void {
    if (conversationId !== this.current) return;
    for (const bytes of encoded) {
      const message = this.decoder.decode(bytes);
      if (message.kind !== 'animation') throw new Error('not animation');
      const n = animationToDriveFrames(message.animation).length;
      this.frames.set(conversationId, (this.frames.get(conversationId) ?? 0) + n);
    }
    this.calls.push('frames');
  }
  interrupt(): void {
    this.calls.push('interrupt');
  }
  async pause(): Promise<void> {
    this.paused = true;
    this.calls.push('pause');
  }
  async resume(): Promise<void> {
    this.paused = false;
    this.calls.push('resume');
  }
}

let fixtures: ServiceFixtures;
let service: ServiceProcess;
beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'ap-northeast', fixtures });
});
afterAll(stopAllServices);

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

describe('RelayClient: the browser end of the relay, fed by a real session', () => {
  it('drives the controller from binary + text frames, and from the text-only form', async () => {
    const binary = new RecordingController();
    const text = new RecordingController();
    const controls: RelayControl[] = [];
    const errors: AvatarError[] = [];
    let ended = '';
    const viaBinary = new RelayClient(binary, {
      onControl: (c) => controls.push(c),
      onEnd: (r) => (ended = r),
      onError: (e) => errors.push(e),
    });
    const viaText = new RelayClient(text);
    const session = new AvatarSession({
      avatarId: AVATAR_ID,
      appId: fixtures.appId,
      apiKey: fixtures.apiKey,
      consoleUrl: service.url,
      ingressUrl: service.ingressUrl,
      sampleRate: 24000,
    });
    const events: RelayEvent[] = [];
    session.relay().on('event', (event) => {
      events.push(event);
      // A WebSocket delivers binary frames as ArrayBuffer (binaryType 'arraybuffer') and text as string.
      viaBinary.receive(event.type === 'control' ? event.data : event.data.slice().buffer);
      viaText.receive(relayEventToText(event));
    });
    await session.start();
    const first = session.sendAudio(tone(1200, 24000));
    await until(() => (binary.frames.get(first) ?? 0) > 3);
    await session.pause();
    expect(binary.paused).toBe(true);
    await session.resume();
    expect(binary.paused).toBe(false);
    session.interrupt();
    expect(session.sendAudio(tone(400, 24000))).toBe(first); // the interrupted turn's rest: dropped
    session.startTurn(); // the next reply
    const second = session.sendAudio(tone(400, 24000), true);
    await until(() => events.some((e) => e.type === 'animation' && e.conversationId === second && e.last));
    await session.close();
    for (const target of [binary, text]) {
      expect(target.samples.get(second)).toBe(9600);
      expect(target.frames.get(second)).toBe(10);
      expect(target.calls.filter((c) => c === 'interrupt')).toHaveLength(1);
    }
    expect(binary.calls.filter((c) => c === 'pause' || c === 'resume')).toEqual(['pause', 'resume']);
    expect(controls.map((c) => c.type)).toEqual(['pause', 'resume', 'interrupt', 'end']);
    expect(ended).toBe('closed');
    expect(errors).toEqual([]);
    expect(viaBinary.ended).toBe(true);
  });

  it('holds animation that arrives before its audio (separate channels) and reports stream damage', async () => {
    const target = new RecordingController();
    const errors: AvatarError[] = [];
    const client = new RelayClient(target, { onError: (e) => errors.push(e) });
    const session = new AvatarSession({
      avatarId: AVATAR_ID,
      appId: fixtures.appId,
      apiKey: fixtures.apiKey,
      consoleUrl: service.url,
      ingressUrl: service.ingressUrl,
      sampleRate: 16000,
    });
    const audio: Uint8Array[] = [];
    const animation: Uint8Array[] = [];
    let animationDone = false;
    session.relay().on('event', (e) => {
      if (e.type === 'audio') audio.push(e.data);
      if (e.type === 'animation') {
        animation.push(e.data);
        animationDone ||= e.last;
      }
    });
    await session.start();
    const reqId = session.sendAudio(tone(400), true);
    await until(() => animationDone);
    await session.close();
    for (const bytes of animation) client.receive(bytes); // animation first
    expect(target.frames.get(reqId)).toBeUndefined();
    for (const bytes of audio) client.receive(bytes);
    expect(target.frames.get(reqId)).toBe(10);
    // A duplicate is reported, not played.
    client.receive(audio[0]!);
    expect(errors.map((e) => e.code)).toEqual(['protocolError']);
    expect(() => new RelayClient({} as RelayTarget)).toThrow(/yieldAudioData/);
    const strict = new RelayClient(new RecordingController());
    expect(() => strict.receive('{"hello":1}')).toThrow(expect.objectContaining({ code: 'protocolError' }));
    expect(() => strict.receive(42 as unknown as string)).toThrow(/binaryType/);
  });
});
