import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  assertPcmChunk,
  assertSupportedSampleRate,
  downmixFloat32,
  downmixInt16,
  float32ToInt16,
  int16FromBytes,
  int16ToBytes,
  int16ToFloat32,
  mixPlanarToMono,
  nearestSupportedSampleRate,
  pcmDurationMs,
  SUPPORTED_SAMPLE_RATES,
  validateAudioFormat,
} from '../src/index.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AvatarError);
    return (error as AvatarError).code;
  }
}

describe('validateAudioFormat', () => {
  it('accepts the 7 rates in mono', () => {
    for (const rate of SUPPORTED_SAMPLE_RATES) {
      expect(validateAudioFormat({ sampleRate: rate })).toBe(rate);
      expect(validateAudioFormat({ sampleRate: rate, channelCount: 1 })).toBe(rate);
    }
  });

  it('rejects other rates with unsupportedSampleRate and says how to resample', () => {
    for (const rate of [0, 11025, 16000.5, 96000, -1, Number.NaN]) {
      expect(codeOf(() => validateAudioFormat({ sampleRate: rate }))).toBe('unsupportedSampleRate');
    }
    expect(() => validateAudioFormat({ sampleRate: 11025 })).toThrow(
      /8000, 16000, 22050, 24000, 32000, 44100, 48000.*resample\(samples, 11025, 16000\)/,
    );
    expect(() => assertSupportedSampleRate('16000')).toThrow(/a string/);
  });

  it('rejects more than one channel with invalidAudio and points at the downmix', () => {
    expect(codeOf(() => validateAudioFormat({ sampleRate: 16000, channelCount: 2 }))).toBe('invalidAudio');
    expect(() => validateAudioFormat({ sampleRate: 16000, channelCount: 2 })).toThrow(/downmixInt16/);
    expect(codeOf(() => validateAudioFormat(null as never))).toBe('invalidAudio');
  });

  it('picks the nearest supported rate at or above the input', () => {
    expect(nearestSupportedSampleRate(11025)).toBe(16000);
    expect(nearestSupportedSampleRate(16000)).toBe(16000);
    expect(nearestSupportedSampleRate(96000)).toBe(48000);
    expect(nearestSupportedSampleRate(Number.NaN)).toBe(16000);
  });
});

