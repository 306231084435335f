/**
 * The values behind the golden byte vectors in test/fixtures. Every float is exactly
 * representable in float32 so other languages can compare decoded values exactly.
 */
import {
  AudioFormat,
  audioInputMessage,
  configureSessionMessage,
  confirmSessionMessage,
  createDriveFrame,
  type DriveFrame,
  encodeMessage,
  extractResponseAnimation,
  interruptMessage,
  type Message,
  PlaybackState,
  pauseMessage,
  playbackStateMessage,
  type RelayMessage,
  responseAnimationMessage,
  resumeMessage,
  serverErrorMessage,
} from '../../src/index.js';

function frame(index: number, jawOpen: number, aa: number): DriveFrame {
  const f = createDriveFrame(index);
  f.expression[17] = jawOpen; // jawOpen
  f.expression[0] = 0.25; // eyeBlinkLeft
  f.visemes[10] = aa; // aa
  f.visemes[0] = 1 - aa; // sil
  f.jawPose.set([0.125, 0, 0]);
  f.rotation.set([0, -0.0625, 0.03125]);
  f.neckPose.set([0.015625, 0, 0]);
  f.eyePose.set([0, 0.5, 0, 0, 0.5, 0]);
  f.eyeLid.set([0.75, 0.75]);
  f.translation.set([0, 0.001953125, -0.00390625]);
  return f;
}

/** Two keyframes of rig arkit-52. */
export const GOLDEN_FRAMES: readonly DriveFrame[] = [frame(0, 0.5, 0.75), frame(1, 0.375, 0.5)];

/** Eight bytes of s16le PCM: samples 0, 1, -1, 32767. */
export const GOLDEN_PCM = new Uint8Array([0x00, 0x00, 0x01, 0x00, 0xff, 0xff, 0xff, 0x7f]);

export const GOLDEN_RESPONSE_ANIMATION = responseAnimationMessage({
  connectionId: 'conn-1',
  reqId: 'req-1',
  end: true,
  frames: GOLDEN_FRAMES,
  avatarId: 'avatar-1',
});

/** driveningress.v2 Message vectors: test/fixtures/<name>.hex. */
export const WIRE_VECTORS: ReadonlyArray<{ name: string; message: Message }> = [
  { name: 'configure', message: configureSessionMessage({ sampleRate: 16000 }) },
  {
    name: 'configure-livekit',
    message: configureSessionMessage({
      sampleRate: 24000,
      bitrate: 32000,
      audioFormat: AudioFormat.OGG_OPUS,
      livekitEgress: {
        url: 'wss://livekit.example.com',
        apiToken: 'token-1',
        roomName: 'room-1',
        publisherId: 'avatar-bot',
        extraAttributes: { role: 'avatar' },
        idleTimeout: 30,
      },
    }),
  },
  {
    name: 'confirm',
    message: confirmSessionMessage({
      connectionId: 'conn-1',
      capabilities: ['playback_control', 'playback_state'],
    }),
  },
  { name: 'audio-input', message: audioInputMessage({ reqId: 'req-1', audio: GOLDEN_PCM }) },
  { name: 'audio-input-end', message: audioInputMessage({ reqId: 'req-1', end: true }) },
  { name: 'response-animation', message: GOLDEN_RESPONSE_ANIMATION },
  { name: 'interrupt', message: interruptMessage('req-1') },
  { name: 'pause', message: pauseMessage('req-1') },
  { name: 'resume', message: resumeMessage('req-1') },
  {
    name: 'error',
    message: serverErrorMessage({
      connectionId: 'conn-1',
      reqId: 'req-1',
      code: 4003,
      message: 'Too many concurrent sessions for this app; wait for one to end, then retry.',
    }),
  },
  {
    name: 'playback-state',
    message: playbackStateMessage({
      connectionId: 'conn-1',
      reqId: 'req-1',
      state: PlaybackState.PAUSED,
      playedMs: 1234,
      reason: 'explicit',
    }),
  },
];

/** The ServerResponseAnimation bytes inside the response-animation vector. */
export const GOLDEN_RESPONSE_ANIMATION_PAYLOAD = extractResponseAnimation(
  encodeMessage(GOLDEN_RESPONSE_ANIMATION),
);

/** Host-mode relay vectors: test/fixtures/<name>.hex. */
export const RELAY_VECTORS: ReadonlyArray<{ name: string; message: RelayMessage }> = [
  {
    name: 'relay-audio',
    message: {
      kind: 'audio',
      conversationId: 'conv-1',
      sequence: 0,
      last: false,
      sampleRate: 16000,
      pcm: GOLDEN_PCM,
    },
  },
  {
    name: 'relay-audio-last',
    message: {
      kind: 'audio',
      conversationId: 'conv-1',
      sequence: 1,
      last: true,
      sampleRate: 16000,
      pcm: new Uint8Array(0),
    },
  },
  {
    name: 'relay-animation',
    message: {
      kind: 'animation',
      conversationId: 'conv-1',
      sequence: 0,
      last: true,
      payload: GOLDEN_RESPONSE_ANIMATION_PAYLOAD,
    },
  },
];
