import { describe, expect, it } from 'vitest';
import { AvatarError, encodeWav, parseWav, resample, toSendablePcm, wavToSendablePcm } from '../src/index.js';

describe('toSendablePcm', () => {
  it('downmixes, resamples to the nearest supported rate and quantises', () => {
    const frames = 4410;
    const stereo = new Float32Array(frames * 2);
    for (let i = 0; i < frames; i++) {
      stereo[2 * i] = 0.5 * Math.sin(i / 20);
      stereo[2 * i + 1] = 0.5 * Math.sin(i / 20);
    }
    const out = toSendablePcm({ samples: stereo, sampleRate: 11025, channelCount: 2 });
    expect(out.sampleRate).toBe(16000);
    expect(out.samples).toBeInstanceOf(Int16Array);
    expect(out.samples.length).toBe(Math.ceil((frames * 16000) / 11025));
    const mono = stereo.filter((_, i) => i % 2 === 0);
    const reference = resample(mono, 11025, 16000);
    out.samples.forEach((v, i) => {
      expect(Math.abs(v - reference[i]! * 32768)).toBeLessThanOrEqual(0.5);
    });
  });

  it('passes a supported rate through unchanged', () => {
    const samples = Int16Array.from([1, -1, 32767, -32768]);
    const out = toSendablePcm({ samples, sampleRate: 16000 });
    expect(out).toEqual({ sampleRate: 16000, samples });
    expect(out.samples).not.toBe(samples);
  });

  it('honours an explicit target and rejects an unsupported one', () => {
    expect(toSendablePcm({ samples: new Float32Array(480), sampleRate: 48000 }, 8000).samples.length).toBe(
      80,
    );
    expect(() => toSendablePcm({ samples: new Float32Array(4), sampleRate: 48000 }, 12000)).toThrow(
      expect.objectContaining({ code: 'unsupportedSampleRate' }),
    );
    expect(() => toSendablePcm({ samples: [0] as never, sampleRate: 8000 })).toThrow(AvatarError);
    expect(() => toSendablePcm({ samples: new Float32Array(3), sampleRate: 8000, channelCount: 2 })).toThrow(
      /whole frames/,
    );
  });

  it('turns a WAV file into sendable PCM', () => {
    const wav = parseWav(encodeWav(new Int16Array(960).fill(1000), 96000));
    const out = wavToSendablePcm(wav);
    expect(out.sampleRate).toBe(48000);
    expect(out.samples.length).toBe(480);
    expect(out.samples[240]).toBe(1000);
  });
});
