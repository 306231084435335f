import { resample } from '@avatar-drive/core';
import { listUtterances, loadUtterance } from './bench/devset.ts';
import { createDriver } from './src/index.ts';

const dev = '/work/data/engine/dev';
const parts: Int16Array[] = [];
let total = 0;
for (const id of listUtterances(dev)) {
  const u = loadUtterance(dev, id);
  const p = u.sampleRate === 16000 ? u.pcm : resample(u.pcm, u.sampleRate, 16000);
  parts.push(p);
  total += p.length;
  if (total > 20 * 16000) break;
}
const base = new Int16Array(total);
let o = 0;
for (const p of parts) {
  base.set(p, o);
  o += p.length;
}
const rate = Number(process.argv[2] ?? 16000);
const pcm = rate === 16000 ? base : resample(base, 16000, rate);
const step = rate / 50;
const t0 = process.cpuUsage();
let best = Infinity;
for (let r = 0; r < Number(process.argv[3] ?? 30); r++) {
  const t = process.cpuUsage();
  const d = createDriver({ sampleRate: rate });
  for (let i = 0; i < pcm.length; i += step) d.push(pcm.subarray(i, i + step));
  d.end();
  const dt = process.cpuUsage(t);
  best = Math.min(best, (dt.user + dt.system) / 1e3 / (pcm.length / rate));
}
console.log(rate, 'best ms/s', best.toFixed(3));
