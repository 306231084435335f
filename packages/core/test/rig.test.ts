import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  ARKIT_INDEX,
  AvatarError,
  createDriveFrame,
  type DriveFrame,
  driveFrameToFlame,
  FPS,
  FRAME_LAYOUT,
  FRAME_MS,
  flameToDriveFrame,
  frameAtSample,
  frameCountForSamples,
  frameSampleRange,
  MAX_TOKEN_TTL_SECONDS,
  PACKED_DRIVE_FRAME_FLOATS,
  packDriveFrames,
  packDriveFramesInto,
  SUPPORTED_SAMPLE_RATES,
  samplesPerFrame,
  tokenExpiry,
  unpackDriveFrames,
  VISEME_INDEX,
  VISEMES,
  wire,
} from '../src/index.js';

const FIELDS = Object.keys(FRAME_LAYOUT) as (keyof typeof FRAME_LAYOUT)[];

const frameArb = fc
  .record(
    Object.fromEntries(
      FIELDS.map((f) => [
        f,
        fc.float32Array({ minLength: FRAME_LAYOUT[f], maxLength: FRAME_LAYOUT[f], noNaN: true }),
      ]),
    ) as Record<keyof typeof FRAME_LAYOUT, fc.Arbitrary<Float32Array>>,
  )
  .chain((fields) => fc.nat(100000).map((index) => ({ index, ...fields }) as DriveFrame));

describe('rig constants', () => {
  it('match docs/protocol.md (Keyframe layout)', () => {
    expect(FPS).toBe(25);
    expect(FRAME_MS).toBe(40);
    expect(ARKIT_BLENDSHAPES).toHaveLength(52);
    expect(new Set(ARKIT_BLENDSHAPES).size).toBe(52);
    expect(ARKIT_INDEX.eyeBlinkLeft).toBe(0);
    expect(ARKIT_INDEX.jawOpen).toBe(17);
    expect(ARKIT_INDEX.tongueOut).toBe(51);
    expect(VISEMES).toEqual([
      'sil',
      'PP',
      'FF',
      'TH',
      'DD',
      'kk',
      'CH',
      'SS',
      'nn',
      'RR',
      'aa',
      'E',
      'I',
      'O',
      'U',
    ]);
    expect(VISEME_INDEX.aa).toBe(10);
    expect(FRAME_LAYOUT).toEqual({
      translation: 3,
      rotation: 3,
      neckPose: 3,
      jawPose: 3,
      eyePose: 6,
      eyeLid: 2,
      expression: 52,
      visemes: 15,
    });
  });
});

describe('DriveFrame ⇄ Flame', () => {
  it('round-trips every field exactly, also through the wire bytes', () => {
    fc.assert(
      fc.property(frameArb, (frame) => {
        const flame = driveFrameToFlame(frame);
        const back = flameToDriveFrame(flame, frame.index);
        expect(back).toEqual(frame);
        const bytes = toBinary(wire.FlameSchema, flame);
        expect(flameToDriveFrame(fromBinary(wire.FlameSchema, bytes), frame.index)).toEqual(frame);
      }),
      { numRuns: 50 },
    );
  });

  it('reads missing fields as neutral', () => {
    const frame = flameToDriveFrame(create(wire.FlameSchema, { jawPose: [0.1, 0, 0] }), 7);
    expect(frame.index).toBe(7);
    expect(frame.jawPose[0]).toBeCloseTo(0.1, 6);
    expect(Array.from(frame.expression)).toEqual(new Array(52).fill(0));
  });

  it.each(FIELDS)('rejects a wrong-length %s with protocolError, both ways', (field) => {
    const wireName: Record<string, string> = {
      neckPose: 'neck_pose',
      jawPose: 'jaw_pose',
      eyePose: 'eye_pose',
      eyeLid: 'eye_lid',
    };
    const flame = create(wire.FlameSchema, { [field]: new Array(FRAME_LAYOUT[field] + 1).fill(0) });
    let caught: unknown;
    try {
      flameToDriveFrame(flame);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AvatarError);
    expect((caught as AvatarError).code).toBe('protocolError');
    expect((caught as AvatarError).message).toContain(wireName[field] ?? field);

    const frame = createDriveFrame();
    (frame as unknown as Record<string, unknown>)[field] = new Float32Array(FRAME_LAYOUT[field] - 1);
    expect(() => driveFrameToFlame(frame)).toThrow(expect.objectContaining({ code: 'protocolError' }));
    (frame as unknown as Record<string, unknown>)[field] = new Array(FRAME_LAYOUT[field]).fill(0);
    expect(() => driveFrameToFlame(frame)).toThrow(/Float32Array/);
  });
});