describe('assertPcmChunk', () => {
  it('returns Int16Array input as is', () => {
    const samples = Int16Array.from([1, -2]);
    expect(assertPcmChunk(samples, 16000)).toBe(samples);
  });

  it('reads little-endian bytes from Uint8Array and ArrayBuffer', () => {
    const bytes = Uint8Array.from([0x01, 0x02, 0xff, 0xff, 0x00, 0x80]);
    expect(Array.from(assertPcmChunk(bytes))).toEqual([0x0201, -1, -32768]);
    expect(Array.from(assertPcmChunk(bytes.buffer))).toEqual([0x0201, -1, -32768]);
  });

  it('reads bytes at an odd offset (unaligned) correctly', () => {
    const backing = Uint8Array.from([0xaa, 0x34, 0x12, 0x00, 0x80]);
    expect(Array.from(assertPcmChunk(backing.subarray(1)))).toEqual([0x1234, -32768]);
  });

  it('rejects an odd byte length, a wrong type and a bad rate', () => {
    expect(codeOf(() => assertPcmChunk(new Uint8Array(3)))).toBe('invalidAudio');
    expect(() => assertPcmChunk(new Uint8Array(3))).toThrow(/3 bytes.*even number/);
    expect(() => assertPcmChunk(new Float32Array(4))).toThrow(/not a Float32Array.*float32ToInt16/);
    expect(codeOf(() => assertPcmChunk('abc'))).toBe('invalidAudio');
    expect(codeOf(() => assertPcmChunk(null))).toBe('invalidAudio');
    expect(codeOf(() => assertPcmChunk(new Int16Array(2), 12345))).toBe('unsupportedSampleRate');
  });

  it('only ever throws AvatarError for arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.uint8Array({ maxLength: 33 }),
          fc.int16Array({ maxLength: 8 }),
          fc.float32Array({ maxLength: 8 }),
        ),
        fc.option(fc.oneof(fc.constantFrom(...SUPPORTED_SAMPLE_RATES), fc.double()), { nil: undefined }),
        (value, rate) => {
          try {
            const out = assertPcmChunk(value, rate);
            expect(out).toBeInstanceOf(Int16Array);
          } catch (error) {
            expect(error).toBeInstanceOf(AvatarError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('pcmDurationMs', () => {
  it('is samples over rate in ms', () => {
    expect(pcmDurationMs(16000, 16000)).toBe(1000);
    expect(pcmDurationMs(882, 22050)).toBe(40);
  });
});

describe('byte views', () => {
  it('round-trips samples through bytes', () => {
    fc.assert(
      fc.property(fc.int16Array({ maxLength: 64 }), (samples) => {
        const bytes = int16ToBytes(samples);
        expect(bytes.length).toBe(samples.length * 2);
        for (let i = 0; i < samples.length; i++) {
          expect(bytes[2 * i]! | (bytes[2 * i + 1]! << 8)).toBe(samples[i]! & 0xffff);
        }
        const shifted = new Uint8Array(bytes.length + 1);
        shifted.set(bytes, 1);
        expect(Array.from(int16FromBytes(shifted.subarray(1)))).toEqual(Array.from(samples));
      }),
      { numRuns: 100 },
    );
  });
});

describe('float ⇄ s16', () => {
  it('s16 → float → s16 is the identity', () => {
    fc.assert(
      fc.property(fc.int16Array({ maxLength: 64 }), (samples) => {
        expect(Array.from(float32ToInt16(int16ToFloat32(samples)))).toEqual(Array.from(samples));
      }),
      { numRuns: 100 },
    );
  });

  it('clips out-of-range values and maps NaN to 0', () => {
    expect(
      Array.from(float32ToInt16(Float32Array.from([2, -2, 1, -1, 0.5, Number.NaN, Infinity, -Infinity]))),
    ).toEqual([32767, -32768, 32767, -32768, 16384, 0, 32767, -32768]);
  });

  it('never leaves the s16 range and stays within half a step for in-range values', () => {
    fc.assert(
      fc.property(fc.float32Array({ maxLength: 64 }), (values) => {
        const out = float32ToInt16(values);
        values.forEach((v, i) => {
          const s = out[i]!;
          expect(s).toBeGreaterThanOrEqual(-32768);
          expect(s).toBeLessThanOrEqual(32767);
          if (v >= -1 && v < 32767 / 32768) expect(Math.abs(s - v * 32768)).toBeLessThanOrEqual(0.5);
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('downmix', () => {
  it('averages interleaved s16 channels', () => {
    expect(Array.from(downmixInt16(Int16Array.from([100, 200, -32768, -32768, 1, 2]), 2))).toEqual([
      150, -32768, 2,
    ]);
    expect(Array.from(downmixInt16(Int16Array.from([3, 6, 9, 30, 60, 90]), 3))).toEqual([6, 60]);
  });

  it('averages interleaved float channels', () => {
    expect(Array.from(downmixFloat32(Float32Array.from([0.5, -0.5, 1, 0.5]), 2))).toEqual([0, 0.75]);
  });

  it('returns a copy for mono', () => {
    const mono = Int16Array.from([1, 2]);
    const out = downmixInt16(mono, 1);
    expect(Array.from(out)).toEqual([1, 2]);
    expect(out).not.toBe(mono);
  });

  it('mixes planar channels', () => {
    expect(Array.from(mixPlanarToMono([Float32Array.from([1, 0]), Float32Array.from([0, 0.5])]))).toEqual([
      0.5, 0.25,
    ]);
    expect(codeOf(() => mixPlanarToMono([]))).toBe('invalidAudio');
    expect(codeOf(() => mixPlanarToMono([new Float32Array(2), new Float32Array(3)]))).toBe('invalidAudio');
  });

  it('rejects partial frames and bad channel counts', () => {
    expect(() => downmixInt16(new Int16Array(5), 2)).toThrow(/not whole frames of 2 channels/);
    for (const n of [0, -1, 1.5, Number.NaN]) {
      expect(codeOf(() => downmixFloat32(new Float32Array(4), n))).toBe('invalidAudio');
    }
  });

  it('stays in range and equals the channel value when all channels agree', () => {
    fc.assert(
      fc.property(fc.int16Array({ maxLength: 20 }), fc.integer({ min: 1, max: 6 }), (frames, channels) => {
        const interleaved = new Int16Array(frames.length * channels);
        frames.forEach((v, f) => {
          interleaved.fill(v, f * channels, (f + 1) * channels);
        });
        expect(Array.from(downmixInt16(interleaved, channels))).toEqual(Array.from(frames));
      }),
      { numRuns: 100 },
    );
  });
});
