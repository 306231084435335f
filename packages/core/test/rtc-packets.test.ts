// The RTC packet codec (docs/rtc.md "What goes into the room"): the byte layout both the
// service's LiveKit egress and the browser's rtc-player rely on.
import { create } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_AUDIO_TRACK_NAME,
  AvatarError,
  CONTROL_TOPIC,
  type ControlMessage,
  decodeControlMessage,
  decodeFramePacket,
  encodeControlMessage,
  encodeFramePacket,
  FRAME_PACKET_VERSION,
  FRAMES_TOPIC,
  type FramePacket,
  ServerResponseAnimationSchema,
} from '../src/index.js';

function packet(overrides: Partial<FramePacket> = {}, keyframes = 2): FramePacket {
  return {
    firstFrameIndex: 7,
    sampleRate: 24000,
    sentAtMs: 1_763_700_000_123.25,
    playAtMs: Array.from({ length: keyframes }, (_, j) => 1_763_700_000_300.5 + 40 * j),
    end: true,
    animation: create(ServerResponseAnimationSchema, {
      connectionId: 'c-1',
      reqId: 'r-1',
      end: true,
      avatarId: 'a-1',
      animation: { keyframes: Array.from({ length: keyframes }, (_, j) => ({ expression: [j / 10, 0.5] })) },
    }),
    ...overrides,
  };
}

const protocolError = expect.objectContaining({ code: 'protocolError' });
const invalidRequest = expect.objectContaining({ code: 'invalidRequest' });

