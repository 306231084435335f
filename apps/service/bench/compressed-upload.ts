/**
 * `pnpm --filter @avatar-drive/service bench:compressed [RUNS]`: what meshopt compression costs an
 * upload's checks, against the same avatar uncompressed in the same run — the Ready Player Me–style
 * built-in sample (packages/avatars/samples/juno-rpm.glb) and that file compressed here by
 * glTF-Transform (`meshopt`, medium). Prints file sizes, then per variant the median and range over
 * RUNS (default 5) of the structural pre-check (event loop) and of the worker's decode + Khronos
 * validation (off the event loop).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { precheckGlb } from '../src/avatars/glb-precheck.js';
import { validateGltf } from '../src/avatars/gltf-validation.js';
import { meshoptGlb } from '../test/support/compressed-glb.js';

const runs = Number(process.argv[2] ?? 5);
const sample = fileURLToPath(new URL('../../../packages/avatars/samples/juno-rpm.glb', import.meta.url));
const plain = await readFile(sample);
const packed = await meshoptGlb(plain);
const maxBytes = 32 * 1024 * 1024;

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(1)} ms (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`;
}

console.log(
  `juno-rpm.glb: ${plain.length} bytes plain, ${packed.length} bytes meshopt (${((packed.length / plain.length) * 100).toFixed(0)} %)`,
);
for (const [name, bytes] of [
  ['plain', plain],
  ['meshopt', packed],
] as const) {
  const precheck: number[] = [];
  const validate: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const checked = precheckGlb(bytes, { maxBytes });
    precheck.push(performance.now() - t);
    t = performance.now();
    await validateGltf(bytes, { meshopt: checked.meshopt, timeoutMs: 60_000 });
    validate.push(performance.now() - t);
  }
  const decoded = precheckGlb(bytes, { maxBytes }).meshopt.reduce((n, v) => n + v.count * v.byteStride, 0);
  console.log(
    `${name.padEnd(8)} pre-check ${summary(precheck)}; worker (decode ${decoded} bytes + validate) ${summary(validate)}`,
  );
}
