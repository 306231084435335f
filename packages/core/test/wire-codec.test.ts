/// <reference types="node" />
import { create, equals, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  AudioFormat,
  AvatarError,
  animationToDriveFrames,
  audioInputMessage,
  configureSessionMessage,
  createDriveFrame,
  decodeMessage,
  EgressType,
  encodeMessage,
  extractResponseAnimation,
  interruptMessage,
  MAX_MESSAGE_BYTES,
  MessageSchema,
  MessageType,
  PlaybackState,
  playbackStateMessage,
  responseAnimationBytes,
  responseAnimationMessage,
  ServerResponseAnimationSchema,
  serverErrorMessage,
} from '../src/index.js';

function caught(fn: () => unknown): AvatarError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AvatarError);
    return error as AvatarError;
  }
  throw new Error('expected an AvatarError, nothing was thrown');
}

describe('decodeMessage rejects what is not a driveningress.v2 frame', () => {
  const valid = encodeMessage(interruptMessage('req-1'));

  it('text frames, as a string or flagged by ws', () => {
    const asString = caught(() => decodeMessage('{"type":7}'));
    expect(asString.code).toBe('protocolError');
    expect(asString.message).toMatch(/text WebSocket frame.*binary/);
    expect(caught(() => decodeMessage(valid, { isBinary: false })).code).toBe('protocolError');
  });

  it('non-binary values and browser Blobs with a hint', () => {
    for (const value of [undefined, null, 42, {}, [valid]]) {
      expect(caught(() => decodeMessage(value)).code).toBe('invalidRequest');
    }
    expect(caught(() => decodeMessage(new Blob([valid]))).message).toMatch(/binaryType to 'arraybuffer'/);
  });

  it('empty frames', () => {
    expect(caught(() => decodeMessage(new Uint8Array(0))).message).toMatch(/empty frame/);
  });

  it('oversize frames, at the default and a custom limit', () => {
    const big = encodeMessage(audioInputMessage({ reqId: 'r', audio: new Uint8Array(MAX_MESSAGE_BYTES) }));
    const error = caught(() => decodeMessage(big));
    expect(error.code).toBe('protocolError');
    expect(error.details).toEqual({ size: big.byteLength, maxBytes: MAX_MESSAGE_BYTES });
    expect(caught(() => decodeMessage(valid, { maxBytes: valid.byteLength - 1 })).code).toBe('protocolError');
    expect(decodeMessage(valid, { maxBytes: valid.byteLength }).type).toBe(MessageType.CLIENT_INTERRUPT);
    expect(caught(() => decodeMessage(valid, { maxBytes: 0 })).code).toBe('invalidRequest');
  });

  it('malformed protobuf: truncated, bad wire type, invalid UTF-8', () => {
    expect(caught(() => decodeMessage(valid.subarray(0, valid.length - 2))).code).toBe('protocolError');
    expect(caught(() => decodeMessage(new Uint8Array([0x0f, 0x01]))).code).toBe('protocolError');
    // type=7, client_interrupt{req_id = 0xff}
    const badUtf8 = new Uint8Array([0x08, 0x07, 0x42, 0x03, 0x0a, 0x01, 0xff]);
    expect(caught(() => decodeMessage(badUtf8)).message).toMatch(/not a valid driveningress\.v2 Message/);
  });

  it('UNSPECIFIED, unknown and mismatched types', () => {
    const unspecified = toBinary(
      MessageSchema,
      create(MessageSchema, { data: { case: 'clientInterrupt', value: { reqId: 'r' } } }),
    );
    expect(caught(() => decodeMessage(unspecified)).message).toMatch(/UNSPECIFIED/);
    const unknown = toBinary(MessageSchema, create(MessageSchema, { type: 42 as MessageType }));
    expect(caught(() => decodeMessage(unknown)).message).toMatch(/unknown value 42/);
    const mismatched = toBinary(
      MessageSchema,
      create(MessageSchema, {
        type: MessageType.CLIENT_PAUSE,
        data: { case: 'clientInterrupt', value: { reqId: 'r' } },
      }),
    );
    const error = caught(() => decodeMessage(mismatched));
    expect(error.code).toBe('protocolError');
    expect(error.message).toMatch(/CLIENT_PAUSE but the payload is clientInterrupt/);
    const noPayload = toBinary(MessageSchema, create(MessageSchema, { type: MessageType.CLIENT_RESUME }));
    expect(caught(() => decodeMessage(noPayload)).message).toMatch(/payload is empty/);
  });

  it('accepts ArrayBuffer, Buffer and DataView views of the same bytes', () => {
    const copy = valid.slice();
    const padded = new Uint8Array(copy.length + 4);
    padded.set(copy, 2);
    for (const input of [copy.buffer, new DataView(padded.buffer, 2, copy.length), padded.subarray(2, -2)]) {
      expect(equals(MessageSchema, decodeMessage(input), interruptMessage('req-1'))).toBe(true);
    }
  });

  it('accepts the internal driven_config message', () => {
    const bytes = toBinary(
      MessageSchema,
      create(MessageSchema, {
        type: MessageType.CLIENT_DRIVEN_CONFIG,
        data: { case: 'drivenConfig', value: {} },
      }),
    );
    expect(decodeMessage(bytes).data.case).toBe('drivenConfig');
  });
});

