import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  encodeWav,
  parseWav,
  wavToInterleaved,
  wavToMono,
  wavToMonoInt16,
} from '../src/index.js';
import { chunk, floatSamples, fmtChunk, intSamples, riff } from './support/wav-builder.js';

function expectInvalid(bytes: Uint8Array, pattern: RegExp): void {
  let caught: unknown;
  try {
    parseWav(bytes);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AvatarError);
  expect((caught as AvatarError).code).toBe('invalidAudio');
  expect((caught as AvatarError).message).toMatch(pattern);
}

describe('parseWav: integer PCM', () => {
  it.each([
    [8, [-128, -64, 0, 64, 127], 128],
    [16, [-32768, -1, 0, 1, 32767], 32768],
    [24, [-8388608, -12345, 0, 1, 8388607], 8388608],
    [32, [-2147483648, -7, 0, 123456789, 2147483647], 2147483648],
  ])('reads %i-bit mono exactly', (bits, values, fullScale) => {
    const wav = parseWav(
      riff([
        fmtChunk({ formatTag: 1, channels: 1, sampleRate: 16000, bits }),
        chunk('data', intSamples(values, bits)),
      ]),
    );
    expect(wav).toMatchObject({ sampleRate: 16000, channelCount: 1, bitsPerSample: bits, format: 'pcm' });
    expect(wav.frameCount).toBe(values.length);
    expect(Array.from(wav.channels[0]!)).toEqual(values.map((v) => Math.fround(v / fullScale)));
  });

  it('reads 3 interleaved channels into planar channels', () => {
    const frames = [
      [100, -200, 300],
      [-400, 500, -600],
    ];
    const wav = parseWav(
      riff([
        fmtChunk({ formatTag: 1, channels: 3, sampleRate: 22050, bits: 16 }),
        chunk('data', intSamples(frames.flat(), 16)),
      ]),
    );
    expect(wav.channelCount).toBe(3);
    expect(wav.frameCount).toBe(2);
    for (let c = 0; c < 3; c++) {
      expect(Array.from(wav.channels[c]!)).toEqual(frames.map((f) => f[c]! / 32768));
    }
    expect(Array.from(wavToInterleaved(wav))).toEqual(frames.flat().map((v) => v / 32768));
    expect(Array.from(wavToMonoInt16(wav))).toEqual([67, -167]);
    expect(wavToMono(wav)[0]).toBeCloseTo(200 / 3 / 32768, 7);
  });
});

describe('parseWav: float and extensible', () => {
  it('reads float32 and float64', () => {
    const values = [-1, -0.25, 0, 0.5, 0.999];
    for (const bits of [32, 64] as const) {
      const wav = parseWav(
        riff([
          fmtChunk({ formatTag: 3, channels: 1, sampleRate: 48000, bits }),
          chunk('data', floatSamples(values, bits)),
        ]),
      );
      expect(wav.format).toBe('float');
      expect(wav.bitsPerSample).toBe(bits);
      expect(Array.from(wav.channels[0]!)).toEqual(values.map(Math.fround));
    }
  });

  it('reads WAVE_FORMAT_EXTENSIBLE PCM (24 valid of 32) and float', () => {
    const pcm = parseWav(
      riff([
        fmtChunk({
          formatTag: 1,
          channels: 2,
          sampleRate: 44100,
          bits: 32,
          extensibleSubFormat: 1,
          validBits: 24,
        }),
        chunk('data', intSamples([1 << 30, -(1 << 30), 0, 256], 32)),
      ]),
    );
    expect(pcm).toMatchObject({ extensible: true, format: 'pcm', bitsPerSample: 32, validBitsPerSample: 24 });
    expect(Array.from(pcm.channels[0]!)).toEqual([0.5, 0]);
    expect(Array.from(pcm.channels[1]!)).toEqual([-0.5, 256 / 2 ** 31]);

    const flt = parseWav(
      riff([
        fmtChunk({ formatTag: 3, channels: 1, sampleRate: 8000, bits: 32, extensibleSubFormat: 3 }),
        chunk('data', floatSamples([0.25], 32)),
      ]),
    );
    expect(flt).toMatchObject({ extensible: true, format: 'float' });
    expect(flt.channels[0]![0]).toBe(0.25);
  });
});

