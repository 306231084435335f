import { readFileSync } from 'node:fs';
import { createDriver } from '../src/index.js';

const rate = Number(process.argv[2] ?? 16000);
const rates = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
const bytes = readFileSync('/tmp/engine-speed-ref.bin.inputs').slice();
const n = new Uint32Array(bytes.buffer, 0, 1)[0]!;
const lens = new Uint32Array(bytes.buffer, 4, n);
let o = 4 * (n + 1);
let pcm = new Int16Array(0);
for (let i = 0; i < n; i++) {
  if (rates[i] === rate) pcm = Int16Array.from(new Float32Array(bytes.buffer, o, lens[i]));
  o += 4 * lens[i]!;
}
const step = rate / 50;
for (let r = 0; r < 30; r++) {
  const d = createDriver({ sampleRate: rate });
  for (let i = 0; i < pcm.length; i += step) d.push(pcm.subarray(i, i + step));
  d.end();
}
