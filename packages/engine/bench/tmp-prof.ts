import { resample } from '@avatar-drive/core';
import { createDriver } from '../src/index.js';
import { listUtterances, loadUtterance } from './devset.js';
const dev = '/work/main/packages/engine/.data/dev';
const parts: Int16Array[] = [];
for (const id of listUtterances(dev).slice(0, 10)) { const u = loadUtterance(dev, id); parts.push(u.sampleRate === 16000 ? u.pcm : resample(u.pcm, u.sampleRate, 16000)); }
const backend = (process.env.BACKEND ?? 'wasm') as 'wasm' | 'js';
let secs = 0;
const t0 = process.cpuUsage();
for (let r = 0; r < 150; r++) for (const pcm of parts) {
  const d = createDriver({ sampleRate: 16000, backend });
  for (let i = 0; i < pcm.length; i += 320) d.push(pcm.subarray(i, i + 320));
  d.end(); d.close(); secs += pcm.length / 16000;
}
const dt = process.cpuUsage(t0);
console.log(backend, secs / ((dt.user + dt.system) / 1e6));
