// Every public function of core fed arbitrary values: it returns or throws an AvatarError,
// never a TypeError/RangeError from deep inside.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';

const hostile = {
  toString() {
    throw new Error('hostile toString');
  },
  valueOf() {
    throw new Error('hostile valueOf');
  },
};

const value = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withTypedArray: true,
      withSparseArray: true,
    }),
  },
  fc.constantFrom(Symbol('s'), hostile, Object.create(null), 10n),
  fc.int16Array({ maxLength: 16 }),
  fc.float32Array({ maxLength: 16 }),
  fc.uint8Array({ maxLength: 16 }),
  fc.constantFrom(8000, 16000, 44100, 48000, 0, -1, 1.5, Number.NaN, 2, 3),
  fc.constantFrom('ap-northeast', 'us-west', 'ws://h/v2/driveningress', 'http://h', 'start', 'chunk'),
);

function onlyAvatarErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof core.AvatarError)) throw error;
  }
}

type AnyFn = (...args: unknown[]) => unknown;

const FUNCTIONS: Record<string, AnyFn> = {
  validateAudioFormat: core.validateAudioFormat as AnyFn,
  assertSupportedSampleRate: core.assertSupportedSampleRate as AnyFn,
  nearestSupportedSampleRate: core.nearestSupportedSampleRate as AnyFn,
  assertPcmChunk: core.assertPcmChunk as AnyFn,
  int16FromBytes: core.int16FromBytes as AnyFn,
  int16ToBytes: core.int16ToBytes as AnyFn,
  float32ToInt16: core.float32ToInt16 as AnyFn,
  int16ToFloat32: core.int16ToFloat32 as AnyFn,
  downmixInt16: core.downmixInt16 as AnyFn,
  downmixFloat32: core.downmixFloat32 as AnyFn,
  mixPlanarToMono: core.mixPlanarToMono as AnyFn,
  resample: core.resample as AnyFn,
  resamplerPush: (a, b, c) => new core.Resampler(a as number, b as number).push(c as Float32Array),
  toSendablePcm: core.toSendablePcm as AnyFn,
  parseWav: core.parseWav as AnyFn,
  wavToMono: core.wavToMono as AnyFn,
  wavToMonoInt16: core.wavToMonoInt16 as AnyFn,
  wavToInterleaved: core.wavToInterleaved as AnyFn,
  wavToSendablePcm: core.wavToSendablePcm as AnyFn,
  encodeWav: core.encodeWav as AnyFn,
  resolveEndpoints: core.resolveEndpoints as AnyFn,
  ingressUrlWithAuth: core.ingressUrlWithAuth as AnyFn,
  connectionApply: (t) => core.createConnectionMachine().apply(t as core.ConnectionTrigger),
  conversationTransition: (to, t) =>
    core.createConversationMachine().transition(to as core.ConversationState, t as core.ConversationTrigger),
  driveFrameToFlame: core.driveFrameToFlame as AnyFn,
  flameToDriveFrame: core.flameToDriveFrame as AnyFn,
  frameSampleRange: core.frameSampleRange as AnyFn,
  frameAtSample: core.frameAtSample as AnyFn,
  frameCountForSamples: core.frameCountForSamples as AnyFn,
  samplesPerFrame: core.samplesPerFrame as AnyFn,
};

describe('arbitrary arguments only ever raise AvatarError', () => {
  it.each(Object.keys(FUNCTIONS))('%s', (name) => {
    const fn = FUNCTIONS[name]!;
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        onlyAvatarErrors(() => fn(a, b, c));
      }),
      { numRuns: 150 },
    );
  });

  it('resolveEndpoints with arbitrary option objects', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            region: value,
            backupRegion: value,
            regions: fc.dictionary(fc.string(), value),
            endpoints: value,
          },
          { requiredKeys: [] },
        ),
        (options) => onlyAvatarErrors(() => core.resolveEndpoints(options as core.EndpointOptions)),
      ),
      { numRuns: 200 },
    );
  });

  it('converters with arbitrary typed arrays and channel counts', () => {
    fc.assert(
      fc.property(fc.int16Array({ maxLength: 40 }), fc.integer({ min: -2, max: 8 }), (samples, channels) => {
        onlyAvatarErrors(() => core.downmixInt16(samples, channels));
        onlyAvatarErrors(() => core.downmixFloat32(core.int16ToFloat32(samples), channels));
        onlyAvatarErrors(() =>
          core.toSendablePcm({ samples, sampleRate: 8000 + channels * 1000, channelCount: channels }),
        );
      }),
      { numRuns: 200 },
    );
  });
});

it('AvatarError is what the fuzz harness lets through', () => {
  // Guard against a harness that could never fail: a TypeError must propagate.
  expect(() =>
    onlyAvatarErrors(() => {
      throw new TypeError('x');
    }),
  ).toThrow(TypeError);
});
