/**
 * Differential fuzz tests: core's fast byte codecs (wire/fast/) against protobuf-es, the
 * reference. The audio reader must agree with `decodeMessage` on every frame it answers for and
 * leave every other frame to it, so the service (fast path, else `decodeMessage`) accepts and
 * rejects exactly what protobuf-es does; the encoders must write the very bytes protobuf-es
 * writes; the server-message scan must read what `decodeMessage` decodes.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  AnimationBytes,
  AvatarError,
  audioInputMessage,
  confirmSessionMessage,
  createReqIdCache,
  createScannedMessage,
  type DriveFrame,
  decodeMessage,
  encodeAudioInput,
  encodeMessage,
  FRAME_LAYOUT,
  type Message,
  MessageSchema,
  PlaybackState,
  playbackStateMessage,
  readAudioInput,
  responseAnimationMessage,
  scanServerMessage,
  serverErrorMessage,
} from '../src/index.js';

// Thousands of cases per property: bounded in count, but slow on a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

const text = fc.string({ unit: 'binary', maxLength: 20 });
const reqId = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 });
const audio = fc.uint8Array({ maxLength: 64 });

/** A well-formed audio-input frame, as protobuf-es writes it. */
const audioFrame = fc
  .record({ reqId, audio, end: fc.boolean() })
  .map((init) => encodeMessage(audioInputMessage(init)));

const floats = (n: number) =>
  fc.float32Array({ minLength: n, maxLength: n, noNaN: true, noDefaultInfinity: true });
const driveFrame = (index: number): fc.Arbitrary<DriveFrame> =>
  fc.record({
    index: fc.constant(index),
    visemes: floats(FRAME_LAYOUT.visemes),
    expression: floats(FRAME_LAYOUT.expression),
    jawPose: floats(FRAME_LAYOUT.jawPose),
    rotation: floats(FRAME_LAYOUT.rotation),
    neckPose: floats(FRAME_LAYOUT.neckPose),
    eyePose: floats(FRAME_LAYOUT.eyePose),
    eyeLid: floats(FRAME_LAYOUT.eyeLid),
    translation: floats(FRAME_LAYOUT.translation),
  });
const frames = fc
  .integer({ min: 0, max: 3 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => driveFrame(i))));
const animationInit = fc.record({ connectionId: text, reqId, end: fc.boolean(), frames, avatarId: text });

/** Server messages of every kind the scan may meet. */
const serverMessage: fc.Arbitrary<Message> = fc.oneof(
  animationInit.map(responseAnimationMessage),
  fc
    .record({ connectionId: text, reqId: text, code: fc.integer({ min: 4000, max: 4600 }), message: text })
    .map(serverErrorMessage),
  fc.record({ connectionId: text }).map((init) => confirmSessionMessage(init)),
  fc
    .record({
      connectionId: text,
      reqId,
      state: fc.constantFrom(PlaybackState.PLAYING, PlaybackState.PAUSED, PlaybackState.ENDED),
      playedMs: fc.nat(1e6),
    })
    .map(playbackStateMessage),
);

/** Edits a frame the way a broken or hostile peer would. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(bytes: Uint8Array, edits: readonly Mutation[]): Uint8Array {
  let b = bytes;
  for (const edit of edits) {
    const at = b.length === 0 ? 0 : edit.at % (b.length + 1);
    if (edit.kind === 'flip') {
      if (b.length === 0) continue;
      b = b.slice();
      b[at % b.length] = edit.value;
    } else if (edit.kind === 'insert') {
      b = concat(b.subarray(0, at), edit.bytes, b.subarray(at));
    } else if (edit.kind === 'delete') {
      b = concat(b.subarray(0, at), b.subarray(at + edit.count));
    } else {
      b = b.subarray(0, at);
    }
  }
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A field of Message (number `field`, length-delimited) around `body`. */
function lengthField(field: number, body: Uint8Array): Uint8Array {
  if (body.length > 127) throw new Error('test bodies stay below 128 bytes');
  return concat(new Uint8Array([(field << 3) | 2, body.length]), body);
}

