import { createDriveFrame, driveFrameToFlame, wire } from '@avatar-drive/core';
import { create, equals, fromBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { AnimationEncoder } from '../src/ingress/animation-encoder.js';

function frame(i: number) {
  const f = createDriveFrame(i);
  f.expression.forEach((_, k) => {
    f.expression[k] = ((k * 7 + i) % 13) / 13;
  });
  f.visemes[3] = 0.25;
  f.jawPose[0] = -0.125 * i;
  f.translation[2] = 1e-3;
  return f;
}

describe('AnimationEncoder', () => {
  it.each([
    ['frames, not end', [frame(0), frame(1), frame(2)], false, 'r-1'],
    ['frames and end', [frame(7)], true, '20261121000000_abcdefabcdef'],
    ['end without frames', [], true, 'x'],
    ['many frames (multi-byte lengths)', Array.from({ length: 300 }, (_, i) => frame(i)), false, 'long'],
  ])('encodes %s exactly as the generated schema decodes it', (_name, frames, end, reqId) => {
    const bytes = new AnimationEncoder('conn_abc', 'test-avatar').encode(reqId, frames, end);
    const decoded = fromBinary(wire.MessageSchema, bytes);
    const expected = create(wire.MessageSchema, {
      type: wire.MessageType.SERVER_RESPONSE_ANIMATION,
      data: {
        case: 'serverResponseAnimation',
        value: {
          connectionId: 'conn_abc',
          reqId,
          end,
          ...(frames.length > 0 && { animation: { keyframes: frames.map(driveFrameToFlame) } }),
          avatarId: 'test-avatar',
        },
      },
    });
    expect(equals(wire.MessageSchema, decoded, expected)).toBe(true);
  });
});

describe('readAudioInput (fast path)', () => {
  it('reads what the generated schema encodes, and declines anything else', async () => {
    const { readAudioInput } = await import('../src/ingress/audio-fast-path.js');
    const { audioInputMessage, encodeMessage, interruptMessage } = await import('@avatar-drive/core');
    const audio = new Uint8Array(Array.from({ length: 640 }, (_, i) => i % 251));
    for (const end of [false, true]) {
      const read = readAudioInput(encodeMessage(audioInputMessage({ reqId: 'réq-1', audio, end })));
      expect(read?.reqId).toBe('réq-1');
      expect(read?.end).toBe(end);
      expect([...read!.audio]).toEqual([...audio]);
    }
    expect(readAudioInput(encodeMessage(audioInputMessage({ reqId: 'x', end: true })))).toMatchObject({
      reqId: 'x',
      end: true,
    });
    expect(readAudioInput(encodeMessage(interruptMessage('x')))).toBeUndefined();
    expect(readAudioInput(new Uint8Array([0x08, 0x03, 0x22, 0x05, 0x0a]))).toBeUndefined(); // truncated
    expect(readAudioInput(new Uint8Array([0x08, 0x03, 0x22, 0x02, 0x0a, 0x01]))).toBeUndefined(); // length past the end
    expect(readAudioInput(new Uint8Array([0x08, 0x03, 0x22, 0x00, 0x50, 0x01]))).toBeUndefined(); // unknown field
    expect(readAudioInput(new Uint8Array([0x08, 0x03, 0x22, 0x03, 0x0a, 0x01, 0xff]))).toBeUndefined(); // bad UTF-8
  });

  it("reuses a session's last req_id only when the bytes are the same", async () => {
    const { readAudioInput, createReqIdCache } = await import('../src/ingress/audio-fast-path.js');
    const { audioInputMessage, encodeMessage } = await import('@avatar-drive/core');
    const cache = createReqIdCache();
    const read = (reqId: string) =>
      readAudioInput(encodeMessage(audioInputMessage({ reqId, audio: new Uint8Array(4) })), cache)?.reqId;
    expect(read('utt-aé')).toBe('utt-aé');
    expect(read('utt-aé')).toBe('utt-aé');
    expect(read('utt-bé')).toBe('utt-bé');
    expect(read('utt-b')).toBe('utt-b');
    // Invalid UTF-8 is still refused with a warm cache.
    expect(readAudioInput(new Uint8Array([0x08, 0x03, 0x22, 0x03, 0x0a, 0x01, 0xff]), cache)).toBeUndefined();
  });
});