describe('parseWav: chunk walking', () => {
  it('skips unknown chunks, including odd-sized ones and their pad byte', () => {
    const odd = chunk('LIST', new Uint8Array([1, 2, 3])); // 3 bytes + 1 pad
    expect(odd.length).toBe(12);
    const wav = parseWav(
      riff([
        chunk('JUNK', new Uint8Array(7)),
        fmtChunk({ formatTag: 1, channels: 1, sampleRate: 16000, bits: 16 }),
        odd,
        chunk('fact', new Uint8Array(4)),
        chunk('data', intSamples([1, 2, 3], 16)),
        chunk('id3 ', new Uint8Array(5)),
      ]),
    );
    expect(Array.from(wavToMonoInt16(wav))).toEqual([1, 2, 3]);
  });

  it('reads an odd-sized 8-bit data chunk followed by its pad byte', () => {
    const wav = parseWav(
      riff([
        fmtChunk({ formatTag: 1, channels: 1, sampleRate: 8000, bits: 8 }),
        chunk('data', intSamples([0, 64, -64], 8)),
      ]),
    );
    expect(Array.from(wav.channels[0]!)).toEqual([0, 0.5, -0.5]);
  });

  it.each([
    0xffffffff, // ffmpeg writing to a pipe
    0x7ffff000, // espeak-ng --stdout
  ])('reads a streaming data chunk of unknown length (size %i) to the end of the file', (size) => {
    const bytes = riff([
      fmtChunk({ formatTag: 1, channels: 1, sampleRate: 16000, bits: 16 }),
      chunk('data', intSamples([5, 6, 7], 16), size),
    ]);
    expect(Array.from(wavToMonoInt16(parseWav(bytes)))).toEqual([5, 6, 7]);
  });

  it('still rejects a data chunk that claims more than the file holds', () => {
    const bytes = riff([
      fmtChunk({ formatTag: 1, channels: 1, sampleRate: 16000, bits: 16 }),
      chunk('data', intSamples([5, 6, 7], 16), 1000),
    ]);
    expect(() => parseWav(bytes)).toThrow(/truncated/);
  });

  it('accepts an ArrayBuffer and a Uint8Array at an odd offset', () => {
    const bytes = encodeWav(new Int16Array([1, -2, 3]), 24000);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(Array.from(wavToMonoInt16(parseWav(shifted.subarray(1))))).toEqual([1, -2, 3]);
    expect(parseWav(bytes.slice().buffer).sampleRate).toBe(24000);
  });
});

