import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  createDriveFrame,
  decodeRelayMessage,
  encodeMessage,
  encodeRelayMessage,
  extractResponseAnimation,
  peekConversationId,
  peekRelayKind,
  RelayDecoder,
  RelayEncoder,
  RelaySequencer,
  responseAnimationMessage,
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

const pcm = (samples: number) => new Uint8Array(samples * 2).map((_, i) => i & 0xff);
const animationBytes = (end: boolean) =>
  extractResponseAnimation(
    encodeMessage(responseAnimationMessage({ reqId: 'r', frames: [createDriveFrame()], end })),
  );

describe('relay format', () => {
  it('round-trips audio and animation and peeks the conversation id and kind', () => {
    const encoder = new RelayEncoder();
    const audio = encoder.audio('conv-é', pcm(160), { sampleRate: 8000 });
    const anim = encoder.animation('conv-é', animationBytes(true));
    expect(peekConversationId(audio)).toBe('conv-é');
    expect(peekRelayKind(anim)).toBe('animation');
    const a = decodeRelayMessage(audio);
    expect(a).toMatchObject({
      kind: 'audio',
      conversationId: 'conv-é',
      sequence: 0,
      last: false,
      sampleRate: 8000,
    });
    if (a.kind !== 'audio') throw new Error('kind');
    expect(a.pcm).toEqual(pcm(160));
    const b = decodeRelayMessage(anim);
    if (b.kind !== 'animation') throw new Error('kind');
    // last defaults to the animation's end flag; the payload is relayed byte for byte.
    expect(b.last).toBe(true);
    expect(b.payload).toEqual(animationBytes(true));
    expect(b.animation.animation?.keyframes).toHaveLength(1);
  });

  it('encoder validates its input', () => {
    const encoder = new RelayEncoder();
    expect(caught(() => encoder.audio('', pcm(1), { sampleRate: 16000 })).code).toBe('invalidRequest');
    expect(caught(() => encoder.audio('c', pcm(1), { sampleRate: 44000 })).code).toBe(
      'unsupportedSampleRate',
    );
    expect(caught(() => encoder.audio('c', new Uint8Array(3), { sampleRate: 16000 })).code).toBe(
      'invalidAudio',
    );
    expect(caught(() => encoder.audio('x'.repeat(256), pcm(1), { sampleRate: 16000 })).code).toBe(
      'invalidRequest',
    );
    expect(caught(() => encoder.audio('\ud800', pcm(1), { sampleRate: 16000 })).code).toBe('invalidRequest');
    expect(caught(() => encoder.animation('c', new Uint8Array([0xff]))).code).toBe('invalidRequest');
    expect(caught(() => encoder.animation('c', { end: true } as never)).code).toBe('invalidRequest');
    expect(
      caught(() =>
        encodeRelayMessage({
          kind: 'audio',
          conversationId: 'c',
          sequence: -1,
          last: false,
          sampleRate: 16000,
          pcm: pcm(1),
        }),
      ).code,
    ).toBe('invalidRequest');
  });

  it('encoder serializes a parsed ServerResponseAnimation and takes last from its end flag', () => {
    const parsed = decodeRelayMessage(new RelayEncoder().animation('c', animationBytes(true)));
    if (parsed.kind !== 'animation') throw new Error('kind');
    const again = decodeRelayMessage(new RelayEncoder().animation('c', parsed.animation));
    expect(again.last).toBe(true);
    if (again.kind !== 'animation') throw new Error('kind');
    expect(again.payload).toEqual(animationBytes(true));
    const forcedLast = decodeRelayMessage(
      new RelayEncoder().animation('c', animationBytes(false), { last: true }),
    );
    expect(forcedLast.last).toBe(true);
  });

  it('encoder parses animation bytes only when it must read their end flag', () => {
    const notProtobuf = new Uint8Array([0xff, 0xff, 0xff]);
    expect(caught(() => new RelayEncoder().animation('c', notProtobuf)).code).toBe('invalidRequest');
    // A caller that decoded the message already passes `last`: the bytes are relayed as they are,
    // and the receiving side still refuses a payload that is not an animation.
    const relayed = new RelayEncoder().animation('c', notProtobuf, { last: false });
    expect(caught(() => decodeRelayMessage(relayed)).code).toBe('protocolError');
    const good = decodeRelayMessage(new RelayEncoder().animation('c', animationBytes(true), { last: false }));
    expect(good.last).toBe(false);
  });

  it('encoder numbers audio and animation separately and refuses to continue a finished stream', () => {
    const encoder = new RelayEncoder();
    encoder.audio('c', pcm(1), { sampleRate: 16000 });
    encoder.audio('c', pcm(1), { sampleRate: 16000 });
    encoder.animation('c', animationBytes(false));
    expect(encoder.nextSequence('c', 'audio')).toBe(2);
    expect(encoder.nextSequence('c', 'animation')).toBe(1);
    expect(encoder.nextSequence('other', 'audio')).toBe(0);
    encoder.audio('c', new Uint8Array(0), { sampleRate: 16000, last: true });
    expect(caught(() => encoder.audio('c', pcm(1), { sampleRate: 16000 })).code).toBe('invalidState');
    // The animation stream is still open.
    expect(decodeRelayMessage(encoder.animation('c', animationBytes(true))).sequence).toBe(1);
  });

  it('rejects malformed headers with protocolError', () => {
    const good = new RelayEncoder().audio('conv', pcm(2), { sampleRate: 16000 });
    const mutate = (at: number, value: number) => {
      const copy = good.slice();
      copy[at] = value;
      return copy;
    };
    const cases: Array<[Uint8Array | string, RegExp]> = [
      ['text', /as text/],
      [good.subarray(0, 5), /shorter than/],
      [mutate(0, 0x08), /relay magic/],
      [mutate(1, 2), /relay version 2/],
      [mutate(2, 3), /kind byte/],
      [mutate(3, 0x80), /reserved flag/],
      [mutate(8, 0), /id is empty/],
      [mutate(8, 200), /cut off/],
      [mutate(9, 0xff), /not valid UTF-8/],
      [mutate(15, 0x01), /sample rate/],
      [good.subarray(0, good.length - 1), /odd byte count/],
      [good.subarray(0, 14), /sample rate is cut off/],
    ];
    for (const [input, pattern] of cases) {
      const error = caught(() => decodeRelayMessage(input));
      expect(error.code).toBe('protocolError');
      expect(error.message).toMatch(pattern);
    }
    expect(caught(() => decodeRelayMessage(good, { maxBytes: 10 })).message).toMatch(/limit/);
    expect(caught(() => peekConversationId(mutate(0, 0))).code).toBe('protocolError');
  });
});

