import { createDriveFrame, type DriveFrame, VISEME_INDEX } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriverEngine, predictionOf } from '../bench/engines/driver.js';
import { createEnergyEngine } from '../bench/engines/energy.js';
import type { BenchStream } from '../bench/engines/types.js';
import type { FramePrediction } from '../bench/metrics.js';

/** 0.5 s silence, 0.5 s of a 200 Hz buzz with harmonics at −12 dBFS, 0.5 s silence. */
function burst(rate: number): Int16Array {
  const pcm = new Int16Array(Math.round(1.5 * rate));
  for (let i = Math.round(0.5 * rate); i < Math.round(rate); i++) {
    const t = i / rate;
    let v = 0;
    for (let h = 1; h <= 8; h++) v += Math.sin(2 * Math.PI * 200 * h * t) / h;
    pcm[i] = Math.round(v * 0.25 * 8192);
  }
  return pcm;
}

function feed(stream: BenchStream, pcm: Int16Array, chunk: number): FramePrediction[] {
  const out: FramePrediction[] = [];
  for (let i = 0; i < pcm.length; i += chunk) out.push(...stream.push(pcm.subarray(i, i + chunk)));
  out.push(...stream.end());
  return out;
}

describe('energy baseline', () => {
  it('is silent in silence and opens on the burst, one frame per 40 ms', async () => {
    const stream = await createEnergyEngine().open(16000);
    const frames = feed(stream, burst(16000), 320);
    expect(frames).toHaveLength(38); // 1.5 s = 37.5 frames → 38
    expect(frames.slice(0, 12).every((f) => f.viseme === 0 && f.jawOpen === 0)).toBe(true);
    expect(frames.slice(13, 25).every((f) => f.viseme === VISEME_INDEX.aa && f.jawOpen > 0.3)).toBe(true);
    expect(frames.slice(26).every((f) => f.viseme === 0)).toBe(true);
  });

  it('gives the same frames whatever the chunking', async () => {
    const pcm = burst(22050);
    const a = feed(await createEnergyEngine().open(22050), pcm, 441);
    const b = feed(await createEnergyEngine().open(22050), pcm, 1);
    expect(b).toEqual(a);
  });
});

describe('driver adapter', () => {
  it('reads class from the viseme argmax and jaw/lips from ARKit jawOpen/mouthClose', () => {
    const f = createDriveFrame(0);
    f.visemes[VISEME_INDEX.O] = 0.7;
    f.visemes[VISEME_INDEX.U] = 0.2;
    f.expression[17] = 0.45;
    f.expression[18] = 0.1;
    expect(predictionOf(f)).toEqual({
      viseme: VISEME_INDEX.O,
      jawOpen: expect.closeTo(0.45, 6),
      mouthClose: expect.closeTo(0.1, 6),
    });
  });

  it('streams a driver and rejects out-of-order frames', async () => {
    let emitted = 0;
    let samples = 0;
    const fake = (order: number[]) => () => ({
      push(pcm: Int16Array): DriveFrame[] {
        samples += pcm.length;
        const out: DriveFrame[] = [];
        while ((emitted + 1) * 640 <= samples) out.push(createDriveFrame(order[emitted++] ?? emitted - 1));
        return out;
      },
      end: () => [],
      reset() {},
    });
    const ok = await createDriverEngine(fake([0, 1, 2])).open(16000);
    expect(feed(ok, new Int16Array(1920), 320)).toHaveLength(3);
    emitted = 0;
    samples = 0;
    const bad = await createDriverEngine(fake([0, 2])).open(16000);
    expect(() => feed(bad, new Int16Array(1920), 320)).toThrow(/expected 1/);
  });
});