/** Frames near the audio path: valid, concatenated (repeated fields), mutated, or random. */
const hostileFrame = fc.oneof(
  audioFrame,
  fc.tuple(audioFrame, audioFrame).map(([a, b]) => concat(a, b)),
  fc
    .tuple(audioFrame, fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([b, edits]) => mutate(b, edits)),
  fc
    .tuple(audioFrame, audioFrame, fc.array(mutation, { maxLength: 2 }))
    .map(([a, b, edits]) => mutate(concat(a, b.subarray(2)), edits)),
  fc
    .tuple(serverMessage, fc.array(mutation, { maxLength: 2 }))
    .map(([m, edits]) => mutate(encodeMessage(m), edits)),
  fc
    .uint8Array({ maxLength: 48 })
    .map((body) => concat(new Uint8Array([0x08, 3]), lengthField(4, body.subarray(0, 127)))),
  fc.uint8Array({ maxLength: 64 }),
);

type Outcome = { ok: true; message: Message } | { ok: false; code: string };

function reference(bytes: Uint8Array): Outcome {
  try {
    return { ok: true, message: decodeMessage(bytes) };
  } catch (error) {
    if (!(error instanceof AvatarError)) throw error;
    return { ok: false, code: error.code };
  }
}

/** What the service does with a frame: the fast path, else the full decoder. */
function serviceRead(bytes: Uint8Array): Outcome {
  const fast = readAudioInput(bytes, createReqIdCache());
  if (fast)
    return {
      ok: true,
      message: create(MessageSchema, { type: 3, data: { case: 'clientAudioInput', value: fast } }),
    };
  return reference(bytes);
}

function expectFastAgrees(bytes: Uint8Array): void {
  const fast = readAudioInput(bytes);
  const ref = reference(bytes);
  if (fast === undefined) return;
  // Whatever the fast path answers, protobuf-es decodes to the same ClientAudioInput.
  expect(ref.ok).toBe(true);
  if (!ref.ok) return;
  expect(ref.message.data.case).toBe('clientAudioInput');
  if (ref.message.data.case !== 'clientAudioInput') return;
  const value = ref.message.data.value;
  expect(fast.reqId).toBe(value.reqId);
  expect(fast.end).toBe(value.end);
  expect(Array.from(fast.audio)).toEqual(Array.from(value.audio));
}