describe('encodeMessage and the builders', () => {
  it('refuses a hand-assembled message whose type does not match', () => {
    const bad = create(MessageSchema, {
      type: MessageType.SERVER_ERROR,
      data: { case: 'clientPause', value: {} },
    });
    expect(caught(() => encodeMessage(bad)).code).toBe('invalidRequest');
  });

  it('configure: validates the sample rate and derives the egress type', () => {
    expect(caught(() => configureSessionMessage({ sampleRate: 11025 })).code).toBe('unsupportedSampleRate');
    // OGG_OPUS takes the Opus rates (12 kHz too), not 44.1 kHz.
    const opus = AudioFormat.OGG_OPUS;
    expect(caught(() => configureSessionMessage({ sampleRate: 44100, audioFormat: opus })).message).toMatch(
      /not an Opus rate/,
    );
    expect(configureSessionMessage({ sampleRate: 12000, audioFormat: opus }).data.value).toMatchObject({
      sampleRate: 12000,
    });
    expect(caught(() => configureSessionMessage({ sampleRate: 16000, bitrate: -1 })).code).toBe(
      'invalidRequest',
    );
    expect(
      caught(() => configureSessionMessage({ sampleRate: 16000, livekitEgress: {}, agoraEgress: {} })).code,
    ).toBe('invalidEgressConfig');
    const agora = decodeMessage(
      encodeMessage(
        configureSessionMessage({ sampleRate: 48000, agoraEgress: { channelName: 'c', uid: 7 } }),
      ),
    );
    if (agora.data.case !== 'clientConfigureSession') throw new Error('wrong case');
    expect(agora.data.value.egressType).toBe(EgressType.AGORA);
    expect(agora.data.value.agoraEgress?.uid).toBe(7);
  });

  it('audio input: needs a reqId, takes typed arrays as their bytes', () => {
    expect(caught(() => audioInputMessage({ reqId: '' })).code).toBe('invalidRequest');
    const message = audioInputMessage({ reqId: 'r', audio: new Int16Array([1, -2]) });
    if (message.data.case !== 'clientAudioInput') throw new Error('wrong case');
    expect(Array.from(message.data.value.audio)).toEqual([1, 0, 0xfe, 0xff]);
  });

  it('response animation: frames round-trip through Flame keyframes, numbered from firstIndex', () => {
    const frames = [createDriveFrame(0), createDriveFrame(1)];
    frames[0]!.expression[17] = 0.5;
    frames[1]!.visemes[10] = 0.25;
    const decoded = decodeMessage(encodeMessage(responseAnimationMessage({ reqId: 'r', frames, end: true })));
    if (decoded.data.case !== 'serverResponseAnimation') throw new Error('wrong case');
    expect(decoded.data.value.end).toBe(true);
    const back = animationToDriveFrames(decoded.data.value, 10);
    expect(back.map((f) => f.index)).toEqual([10, 11]);
    expect(back[0]!.expression[17]).toBe(0.5);
    expect(back[1]!.visemes[10]).toBe(0.25);
  });

  it('response animation: NaN and infinities are refused on both sides', () => {
    const frame = createDriveFrame(3);
    frame.eyeLid[1] = Number.NaN;
    const error = caught(() => responseAnimationMessage({ reqId: 'r', frames: [frame] }));
    expect(error.code).toBe('invalidRequest');
    expect(error.message).toMatch(/index 3.*eyeLid/);
    const decoded = decodeMessage(
      encodeMessage(responseAnimationMessage({ reqId: 'r', frames: [createDriveFrame()] })),
    );
    if (decoded.data.case !== 'serverResponseAnimation') throw new Error('wrong case');
    const animation = decoded.data.value;
    animation.animation!.keyframes[0]!.translation = [0, Number.POSITIVE_INFINITY, 0];
    expect(caught(() => animationToDriveFrames(animation)).code).toBe('protocolError');
  });

  it('playback state: validates state and playedMs, stores int64', () => {
    expect(
      caught(() => playbackStateMessage({ reqId: 'r', state: PlaybackState.UNSPECIFIED, playedMs: 0 })).code,
    ).toBe('invalidRequest');
    expect(
      caught(() => playbackStateMessage({ reqId: 'r', state: PlaybackState.PLAYING, playedMs: -1 })).code,
    ).toBe('invalidRequest');
    expect(
      caught(() => playbackStateMessage({ reqId: 'r', state: PlaybackState.PLAYING, playedMs: 1.5 })).code,
    ).toBe('invalidRequest');
    const m = decodeMessage(
      encodeMessage(playbackStateMessage({ reqId: 'r', state: PlaybackState.ENDED, playedMs: 2 ** 40 })),
    );
    if (m.data.case !== 'serverPlaybackState') throw new Error('wrong case');
    expect(m.data.value.playedMs).toBe(2n ** 40n);
  });

  it('server error: code must be an int32', () => {
    expect(caught(() => serverErrorMessage({ code: 2 ** 40, message: 'x' })).code).toBe('invalidRequest');
  });
});

