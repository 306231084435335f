import { describe, expect, it } from 'vitest';
import { createHeadAudioEngine } from '../bench/engines/headaudio.js';
import type { BenchStream } from '../bench/engines/types.js';
import { createWlipsyncEngine } from '../bench/engines/wlipsync.js';
import type { FramePrediction } from '../bench/metrics.js';

/** 0.6 s digital silence then 0.6 s of a vowel-like buzz (120 Hz source, formants near 700 and 1200 Hz). */
function silenceThenVowel(rate: number): Int16Array {
  const pcm = new Int16Array(Math.round(1.2 * rate));
  for (let i = Math.round(0.6 * rate); i < pcm.length; i++) {
    const t = i / rate;
    let v = 0;
    for (let h = 1; h * 120 < 4000; h++) {
      const f = h * 120;
      const gain = 1 / (1 + ((f - 700) / 150) ** 2) + 0.6 / (1 + ((f - 1200) / 200) ** 2) + 0.02;
      v += gain * Math.sin(2 * Math.PI * f * t);
    }
    pcm[i] = Math.round(v * 6000);
  }
  return pcm;
}

function feed(stream: BenchStream, pcm: Int16Array, rate: number): FramePrediction[] {
  const chunk = rate / 50;
  const out: FramePrediction[] = [];
  for (let i = 0; i < pcm.length; i += chunk) out.push(...stream.push(pcm.subarray(i, i + chunk)));
  out.push(...stream.end());
  return out;
}

// The peers' own code runs here (through the worklet shim), so these check the adapters end to end.
describe.each([
  ['headaudio', () => createHeadAudioEngine()],
  ['wlipsync', () => createWlipsyncEngine()],
])('%s adapter', (_name, make) => {
  it.each([16000, 8000])(
    'emits one frame per 40 ms at %i Hz, closed in silence, moving on the vowel',
    async (rate) => {
      const engine = await make();
      const frames = feed(await engine.open(rate), silenceThenVowel(rate), rate);
      expect(frames).toHaveLength(30);
      expect(frames.slice(0, 14).every((f) => f.viseme === 0 && f.jawOpen <= 0.1)).toBe(true);
      expect(frames.slice(18).some((f) => f.viseme !== 0 || f.jawOpen > 0.1)).toBe(true);
    },
  );
});