describe('readAudioInput (the audio fast path) against protobuf-es', () => {
  it('reads every well-formed audio frame exactly as decodeMessage does', () => {
    fc.assert(
      fc.property(audioFrame, (bytes) => {
        expect(readAudioInput(bytes)).toBeDefined();
        expectFastAgrees(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('never answers differently from decodeMessage on repeated, mutated or random frames', () => {
    fc.assert(fc.property(hostileFrame, expectFastAgrees), { numRuns: 1500 });
  });

  it('with the fast path first, accepts and rejects exactly what decodeMessage does', () => {
    fc.assert(
      fc.property(hostileFrame, (bytes) => {
        const ref = reference(bytes);
        const got = serviceRead(bytes);
        expect(got.ok).toBe(ref.ok);
        if (!ref.ok && !got.ok) expect(got.code).toBe(ref.code);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves a repeated client_audio_input to the full decoder, which merges the two', () => {
    // {req_id:"m1", audio} then {end:true} as two field-4 entries: protobuf merges them.
    const first = concat(new Uint8Array([0x0a, 2, 0x6d, 0x31]), new Uint8Array([0x1a, 2, 1, 2]));
    const bytes = concat(
      new Uint8Array([0x08, 3]),
      lengthField(4, first),
      lengthField(4, new Uint8Array([0x10, 1])),
    );
    expect(readAudioInput(bytes)).toBeUndefined();
    const decoded = decodeMessage(bytes);
    if (decoded.data.case !== 'clientAudioInput') throw new Error('wrong case');
    expect(decoded.data.value).toMatchObject({ reqId: 'm1', end: true, audio: new Uint8Array([1, 2]) });
  });

  it('leaves invalid UTF-8, unknown fields and non-canonical keys to the full decoder', () => {
    const bad = [
      concat(new Uint8Array([0x08, 3]), lengthField(4, new Uint8Array([0x0a, 1, 0xff]))),
      concat(new Uint8Array([0x08, 3]), lengthField(4, new Uint8Array([0x20, 1]))),
      concat(new Uint8Array([0x88, 0x00, 3]), lengthField(4, new Uint8Array([0x0a, 1, 0x61]))),
      concat(
        new Uint8Array([0x08, 3]),
        lengthField(4, new Uint8Array([0x0a, 1, 0x61])),
        new Uint8Array([0x78, 1]),
      ),
    ];
    for (const bytes of bad) expect(readAudioInput(bytes)).toBeUndefined();
  });

  it('serves a repeated req_id from the cache with the same answer', () => {
    fc.assert(
      fc.property(fc.array(audioFrame, { minLength: 1, maxLength: 6 }), (list) => {
        const cache = createReqIdCache();
        for (const bytes of list) expect(readAudioInput(bytes, cache)).toEqual(readAudioInput(bytes));
      }),
      { numRuns: 200 },
    );
  });
});

describe('encodeAudioInput against protobuf-es', () => {
  it('writes the bytes encodeMessage(audioInputMessage(...)) writes', () => {
    fc.assert(
      fc.property(reqId, audio, fc.boolean(), (id, pcm, end) => {
        expect(encodeAudioInput(id, pcm, end)).toEqual(
          encodeMessage(audioInputMessage({ reqId: id, audio: pcm, end })),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('AnimationBytes against protobuf-es', () => {
  it('writes the bytes encodeMessage(responseAnimationMessage(...)) writes', () => {
    fc.assert(
      fc.property(animationInit, (init) => {
        const encoder = new AnimationBytes(init.connectionId, init.avatarId);
        const expected = encodeMessage(responseAnimationMessage(init));
        expect(encoder.encode(init.reqId, init.frames, init.end)).toEqual(expected);
        // At an offset, after a header of the caller's, as the service writes it.
        const size = encoder.measure(init.reqId, init.frames, init.end);
        const out = new Uint8Array(size + 3);
        expect(encoder.writeTo(out, 3)).toBe(size + 3);
        expect(out.subarray(3)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('writes a non-finite value as 0 (clients reject NaN and infinities)', () => {
    const frame = {
      index: 0,
      visemes: new Float32Array(FRAME_LAYOUT.visemes).fill(Number.NaN),
      expression: new Float32Array(FRAME_LAYOUT.expression).fill(Number.POSITIVE_INFINITY),
      jawPose: new Float32Array(3),
      rotation: new Float32Array(3),
      neckPose: new Float32Array(3),
      eyePose: new Float32Array(6),
      eyeLid: new Float32Array(2),
      translation: new Float32Array(3),
    };
    const bytes = new AnimationBytes('c', 'a').encode('r', [frame], true);
    const zeros = {
      ...frame,
      visemes: new Float32Array(FRAME_LAYOUT.visemes),
      expression: new Float32Array(FRAME_LAYOUT.expression),
    };
    expect(bytes).toEqual(
      encodeMessage(
        responseAnimationMessage({
          connectionId: 'c',
          avatarId: 'a',
          reqId: 'r',
          end: true,
          frames: [zeros],
        }),
      ),
    );
  });
});

describe('scanServerMessage against protobuf-es', () => {
  function expectScanAgrees(bytes: Uint8Array, message: Message): void {
    const out = createScannedMessage();
    scanServerMessage(bytes, 0, bytes.length, out);
    expect(out.type).toBe(message.type);
    if (message.data.case !== 'serverResponseAnimation') return;
    const value = message.data.value;
    expect(out.keyframes).toBe(value.animation?.keyframes.length ?? 0);
    expect(out.end).toBe(value.end);
    expect(new TextDecoder().decode(bytes.subarray(out.reqIdStart, out.reqIdEnd))).toBe(value.reqId);
  }

  it('reads every server message protobuf-es writes', () => {
    fc.assert(
      fc.property(serverMessage, (message) =>
        expectScanAgrees(encodeMessage(message), fromBinary(MessageSchema, encodeMessage(message))),
      ),
      { numRuns: 200 },
    );
  });

  it('reads repeated animation fields merged, as decodeMessage does', () => {
    fc.assert(
      fc.property(animationInit, animationInit, (a, b) => {
        const second = encodeMessage(responseAnimationMessage(b));
        const bytes = concat(encodeMessage(responseAnimationMessage(a)), second.subarray(2));
        expectScanAgrees(bytes, decodeMessage(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it('on mutated frames, agrees with decodeMessage whenever it does not call them malformed', () => {
    fc.assert(
      fc.property(serverMessage, fc.array(mutation, { minLength: 1, maxLength: 3 }), (message, edits) => {
        const bytes = mutate(encodeMessage(message), edits);
        const ref = reference(bytes);
        const out = createScannedMessage();
        scanServerMessage(bytes, 0, bytes.length, out);
        if (ref.ok && out.type !== 0) expectScanAgrees(bytes, ref.message);
      }),
      { numRuns: 1000 },
    );
  });
});
