import {
  AnimationBytes,
  createDriveFrame,
  createReqIdCache,
  driveFrameToFlame,
  readAudioInput,
  wire,
} from '@avatar-drive/core';
import { create, equals, fromBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { animationFrame, binaryFrame } from '../src/ingress/socket/animation-frames.js';

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

describe('AnimationBytes (core) as the service uses it', () => {
  it.each([
    ['frames, not end', [frame(0), frame(1), frame(2)], false, 'r-1'],
    ['frames and end', [frame(7)], true, '20261121000000_abcdefabcdef'],
    ['end without frames', [], true, 'x'],
    ['many frames (multi-byte lengths)', Array.from({ length: 300 }, (_, i) => frame(i)), false, 'long'],
  ])('encodes %s exactly as the generated schema decodes it', (_name, frames, end, reqId) => {
    const bytes = new AnimationBytes('conn_abc', 'test-avatar').encode(reqId, frames, end);
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

describe('animationFrame', () => {
  /** Reads one unmasked server→client WebSocket frame: [fin+opcode, payload]. */
  function parseFrame(frame: Uint8Array): [number, Uint8Array] {
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    expect(frame[1]! & 0x80).toBe(0); // a server never masks
    let length = frame[1]! & 0x7f;
    let at = 2;
    if (length === 126) {
      length = view.getUint16(2);
      at = 4;
    } else if (length === 127) {
      length = Number(view.getBigUint64(2));
      at = 10;
    }
    expect(frame.length).toBe(at + length);
    return [frame[0]!, frame.subarray(at)];
  }

  it.each([
    ['a short message (7-bit length)', [], true, 'x'],
    ['one frame (16-bit length)', [frame(1)], false, 'req-1'],
    ['a long message (64-bit length)', Array.from({ length: 200 }, (_, i) => frame(i)), true, 'long'],
  ])(
    'wraps %s in one final binary WebSocket frame around the same bytes as encode()',
    (_n, frames, end, reqId) => {
      const encoder = new AnimationBytes('conn_abc', 'test-avatar');
      const [head, payload] = parseFrame(animationFrame(encoder, reqId, frames, end));
      expect(head).toBe(0x82);
      expect(Buffer.from(payload).equals(Buffer.from(encoder.encode(reqId, frames, end)))).toBe(true);
    },
  );

  it('never sends a non-finite rig value', () => {
    const f = frame(0);
    f.expression[0] = Number.NaN;
    f.visemes[1] = Number.POSITIVE_INFINITY;
    f.jawPose[2] = Number.NEGATIVE_INFINITY;
    const [, payload] = parseFrame(animationFrame(new AnimationBytes('c', 'a'), 'r', [f], false));
    const decoded = fromBinary(wire.MessageSchema, payload);
    const flame =
      decoded.data.case === 'serverResponseAnimation'
        ? decoded.data.value.animation?.keyframes[0]
        : undefined;
    expect(flame?.expression[0]).toBe(0);
    expect(flame?.visemes[1]).toBe(0);
    expect(flame?.jawPose[2]).toBe(0);
    expect(flame?.expression[1]).toBeCloseTo(f.expression[1]!, 6);
  });
});

/** ws's own frame builder (exported by ws, not declared by its types). */
const { Sender } = wsModule as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};

describe('binaryFrame', () => {
  it.each([0, 5, 125, 126, 65535, 65536, 70000])(
    'writes the same bytes as ws for an unmasked binary message of %i bytes',
    (size) => {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 0xff);
      const fromWs = Buffer.concat(
        Sender.frame(Buffer.from(bytes), { fin: true, opcode: 2, mask: false, readOnly: false, rsv1: false }),
      );
      expect(binaryFrame(bytes).equals(fromWs)).toBe(true);
    },
  );
});

describe('readAudioInput (core, the fast path)', () => {
  it('reads what the generated schema encodes, and declines anything else', async () => {
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
