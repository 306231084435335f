/**
 * The egress seam with a recording provider (a test double standing in for the LiveKit provider
 * built separately): config validation, open, and routing of audio/frames/control to the sink.
 */
import { AvatarError, type DriveFrame, wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressProvider, EgressSink, EgressTarget } from '../src/egress/egress.js';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';

const calls: string[] = [];
let frames = 0;
const provider: EgressProvider = {
  kind: 'livekit',
  validate(target: EgressTarget) {
    if (target.kind !== 'livekit' || !target.config.url) {
      throw new AvatarError(
        'invalidEgressConfig',
        'livekit_egress.url is required: set it to your LiveKit server URL.',
      );
    }
  },
  async open(target, context) {
    calls.push(`open ${target.kind} ${context.sampleRate}`);
    const sink: EgressSink = {
      pushAudio: (reqId, pcm) => calls.push(`audio ${reqId} ${pcm.length}`),
      pushFrames: (reqId: string, f: readonly DriveFrame[], end: boolean) => {
        frames += f.length;
        if (end) calls.push(`end ${reqId}`);
      },
      interrupt: (reqId) => calls.push(`interrupt ${reqId}`),
      pause: (reqId) => calls.push(`pause ${reqId}`),
      resume: (reqId) => calls.push(`resume ${reqId}`),
      close: async () => {
        calls.push('close');
      },
    };
    return sink;
  },
};

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    extra: { egressProviders: [provider] },
  });
});
afterAll(async () => {
  await service?.close();
});

describe('egress seam', () => {
  it('rejects a config the provider cannot use with invalidEgressConfig', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000, { egressType: wire.EgressType.LIVEKIT, livekitEgress: { roomName: 'r' } });
    const e = await client.waitFor((m) => m.data.case === 'serverError');
    expect(e.data.case === 'serverError' && e.data.value.code).toBe(4008);
    expect(e.data.case === 'serverError' && e.data.value.message).toMatch(/url is required/);
  });

  it('routes audio, frames and control to the sink instead of the WebSocket', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000, {
      egressType: wire.EgressType.LIVEKIT,
      livekitEgress: { url: 'wss://lk', roomName: 'r' },
    });
    // Sent before the confirm arrives: held until the sink is open, then processed in order.
    client.audio('e1', tone(200));
    await client.confirmed();
    client.control('pause', 'e1');
    client.control('resume', 'e1');
    client.audio('e1', tone(40), true);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === wire.PlaybackState.ENDED,
    );
    client.close();
    await client.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([
      'open livekit 16000',
      'audio e1 3200',
      'pause e1',
      'resume e1',
      'audio e1 640',
      'end e1',
      'close',
    ]);
    expect(frames).toBe(6);
    expect(animations(client)).toHaveLength(0);
  });
});
