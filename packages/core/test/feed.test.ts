import { describe, expect, it } from 'vitest';
import { feedPcm, type PcmInput } from '../src/index.js';

/** A tone of `hz` at `rate`, `seconds` long, in chunks of `chunk` samples, as floats or s16. */
async function* tone(rate: number, seconds: number, hz: number, chunk: number, s16 = false) {
  const n = Math.round(rate * seconds);
  for (let at = 0; at < n; at += chunk) {
    const part = new Float32Array(Math.min(chunk, n - at));
    for (let i = 0; i < part.length; i++) part[i] = 0.5 * Math.sin((2 * Math.PI * hz * (at + i)) / rate);
    yield (s16 ? Int16Array.from(part, (v) => Math.round(v * 32767)) : part) as PcmInput;
  }
}

function zeroCrossings(pcm: Int16Array): number {
  let n = 0;
  for (let i = 1; i < pcm.length; i++) if (pcm[i - 1]! < 0 !== pcm[i]! < 0) n += 1;
  return n;
}

describe('feedPcm', () => {
  it.each([
    ['24 kHz float32 in odd chunks', 24000, false, 37],
    ['44.1 kHz s16', 44100, true, 441],
    ['16 kHz float32 (no rate change)', 16000, false, 160],
  ])('%s → 16 kHz s16 in 100 ms chunks, the last with end', async (_name, rate, s16, chunk) => {
    const sent: { pcm: Int16Array; end: boolean }[] = [];
    const result = await feedPcm(tone(rate, 1, 300, chunk, s16), (pcm, end) => sent.push({ pcm, end }), {
      inputRate: rate,
      outputRate: 16000,
    });
    const all = Int16Array.from(sent.flatMap((s) => [...s.pcm]));
    expect(result).toEqual({ samples: all.length, aborted: false });
    expect(Math.abs(all.length - 16000)).toBeLessThanOrEqual(2);
    expect(sent.map((s) => s.end)).toEqual([...Array(sent.length - 1).fill(false), true]);
    expect(sent.slice(0, -1).every((s) => s.pcm.length === 1600)).toBe(true);
    // The tone survives: 300 Hz for 1 s is 600 zero crossings; amplitude about half scale.
    expect(Math.abs(zeroCrossings(all) - 600)).toBeLessThanOrEqual(4);
    expect(Math.max(...all.subarray(2000, 14000))).toBeGreaterThan(15000);
    expect(Math.max(...all.subarray(2000, 14000))).toBeLessThan(17500);
  });

  it('awaits a slow send (backpressure) and stops without an end chunk when aborted', async () => {
    const controller = new AbortController();
    const sent: boolean[] = [];
    const result = await feedPcm(
      tone(24000, 2, 200, 2400),
      async (_pcm, end) => {
        sent.push(end);
        await new Promise((r) => setTimeout(r, 5));
        if (sent.length === 3) controller.abort();
      },
      { inputRate: 24000, outputRate: 16000, signal: controller.signal },
    );
    expect(result).toEqual({ samples: 3 * 1600, aborted: true });
    expect(sent).toEqual([false, false, false]);
  });

  it('an empty source still ends the utterance; bad input is a typed error', async () => {
    const sent: [number, boolean][] = [];
    await feedPcm([], (pcm, end) => sent.push([pcm.length, end]), { inputRate: 24000, outputRate: 16000 });
    expect(sent).toEqual([[0, true]]);
    await expect(
      feedPcm([new Float64Array(4) as never], () => undefined, { inputRate: 24000, outputRate: 16000 }),
    ).rejects.toMatchObject({ code: 'invalidAudio' });
    await expect(feedPcm([], () => undefined, { inputRate: 24000, outputRate: 11025 })).rejects.toMatchObject(
      {
        code: 'unsupportedSampleRate',
      },
    );
  });
});