describe('extractResponseAnimation', () => {
  it('returns the inner bytes as a view, unchanged', () => {
    const frame = encodeMessage(responseAnimationMessage({ reqId: 'r', frames: [createDriveFrame(0)] }));
    const inner = extractResponseAnimation(frame);
    expect(inner.buffer).toBe(frame.buffer);
    const decoded = decodeMessage(frame);
    if (decoded.data.case !== 'serverResponseAnimation') throw new Error('wrong case');
    expect(inner).toEqual(toBinary(ServerResponseAnimationSchema, decoded.data.value));
  });

  it('re-serializes when the field occurs twice (protobuf merges the occurrences)', () => {
    const frame = encodeMessage(responseAnimationMessage({ reqId: 'r', frames: [createDriveFrame(0)] }));
    // A second server_response_animation (field 6) occurrence carrying end = true.
    const merged = new Uint8Array([...frame, 0x32, 0x02, 0x18, 0x01]);
    const inner = fromBinary(ServerResponseAnimationSchema, extractResponseAnimation(merged));
    expect(inner.end).toBe(true);
    expect(inner.reqId).toBe('r');
    expect(inner.animation?.keyframes).toHaveLength(1);
  });

  it('responseAnimationBytes gives the same bytes from an already decoded frame, merged or not', () => {
    const frame = encodeMessage(responseAnimationMessage({ reqId: 'r', frames: [createDriveFrame(0)] }));
    for (const bytes of [frame, new Uint8Array([...frame, 0x32, 0x02, 0x18, 0x01])]) {
      const decoded = decodeMessage(bytes);
      if (decoded.data.case !== 'serverResponseAnimation') throw new Error('wrong case');
      expect(responseAnimationBytes(bytes, decoded.data.value)).toEqual(extractResponseAnimation(bytes));
    }
  });

  it('rejects frames of another type', () => {
    expect(caught(() => extractResponseAnimation(encodeMessage(interruptMessage('r')))).code).toBe(
      'protocolError',
    );
  });
});