describe('frame packets', () => {
  it('names the topics and track the egress and the player share', () => {
    expect([FRAMES_TOPIC, CONTROL_TOPIC, AVATAR_AUDIO_TRACK_NAME]).toEqual([
      'avatar-drive.frames',
      'avatar-drive.control',
      'avatar-drive.audio',
    ]);
  });

  it('lays the header out as documented (little-endian) and round-trips', () => {
    const p = packet();
    const bytes = encodeFramePacket(p);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint8(0)).toBe(FRAME_PACKET_VERSION);
    expect(view.getUint8(1)).toBe(1);
    expect(view.getUint16(2, true)).toBe(2);
    expect(view.getUint32(4, true)).toBe(7);
    expect(view.getUint32(8, true)).toBe(24000);
    expect(view.getUint32(12, true)).toBe(0);
    expect(view.getFloat64(16, true)).toBe(p.sentAtMs);
    expect(view.getFloat64(24, true)).toBe(p.playAtMs[0]);
    expect(view.getFloat64(32, true)).toBe(p.playAtMs[1]);
    const back = decodeFramePacket(bytes);
    expect(back).toMatchObject({ firstFrameIndex: 7, sampleRate: 24000, sentAtMs: p.sentAtMs, end: true });
    expect(back.playAtMs).toEqual(p.playAtMs);
    expect(back.animation.reqId).toBe('r-1');
    expect(back.animation.avatarId).toBe('a-1');
    expect(back.animation.animation?.keyframes.map((k) => k.expression[0])).toEqual([0, Math.fround(0.1)]);
  });

  it('decodes a packet that sits at an offset inside a larger buffer', () => {
    const bytes = encodeFramePacket(packet({ end: false }));
    const big = new Uint8Array(bytes.length + 13);
    big.set(bytes, 5);
    const back = decodeFramePacket(big.subarray(5, 5 + bytes.length));
    expect(back.end).toBe(false);
    expect(back.playAtMs).toHaveLength(2);
  });

  it('carries an end packet without keyframes', () => {
    const p = packet({}, 0);
    const back = decodeFramePacket(encodeFramePacket(p));
    expect(back.playAtMs).toEqual([]);
    expect(back.end).toBe(true);
  });

  it('round-trips arbitrary packets', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 0xffffffff }),
        fc.constantFrom(8000, 16000, 22050, 24000, 44100, 48000),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 12 }),
        fc.boolean(),
        (first, rate, sent, times, end) => {
          const p = packet({ firstFrameIndex: first, sampleRate: rate, sentAtMs: sent, end }, times.length);
          p.playAtMs = times;
          const back = decodeFramePacket(encodeFramePacket(p));
          expect(back.firstFrameIndex).toBe(first);
          expect(back.sampleRate).toBe(rate);
          expect(Object.is(back.sentAtMs, sent)).toBe(true);
          expect(back.playAtMs).toEqual(times);
          expect(back.end).toBe(end);
          expect(back.animation.animation?.keyframes).toHaveLength(times.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses to encode inconsistent packets with invalidRequest', () => {
    expect(() => encodeFramePacket(packet({ playAtMs: [1] }))).toThrow(invalidRequest);
    expect(() => encodeFramePacket(packet({ firstFrameIndex: -1 }))).toThrow(invalidRequest);
    expect(() => encodeFramePacket(packet({ sampleRate: 1.5 }))).toThrow(invalidRequest);
    expect(() => encodeFramePacket(packet({ sentAtMs: Number.NaN }))).toThrow(invalidRequest);
    expect(() => encodeFramePacket(packet({ playAtMs: [0, Number.POSITIVE_INFINITY] }))).toThrow(
      invalidRequest,
    );
    expect(() => encodeFramePacket({ ...packet(), animation: {} as never })).toThrow(invalidRequest);
    expect(() => encodeFramePacket(null as never)).toThrow(invalidRequest);
  });

  it('rejects malformed bytes with protocolError', () => {
    const good = encodeFramePacket(packet({}, 1));
    const wrongVersion = good.slice();
    wrongVersion[0] = 9;
    const overCount = good.slice();
    new DataView(overCount.buffer).setUint16(2, 2, true); // announces 2, holds 1 (and body shifts)
    const nanTime = good.slice();
    new DataView(nanTime.buffer).setFloat64(24, Number.NaN, true);
    const badBody = good.slice();
    badBody[32] = 0xff; // a tag byte that is not valid protobuf
    for (const bytes of [
      new Uint8Array(0),
      good.subarray(0, 10),
      wrongVersion,
      good.subarray(0, 28),
      overCount,
      nanTime,
      badBody,
    ]) {
      expect(() => decodeFramePacket(bytes)).toThrow(protocolError);
    }
    expect(() => decodeFramePacket('bytes' as never)).toThrow(protocolError);
  });

  it('never throws anything but AvatarError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        try {
          decodeFramePacket(bytes);
        } catch (error) {
          if (!(error instanceof AvatarError)) throw error;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('control messages', () => {
  it('round-trips every type, keeping only the documented fields', () => {
    const messages: ControlMessage[] = [
      { v: 1, type: 'playing', reqId: 'r', atMs: 10 },
      { v: 1, type: 'paused', reqId: 'r', atMs: 11, playedMs: 400 },
      { v: 1, type: 'resumed', reqId: 'r', atMs: 12, playedMs: 400 },
      { v: 1, type: 'interrupted', reqId: 'r', atMs: 13, playedMs: 520 },
      { v: 1, type: 'ended', reqId: 'r', atMs: 14, playedMs: 1000 },
    ];
    for (const m of messages) expect(decodeControlMessage(encodeControlMessage(m))).toEqual(m);
    const extra = { v: 1, type: 'playing', reqId: 'r', atMs: 1, secret: 'x' } as ControlMessage;
    expect(JSON.parse(new TextDecoder().decode(encodeControlMessage(extra)))).toEqual({
      v: 1,
      type: 'playing',
      reqId: 'r',
      atMs: 1,
    });
  });

  it('rejects malformed messages with protocolError, bad input to encode with invalidRequest', () => {
    for (const text of [
      'nope',
      'null',
      '[]',
      '{"v":2,"type":"playing","reqId":"r","atMs":1}',
      '{"v":1,"type":"dance","reqId":"r","atMs":1}',
      '{"v":1,"type":"ended","reqId":"r","atMs":1}',
      '{"v":1,"type":"playing","reqId":3,"atMs":1}',
      '{"v":1,"type":"playing","reqId":"r","atMs":"1"}',
    ]) {
      expect(() => decodeControlMessage(new TextEncoder().encode(text))).toThrow(protocolError);
    }
    expect(() => decodeControlMessage(new Uint8Array([0xff, 0xfe]))).toThrow(protocolError);
    expect(() => decodeControlMessage({} as never)).toThrow(protocolError);
    expect(() => encodeControlMessage({ v: 1, type: 'ended', reqId: 'r', atMs: 1 } as never)).toThrow(
      invalidRequest,
    );
    expect(() => encodeControlMessage({ v: 1, type: 'playing', reqId: 'r', atMs: 10n } as never)).toThrow(
      invalidRequest,
    );
  });

  it('never throws anything but AvatarError on arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true }),
        (value) => {
          for (const fn of [
            encodeControlMessage,
            decodeControlMessage,
            encodeFramePacket,
            decodeFramePacket,
          ]) {
            try {
              (fn as (v: unknown) => unknown)(value);
            } catch (error) {
              if (!(error instanceof AvatarError)) throw error;
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