describe('relay sequencing', () => {
  const msg = (
    sequence: number,
    last = false,
    kind: 'audio' | 'animation' = 'audio',
    conversationId = 'c',
  ) => ({
    kind,
    conversationId,
    sequence,
    last,
  });
  const problem = (sequencer: RelaySequencer, m: ReturnType<typeof msg>) => {
    const error = caught(() => sequencer.check(m));
    expect(error.code).toBe('protocolError');
    return error.details?.problem;
  };

  it('accepts in-order streams, per conversation and kind independently', () => {
    const s = new RelaySequencer();
    s.check(msg(0));
    s.check(msg(0, false, 'animation'));
    s.check(msg(0, false, 'audio', 'd'));
    s.check(msg(1, true));
    s.check(msg(1, true, 'animation'));
  });

  it('detects a duplicate', () => {
    const s = new RelaySequencer();
    s.check(msg(0));
    s.check(msg(1));
    expect(problem(s, msg(1))).toBe('duplicate');
    s.check(msg(2));
  });

  it('detects a missing message, then resynchronizes', () => {
    const s = new RelaySequencer();
    s.check(msg(0));
    const error = caught(() => s.check(msg(3)));
    expect(error.details).toMatchObject({
      problem: 'missing',
      expected: 1,
      received: 3,
      conversationId: 'c',
    });
    expect(error.message).toMatch(/skips messages 1\.\.2/);
    s.check(msg(4));
  });

  it('a first message that is not 0 is missing messages', () => {
    expect(problem(new RelaySequencer(), msg(1))).toBe('missing');
  });

  it('tells a late message (out-of-order) from a repeated one (duplicate)', () => {
    const s = new RelaySequencer();
    s.check(msg(0));
    expect(problem(s, msg(2))).toBe('missing');
    expect(problem(s, msg(1))).toBe('out-of-order');
    expect(problem(s, msg(1))).toBe('duplicate');
    s.check(msg(3));
  });

  it('reports messages after the last one', () => {
    const s = new RelaySequencer();
    s.check(msg(0, true));
    expect(problem(s, msg(1))).toBe('after-last');
    expect(problem(s, msg(0))).toBe('duplicate');
  });

  it('forgets the least recently seen conversation beyond maxConversations', () => {
    const s = new RelaySequencer({ maxConversations: 2 });
    s.check(msg(0, false, 'audio', 'a'));
    s.check(msg(0, false, 'audio', 'b'));
    s.check(msg(1, false, 'audio', 'a'));
    s.check(msg(0, false, 'audio', 'c')); // evicts b, the least recently seen
    s.check(msg(2, false, 'audio', 'a')); // a was kept
    s.check(msg(0, false, 'audio', 'b')); // b starts over; evicts c
    s.check(msg(0, false, 'audio', 'c')); // so does c
    expect(problem(s, msg(0, false, 'audio', 'c'))).toBe('duplicate');
    expect(caught(() => new RelaySequencer({ maxGaps: 0 })).code).toBe('invalidRequest');
  });

  it('RelayDecoder decodes and sequences in one call', () => {
    const encoder = new RelayEncoder();
    const decoder = new RelayDecoder();
    const first = encoder.audio('c', pcm(4), { sampleRate: 24000 });
    const second = encoder.audio('c', pcm(4), { sampleRate: 24000, last: true });
    expect(decoder.decode(first).sequence).toBe(0);
    expect(caught(() => decoder.decode(first)).details?.problem).toBe('duplicate');
    expect(decoder.decode(second).last).toBe(true);
    decoder.forget('c');
    expect(decoder.decode(first).sequence).toBe(0);
  });
});
