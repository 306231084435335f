import { createDriver } from '../src/index.js';
import { listUtterances, loadUtterance } from './devset.js';
import { resample, FRAME_LAYOUT } from '@avatar-drive/core';
const dev = '/work/main/packages/engine/.data/dev';
const ids = listUtterances(dev).slice(0, 20);
for (const rate of [8000, 16000, 22050, 24000, 32000, 44100, 48000]) {
  let worst: Record<string, number> = {};
  let n = 0;
  for (const id of ids) {
    const u = loadUtterance(dev, id);
    const pcm = u.sampleRate === rate ? u.pcm : resample(u.pcm, u.sampleRate, rate);
    const out: any[][] = [];
    for (const backend of ['js', 'wasm'] as const) {
      const d = createDriver({ sampleRate: rate, backend });
      const fr = [];
      const step = rate / 50;
      for (let i = 0; i < pcm.length; i += step) fr.push(...d.push(pcm.subarray(i, i + step)));
      fr.push(...d.end());
      d.close();
      out.push(fr);
    }
    if (out[0].length !== out[1].length) throw new Error('count');
    for (let f = 0; f < out[0].length; f++) for (const k of Object.keys(FRAME_LAYOUT)) {
      const a = out[0][f][k], b = out[1][f][k];
      for (let i = 0; i < a.length; i++) worst[k] = Math.max(worst[k] ?? 0, Math.abs(a[i] - b[i]));
    }
    n += out[0].length;
  }
  console.log(rate, n, JSON.stringify(worst));
}