describe('parseWav: rejects', () => {
  const fmt16 = fmtChunk({ formatTag: 1, channels: 1, sampleRate: 16000, bits: 16 });
  const data = chunk('data', intSamples([1, 2], 16));

  it.each([
    ['too short', new Uint8Array(8), /too short/],
    ['not RIFF', riff([fmt16, data], 'OggS'), /not a WAV/],
    ['RIFX', riff([fmt16, data], 'RIFX'), /big-endian/],
    ['RF64', riff([fmt16, data], 'RF64'), /RF64/],
    ['not WAVE', riff([fmt16, data], 'RIFF', 'AVI '), /not a WAV/],
    ['data before fmt', riff([data, fmt16]), /before the fmt/],
    ['no data', riff([fmt16]), /no data chunk/],
    ['no fmt', riff([chunk('JUNK', new Uint8Array(4))]), /no fmt chunk/],
    ['two fmt chunks', riff([fmt16, fmt16, data]), /two fmt/],
    [
      'mu-law',
      riff([fmtChunk({ formatTag: 7, channels: 1, sampleRate: 8000, bits: 8 }), data]),
      /mu-law.*ffmpeg/,
    ],
    [
      'IMA ADPCM',
      riff([fmtChunk({ formatTag: 0x11, channels: 1, sampleRate: 8000, bits: 4, blockAlign: 256 }), data]),
      /ADPCM/,
    ],
    [
      'unknown tag',
      riff([fmtChunk({ formatTag: 0x1234, channels: 1, sampleRate: 8000, bits: 16 }), data]),
      /0x1234/,
    ],
    [
      'zero channels',
      riff([fmtChunk({ formatTag: 1, channels: 0, sampleRate: 8000, bits: 16 }), data]),
      /0 channels/,
    ],
    [
      'zero rate',
      riff([fmtChunk({ formatTag: 1, channels: 1, sampleRate: 0, bits: 16 }), data]),
      /sample rate of 0/,
    ],
    [
      '12-bit',
      riff([fmtChunk({ formatTag: 1, channels: 1, sampleRate: 8000, bits: 12, blockAlign: 2 }), data]),
      /12-bit/,
    ],
    [
      '16-bit float',
      riff([fmtChunk({ formatTag: 3, channels: 1, sampleRate: 8000, bits: 16 }), data]),
      /16-bit float/,
    ],
    [
      'bad block align',
      riff([fmtChunk({ formatTag: 1, channels: 2, sampleRate: 8000, bits: 16, blockAlign: 3 }), data]),
      /block align/,
    ],
    [
      'extensible with a non-PCM GUID',
      (() => {
        const bytes = riff([
          fmtChunk({ formatTag: 1, channels: 1, sampleRate: 8000, bits: 16, extensibleSubFormat: 1 }),
          data,
        ]);
        bytes[12 + 8 + 30] = 0x11; // corrupt the GUID tail
        return bytes;
      })(),
      /GUID/,
    ],
    [
      'data not whole frames',
      riff([
        fmtChunk({ formatTag: 1, channels: 2, sampleRate: 8000, bits: 16 }),
        chunk('data', intSamples([1, 2, 3], 16)),
      ]),
      /whole frames/,
    ],
    ['truncated data', riff([fmt16, chunk('data', intSamples([1, 2], 16), 400)]), /truncated/],
    ['truncated fmt', riff([fmt16]).subarray(0, 30), /truncated/],
  ])('%s', (_name, bytes, pattern) => {
    expectInvalid(bytes as Uint8Array, pattern as RegExp);
  });

  it('rejects a wrong argument type', () => {
    expect(() => parseWav('RIFF' as unknown as Uint8Array)).toThrow(AvatarError);
  });
});

describe('encodeWav', () => {
  it('round-trips through parseWav', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 300 }),
        fc.constantFrom(8000, 16000, 22050, 24000, 32000, 44100, 48000),
        (values, rate) => {
          const wav = parseWav(encodeWav(Int16Array.from(values), rate));
          expect(wav).toMatchObject({ sampleRate: rate, channelCount: 1, bitsPerSample: 16, format: 'pcm' });
          expect(Array.from(wavToMonoInt16(wav))).toEqual(values);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes the canonical 44-byte header', () => {
    const bytes = encodeWav(new Int16Array([0x0102]), 16000);
    expect(bytes.length).toBe(46);
    expect(
      String.fromCharCode(...bytes.subarray(0, 4), ...bytes.subarray(8, 16), ...bytes.subarray(36, 40)),
    ).toBe('RIFFWAVEfmt data');
    expect(Array.from(bytes.subarray(44))).toEqual([0x02, 0x01]);
  });

  it('rejects bad input with invalidAudio', () => {
    expect(() => encodeWav(new Int16Array(1), 0)).toThrow(/positive whole sample rate/);
    expect(() => encodeWav(new Float32Array(1) as unknown as Int16Array, 16000)).toThrow(AvatarError);
  });
});

describe('parseWav: property tests', () => {
  const onlyAvatarErrors = (bytes: Uint8Array) => {
    try {
      const wav = parseWav(bytes);
      expect(wav.channels.length).toBe(wav.channelCount);
      for (const ch of wav.channels) expect(ch.length).toBe(wav.frameCount);
    } catch (error) {
      expect(error).toBeInstanceOf(AvatarError);
      expect((error as AvatarError).code).toBe('invalidAudio');
    }
  };

  it('random bytes only ever throw invalidAudio', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), onlyAvatarErrors), { numRuns: 300 });
  });

  it('random mutations of a valid file only ever throw invalidAudio', () => {
    const base = riff([
      fmtChunk({ formatTag: 1, channels: 2, sampleRate: 16000, bits: 24, extensibleSubFormat: 1 }),
      chunk('LIST', new Uint8Array(3)),
      chunk('data', intSamples([1, 2, 3, 4, 5, 6], 24)),
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.nat(base.length),
        (edits, cut) => {
          const bytes = base.slice(0, Math.max(12, cut));
          for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
          onlyAvatarErrors(bytes);
        },
      ),
      { numRuns: 500 },
    );
  });
});