describe('frame ⇄ sample ranges', () => {
  it.each(SUPPORTED_SAMPLE_RATES)('%i Hz: ranges tile the stream exactly and map back', (rate) => {
    expect(samplesPerFrame(rate)).toBe(rate / 25);
    expect(Number.isInteger(samplesPerFrame(rate))).toBe(true);
    let expectedStart = 0;
    for (let k = 0; k < 60; k++) {
      const [start, end] = frameSampleRange(k, rate);
      expect(start).toBe(expectedStart);
      expect(end - start).toBe(rate / 25);
      expect(frameAtSample(start, rate)).toBe(k);
      expect(frameAtSample(end - 1, rate)).toBe(k);
      expectedStart = end;
    }
    expect(frameCountForSamples(0, rate)).toBe(0);
    expect(frameCountForSamples(1, rate)).toBe(1);
    expect(frameCountForSamples(rate, rate)).toBe(25);
    expect(frameCountForSamples(rate + 1, rate)).toBe(26);
  });

  it('tiles exactly for rates that do not divide by 25 too', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200000 }), fc.nat(2000), (rate, k) => {
        const [start, end] = frameSampleRange(k, rate);
        expect(frameSampleRange(k + 1, rate)[0]).toBe(end);
        if (end > start) {
          expect(frameAtSample(start, rate)).toBe(k);
          expect(frameAtSample(end - 1, rate)).toBe(k);
        }
        // Frames cover time: the count includes the frame holding the last sample, and at most
        // one more that starts inside that last sample's duration.
        if (end > 0) {
          const count = frameCountForSamples(end, rate);
          expect(count).toBeGreaterThan(frameAtSample(end - 1, rate));
          expect(count).toBeLessThanOrEqual(frameAtSample(end - 1, rate) + Math.ceil(25 / rate) + 1);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('rejects negative, fractional and non-number inputs with invalidRequest', () => {
    for (const fn of [
      () => frameSampleRange(-1, 16000),
      () => frameSampleRange(1.5, 16000),
      () => frameAtSample(0, 0),
      () => frameCountForSamples(Number.NaN, 16000),
      () => samplesPerFrame(-16000),
    ]) {
      expect(fn).toThrow(expect.objectContaining({ code: 'invalidRequest' }));
    }
  });
});

describe('drive frames packed for a worker', () => {
  it('derives its size from FRAME_LAYOUT and round-trips index and every field, float32 for float32', () => {
    expect(PACKED_DRIVE_FRAME_FLOATS).toBe(1 + Object.values(FRAME_LAYOUT).reduce((a, b) => a + b, 0));
    expect(PACKED_DRIVE_FRAME_FLOATS).toBe(88);
    const frames = [4, 5, 6].map((k) => {
      const frame = createDriveFrame(k);
      for (const field of FIELDS)
        for (let i = 0; i < frame[field].length; i++)
          frame[field][i] = Math.fround(Math.sin(k * 100 + i) / 3);
      return frame;
    });
    const packed = packDriveFrames(frames);
    expect(packed.length).toBe(3 * PACKED_DRIVE_FRAME_FLOATS);
    const back = unpackDriveFrames(packed);
    expect(back.map((f) => f.index)).toEqual([4, 5, 6]);
    for (let k = 0; k < 3; k++)
      for (const field of FIELDS) expect(Array.from(back[k]![field])).toEqual(Array.from(frames[k]![field]));
    // Views, not copies: a worker's buffer is read in place.
    expect(back[1]!.visemes.buffer).toBe(packed.buffer);
    expect(unpackDriveFrames(new Float32Array(0))).toEqual([]);
    expect(unpackDriveFrames(packed.subarray(0, PACKED_DRIVE_FRAME_FLOATS + 5))).toHaveLength(1);
  });

  it('packs into a shared buffer at an offset, batch after batch', () => {
    const out = new Float32Array(3 * PACKED_DRIVE_FRAME_FLOATS + 2);
    let at = packDriveFramesInto([createDriveFrame(0)], out, 2);
    expect(at).toBe(2 + PACKED_DRIVE_FRAME_FLOATS);
    at = packDriveFramesInto([createDriveFrame(1), createDriveFrame(2)], out, at);
    expect(at).toBe(out.length);
    expect(unpackDriveFrames(out.subarray(2)).map((f) => f.index)).toEqual([0, 1, 2]);
  });
});

describe('session token facts', () => {
  it('bounds a token lifetime at 24 h and reads a JWT exp claim; anything else is unknown', () => {
    expect(MAX_TOKEN_TTL_SECONDS).toBe(86_400);
    const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(tokenExpiry(`${b64url({ alg: 'HS256' })}.${b64url({ exp: 1_700_000_000 })}.sig`)).toBe(
      1_700_000_000,
    );
    expect(tokenExpiry(`${b64url({})}.${b64url({ exp: 'soon' })}.sig`)).toBeUndefined();
    expect(
      tokenExpiry(`${b64url({})}.${Buffer.from([0xff, 0xfe]).toString('base64url')}.sig`),
    ).toBeUndefined();
    expect(tokenExpiry('opaque')).toBeUndefined();
  });
});
