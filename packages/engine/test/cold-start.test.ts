/**
 * A session's first words: speech that starts at sample 0 (as TTS output does) must open the mouth
 * within 80 ms of its first loud frame, at every input rate, from a fresh driver. Before the noise
 * floor had a prior, the first hop seeded it, so the speech read as background and was mouthed shut
 * for 0.25–0.6 s.
 */
import { ARKIT_BLENDSHAPES, type DriveFrame, resample, SUPPORTED_SAMPLE_RATES } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriver } from '../src/index.js';
import { espeak, noise, random, run } from './helpers.js';

const JAW_OPEN = ARKIT_BLENDSHAPES.indexOf('jawOpen');
const FRAME_MS = 40;
/** A 10 ms window at or above this RMS (dBFS) is loud. */
const LOUD_DBFS = -35;

/** espeak-ng speech with its leading silence cut: the first sample above −50 dBFS is sample 0. */
function speechFromSampleZero(text: string): { pcm: Int16Array; sampleRate: number } {
  const { pcm, sampleRate } = espeak(text);
  const first = pcm.findIndex((v) => Math.abs(v) > 100);
  return { pcm: pcm.slice(first), sampleRate };
}

/** Start (ms) of the first 10 ms window at or above {@link LOUD_DBFS}, at or after `fromMs`. */
export function firstLoudMs(pcm: Int16Array, sampleRate: number, fromMs = 0): number {
  const w = sampleRate / 100;
  for (let i = Math.round((fromMs * sampleRate) / 1000); i + w <= pcm.length; i += w) {
    let sum = 0;
    for (let j = 0; j < w; j++) sum += (pcm[i + j]! / 32768) ** 2;
    if (10 * Math.log10(sum / w) >= LOUD_DBFS) return (i / sampleRate) * 1000;
  }
  throw new Error('no loud frame');
}

/** Whether a frame shows an open mouth: jawOpen above 0.1 or a viseme other than sil winning. */
export function isOpen(frame: DriveFrame): boolean {
  let best = 0;
  for (let k = 1; k < frame.visemes.length; k++) if (frame.visemes[k]! > frame.visemes[best]!) best = k;
  return frame.expression[JAW_OPEN]! > 0.1 || best !== 0;
}

const PHRASES = ['One, two, three.', 'I am ready.', 'Yes, of course.'];

describe('cold start: speech at sample 0 in a fresh session', () => {
  const sources = PHRASES.map((text) => ({ text, ...speechFromSampleZero(text) }));

  for (const rate of SUPPORTED_SAMPLE_RATES) {
    it(`opens the mouth within 80 ms of the first loud frame at ${rate} Hz`, () => {
      for (const { text, pcm, sampleRate } of sources) {
        const input = rate === sampleRate ? pcm : resample(pcm, sampleRate, rate);
        const loud = firstLoudMs(input, rate);
        expect(loud, text).toBeLessThan(FRAME_MS);
        const frames = run(createDriver({ sampleRate: rate }), input, rate / 50);
        const open = frames.findIndex(isOpen);
        expect(open, `${text} at ${rate} Hz: never opened`).toBeGreaterThanOrEqual(0);
        expect(open * FRAME_MS - loud, `${text} at ${rate} Hz`).toBeLessThanOrEqual(80);
        // And it stays mouthed: most of the first word's frames are open, not one blip.
        const firstWord = frames.slice(open, open + 5).filter(isOpen).length;
        expect(firstWord, `${text} at ${rate} Hz`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});

describe('cold start: background present from sample 0', () => {
  it('settles on a steady background louder than the prior, then opens for the speech', () => {
    const rate = 16000;
    const { pcm: speech, sampleRate } = speechFromSampleZero('Welcome back.');
    const voice = resample(speech, sampleRate, rate);
    // 1 s of steady noise at about −42 dBFS (well above the −60 dBFS prior), then speech over it.
    const lead = rate;
    const background = noise(lead + voice.length, 260, 5);
    const input = new Int16Array(background.length);
    for (let i = 0; i < input.length; i++) {
      const v = background[i]! + (i >= lead ? voice[i - lead]! : 0);
      input[i] = Math.max(-32768, Math.min(32767, v));
    }
    const frames = run(createDriver({ sampleRate: rate }), input, rate / 50);
    // After the settling run (160 ms) and the model's context, the noise alone keeps the mouth shut.
    const settled = frames.slice(10, lead / (rate / 25) - 1);
    expect(settled.filter(isOpen)).toHaveLength(0);
    const onset = firstLoudMs(input, rate, 1000);
    const open = frames.findIndex((f, k) => k * FRAME_MS >= 1000 - FRAME_MS && isOpen(f));
    expect(open * FRAME_MS - onset).toBeLessThanOrEqual(80);
  });
});

/** Steady mains hum at `rms` (full scale 1): 50 Hz and its first harmonics, a little hiss. */
function hum(samples: number, rate: number, rms: number, seed: number): Int16Array {
  const r = random(seed);
  const raw = new Float64Array(samples);
  let power = 0;
  for (let i = 0; i < samples; i++) {
    let v = 0;
    for (let h = 1; h <= 5; h++) v += Math.sin((2 * Math.PI * 50 * h * i) / rate + h) / h;
    raw[i] = v + 0.02 * (r() - 0.5);
    power += raw[i]! * raw[i]!;
  }
  const g = (rms * 32768) / Math.sqrt(power / samples);
  return Int16Array.from(raw, (v) => Math.round(v * g));
}

/** Pink (1/f) noise at `rms`: white noise through Kellett's economy filter. */
function pink(samples: number, rms: number, seed: number): Int16Array {
  const r = random(seed);
  const raw = new Float64Array(samples);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let power = 0;
  for (let i = 0; i < samples; i++) {
    const w = r() * 2 - 1;
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    raw[i] = b0 + b1 + b2 + w * 0.1848;
    power += raw[i]! * raw[i]!;
  }
  const g = (rms * 32768) / Math.sqrt(power / samples);
  return Int16Array.from(raw, (v) => Math.round(v * g));
}

describe('cold start: background alone, no speech, from sample 0', () => {
  // −30 dBFS: 30 dB above the floor's prior, so until the floor settles it reads as loud.
  const RMS = 10 ** (-30 / 20);
  for (const rate of [8000, 16000, 48000]) {
    const samples = Math.round(1.5 * rate);
    const backgrounds = {
      'white noise': noise(samples, RMS, 11),
      'pink noise': pink(samples, RMS, 13),
      hum: hum(samples, rate, RMS, 12),
    };
    for (const [name, pcm] of Object.entries(backgrounds)) {
      it(`keeps the mouth still over 1.5 s of ${name} at −30 dBFS, ${rate} Hz (≤ 5 % of frames)`, () => {
        const frames = run(createDriver({ sampleRate: rate }), pcm, rate / 50);
        const moving = frames.filter(isOpen).length;
        expect(moving / frames.length, `${moving} of ${frames.length} frames open`).toBeLessThanOrEqual(0.05);
      });
    }
  }
});
