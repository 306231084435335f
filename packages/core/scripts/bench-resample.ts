/// <reference types="node" />
// Resampler figures: throughput (× real time) and aliasing, next to a linear-interpolation peer
// run on the same input in the same process. Prints figures; asserts nothing.
// Run: pnpm --filter @avatar-drive/core bench:resample
import { Resampler, resample } from '../src/index.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    `Usage: pnpm --filter @avatar-drive/core bench:resample\n\nResampler throughput (× real time) and aliasing next to a linear-interpolation peer. No options.`,
  );
  process.exit(0);
}

function linear(x: Float32Array, from: number, to: number): Float32Array {
  const out = new Float32Array(Math.ceil((x.length * to) / from));
  for (let n = 0; n < out.length; n++) {
    const t = (n * from) / to;
    const i = Math.floor(t);
    const f = t - i;
    out[n] = (x[i] ?? 0) * (1 - f) + (x[i + 1] ?? 0) * f;
  }
  return out;
}

function tone(freq: number, rate: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = 0.5 * Math.sin((2 * Math.PI * freq * i) / rate);
  return out;
}

function rmsDb(x: Float32Array): number {
  const mid = x.subarray(Math.floor(x.length * 0.2), Math.floor(x.length * 0.8));
  let sum = 0;
  for (const v of mid) sum += v * v;
  return 20 * Math.log10(Math.sqrt(sum / mid.length) / (0.5 / Math.SQRT2));
}

function time(fn: () => void, repeats: number): number {
  fn(); // warm up (kernel design, JIT)
  const start = performance.now();
  for (let i = 0; i < repeats; i++) fn();
  return (performance.now() - start) / repeats;
}

const SECONDS = 10;
const rows: Record<string, string | number>[] = [];
for (const [from, to] of [
  [44100, 16000],
  [48000, 16000],
  [48000, 24000],
  [16000, 48000],
  [22050, 44100],
]) {
  const input = tone(440, from!, SECONDS);
  const sinc = time(() => resample(input, from!, to!), 2);
  const lin = time(() => linear(input, from!, to!), 2);
  const streamed = time(() => {
    const rs = new Resampler(from!, to!);
    for (let at = 0; at < input.length; at += from! / 50) rs.push(input.subarray(at, at + from! / 50)); // 20 ms chunks
    rs.flush();
  }, 2);
  const alias = to! < from! ? tone(0.55 * to!, from!, 1) : undefined;
  rows.push({
    pair: `${from}→${to}`,
    'sinc ×RT': Math.round((SECONDS * 1000) / sinc),
    'sinc 20ms-chunks ×RT': Math.round((SECONDS * 1000) / streamed),
    'linear ×RT': Math.round((SECONDS * 1000) / lin),
    'alias dB sinc': alias ? rmsDb(resample(alias, from!, to!)).toFixed(1) : '-',
    'alias dB linear': alias ? rmsDb(linear(alias, from!, to!)).toFixed(1) : '-',
  });
}
console.table(rows);
