/**
 * OGG_OPUS in RTC mode through the real service and the real LiveKit server: the stream is decoded
 * at its own rate (48 kHz here, what the room hears, not the 16 kHz a WebSocket session decodes
 * to), and the room gets its audio and the engine's frames, with playback states from the real
 * playout on the WebSocket.
 */
import { randomUUID } from 'node:crypto';
import { wire } from '@avatar-drive/core';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import { API_KEY, API_SECRET, RoomListener, tone } from './helpers/room-listener.js';
import { makeAvatarsDir, mintToken, sleep, startTestService, states, TestClient } from './support/harness.js';
import { opusenc, splitAtRandom } from './support/ogg-opus-files.js';

const url = inject('livekitUrl');
const { PlaybackState, EgressType } = wire;

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    extra: { liveKitEgress: { allowedHosts: [url] } },
  });
});
afterAll(async () => {
  await service?.close();
});

describe('OGG_OPUS in RTC mode (real LiveKit server)', () => {
  it('decodes a 48 kHz stream at 48 kHz into the room: its audio, 25 frames, PLAYING then ENDED', async () => {
    const roomName = `opus-${randomUUID()}`;
    const listener = new RoomListener();
    await listener.join(url, roomName);
    const client = await TestClient.open(service, await mintToken(service));
    try {
      client.configure(48000, {
        audioFormat: wire.AudioFormat.OGG_OPUS,
        bitrate: 32000,
        egressType: EgressType.LIVEKIT,
        livekitEgress: { url, apiKey: API_KEY, apiSecret: API_SECRET, roomName, publisherId: 'avatar-1' },
      });
      await client.confirmed();
      await listener.recordAudio(5000);
      const ogg = opusenc(tone(48000, 1), 48000, { kbps: 32, maxDelayMs: 100 });
      const parts = splitAtRandom(ogg, 12, 11);
      for (const [i, part] of parts.entries()) {
        client.ws.send(
          toBinary(
            wire.MessageSchema,
            create(wire.MessageSchema, {
              type: wire.MessageType.CLIENT_AUDIO_INPUT,
              data: {
                case: 'clientAudioInput',
                value: { reqId: 'r1', end: i === parts.length - 1, audio: part },
              },
            }),
          ),
        );
      }
      await client.waitFor(
        (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === PlaybackState.ENDED,
        15_000,
      );
      expect(states(client, 'r1').map((s) => PlaybackState[s.state])).toEqual(['PLAYING', 'ENDED']);
      // Exactly the stream's second (pre-skip and end trim applied), played out in the room.
      expect(Number(states(client, 'r1')[1]!.playedMs)).toBe(1000);
      await listener.until(() => listener.controlOf('r1', 'ended').length === 1, 'the ended control');
      await sleep(200);
      expect(listener.loud().length).toBeGreaterThanOrEqual(70);
      const frames = listener.framesOf('r1').flatMap((p) => p.value.animation.animation?.keyframes ?? []);
      expect(frames.length).toBe(25);
    } finally {
      client.close();
      await listener.leave();
    }
  });
});
