/**
 * Engine speed per input rate: the driver fed a fixed stretch of dev speech (resampled to each
 * supported rate) in 20 ms chunks, best-of-N single-thread CPU time, on both backends (WebAssembly
 * SIMD and TypeScript), with the energy baseline timed in the same run as a peer (the machine is
 * shared and noisy: compare the columns, not runs). Then the max |Δ| per frame field between the two
 * backends at every rate.
 *
 *   pnpm --filter @avatar-drive/engine-lab bench:speed [--seconds 20] [--repeats 7]
 *   pnpm --filter @avatar-drive/engine-lab bench:speed --dump frames.bin   # driver output, for equivalence checks
 *   pnpm --filter @avatar-drive/engine-lab bench:speed --compare frames.bin
 *   pnpm --filter @avatar-drive/engine-lab bench:speed --rates 44100   # some rates only (e.g. one per process)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DriveFrame, FRAME_LAYOUT, resample, SUPPORTED_SAMPLE_RATES } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { wasmUnavailableReason } from '@avatar-drive/engine/lab';
import { parseBenchArgs, requireDevSet } from './cli-args.js';
import { listUtterances, loadUtterance } from './devset.js';
import { createEnergyEngine } from './engines/energy.js';

const USAGE = `
Usage: pnpm --filter @avatar-drive/engine-lab bench:speed [options]

Driver speed per input rate (× real time, best of N single-thread CPU times) beside the energy
baseline, on ~20 s of dev speech resampled to each rate. Reads $AVATAR_DRIVE_DATA/dev (default
packages/engine-lab/.data/dev): make it first with \`pnpm --filter @avatar-drive/engine-lab gen:dev\`.

Options:
  --seconds N      seconds of dev speech (default 20)
  --repeats N      timed repeats per rate, best kept (default 7)
  --rates a,b      only these input rates (default: all 7)
  --backend B      backend whose frames --dump writes and --compare checks: auto (default), wasm, js
  --dump FILE      write the driver's frames (and FILE.inputs) for equivalence checks
  --compare FILE   re-run on FILE.inputs and print the max |Δ| against FILE
  -h, --help       this text
`;

const values = parseBenchArgs(USAGE, {
  seconds: { type: 'string', default: '20' },
  repeats: { type: 'string', default: '7' },
  dump: { type: 'string' },
  compare: { type: 'string' },
  rates: { type: 'string' },
  backend: { type: 'string', default: 'auto' },
});
const dumpBackend = values.backend as 'auto' | 'wasm' | 'js';
if (!['auto', 'wasm', 'js'].includes(dumpBackend)) {
  console.error(`--backend must be auto, wasm or js.\n${USAGE}`);
  process.exit(2);
}
const wasmReason = wasmUnavailableReason();
if (wasmReason) console.log(`WebAssembly backend unavailable (${wasmReason}): timing TypeScript only.`);

const dataRoot = process.env.AVATAR_DRIVE_DATA ?? join(import.meta.dirname, '..', '.data');
const devDir = join(dataRoot, 'dev');
// --compare reads its inputs from the dump; everything else needs the dev set.
if (!values.compare) requireDevSet(devDir, 'set AVATAR_DRIVE_DATA to the folder holding dev/ to use another');
const wantSeconds = Number(values.seconds);
const repeats = Number(values.repeats);
if (!(wantSeconds > 0) || !(Number.isInteger(repeats) && repeats > 0)) {
  console.error(`--seconds must be > 0 and --repeats a positive integer.\n${USAGE}`);
  process.exit(2);
}
for (const file of values.compare ? [values.compare, `${values.compare}.inputs`] : []) {
  if (!existsSync(file)) {
    console.error(`${file} does not exist: make it first with bench:speed --dump ${values.compare}.`);
    process.exit(2);
  }
}

/** About `wantSeconds` of 16 kHz dev speech, utterances concatenated in id order. */
function speech16k(): Int16Array {
  const parts: Int16Array[] = [];
  let total = 0;
  for (const id of listUtterances(devDir)) {
    const u = loadUtterance(devDir, id);
    const pcm = u.sampleRate === 16000 ? u.pcm : resample(u.pcm, u.sampleRate, 16000);
    parts.push(pcm);
    total += pcm.length;
    if (total >= wantSeconds * 16000) break;
  }
  const all = new Int16Array(total);
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return all;
}

function chunked(pcm: Int16Array, rate: number): Int16Array[] {
  const step = rate / 50;
  const chunks: Int16Array[] = [];
  for (let i = 0; i < pcm.length; i += step) chunks.push(pcm.subarray(i, Math.min(pcm.length, i + step)));
  return chunks;
}

function cpuSeconds(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repeats; r++) {
    const t0 = process.cpuUsage();
    run();
    const dt = process.cpuUsage(t0);
    best = Math.min(best, (dt.user + dt.system) / 1e6);
  }
  return best;
}

function runDriver(rate: number, chunks: Int16Array[], backend: 'auto' | 'wasm' | 'js'): DriveFrame[] {
  const driver = createDriver({ sampleRate: rate, backend });
  const frames: DriveFrame[] = [];
  for (const c of chunks) for (const f of driver.push(c)) frames.push(f);
  for (const f of driver.end()) frames.push(f);
  driver.close();
  return frames;
}

const FIELDS = Object.keys(FRAME_LAYOUT) as (keyof typeof FRAME_LAYOUT)[];
const FRAME_VALUES = FIELDS.reduce((n, f) => n + FRAME_LAYOUT[f], 0);

function flatten(frames: DriveFrame[]): Float32Array {
  const out = new Float32Array(frames.length * FRAME_VALUES);
  let o = 0;
  for (const f of frames) {
    for (const field of FIELDS) {
      out.set(f[field], o);
      o += FRAME_LAYOUT[field];
    }
  }
  return out;
}

// The inputs are stored next to a dump and reused by --compare, so a change to the resampler that
// prepares them cannot masquerade as a change in the engine's output.
const inputsFile = values.compare ? `${values.compare}.inputs` : values.dump ? `${values.dump}.inputs` : null;
const storedInputs =
  values.compare && inputsFile ? unpack(readFileSync(inputsFile)).map((a) => Int16Array.from(a)) : null;
const base = storedInputs ? storedInputs[SUPPORTED_SAMPLE_RATES.indexOf(16000)]! : speech16k();
const seconds = base.length / 16000;
const energy = createEnergyEngine();
const dumps: Float32Array[] = [];
const inputs: Float32Array[] = [];
console.log(`${seconds.toFixed(1)} s of dev speech, 20 ms chunks, best of ${repeats} (CPU time, one thread)`);
console.log('rate     wasm ×RT   js ×RT   wasm/js   energy baseline ×RT   ms CPU per audio s (wasm / js)');
/** Max |Δ| per field between the backends' frames, per rate. */
const backendDiffs: { rate: number; worst: Record<string, number>; frames: number; countsDiffer: boolean }[] =
  [];
const rates: readonly number[] = values.rates
  ? values.rates.split(',').map((r) => {
      const rate = Number(r);
      if (!SUPPORTED_SAMPLE_RATES.includes(rate as (typeof SUPPORTED_SAMPLE_RATES)[number]))
        throw new Error(`--rates: ${r} is not one of ${SUPPORTED_SAMPLE_RATES.join(', ')}`);
      return rate;
    })
  : SUPPORTED_SAMPLE_RATES;
if (rates !== SUPPORTED_SAMPLE_RATES && (values.dump || values.compare))
  throw new Error('--dump and --compare cover all rates: drop --rates');
for (const rate of rates) {
  const pcm =
    storedInputs?.[(SUPPORTED_SAMPLE_RATES as readonly number[]).indexOf(rate)] ??
    (rate === 16000 ? base : resample(base, 16000, rate));
  inputs.push(Float32Array.from(pcm));
  const chunks = chunked(pcm, rate);
  const haveWasm = wasmReason === '';
  runDriver(rate, chunks, 'js'); // warm-up
  if (haveWasm) runDriver(rate, chunks, 'wasm');
  // Interleaved, so a load change on the shared machine hits both backends alike.
  let jsCpu = Number.POSITIVE_INFINITY;
  let wasmCpu = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repeats; r++) {
    jsCpu = Math.min(
      jsCpu,
      cpuSecondsOnce(() => runDriver(rate, chunks, 'js')),
    );
    if (haveWasm)
      wasmCpu = Math.min(
        wasmCpu,
        cpuSecondsOnce(() => runDriver(rate, chunks, 'wasm')),
      );
  }
  const stream = await energy.open(rate);
  const energyCpu = cpuSeconds(() => {
    for (const c of chunks) stream.push(c);
    stream.end();
  });
  dumps.push(flatten(runDriver(rate, chunks, dumpBackend)));
  if (haveWasm) {
    const a = flatten(runDriver(rate, chunks, 'js'));
    const b = flatten(runDriver(rate, chunks, 'wasm'));
    backendDiffs.push({ rate, ...fieldDiffs(a, b), countsDiffer: a.length !== b.length });
  }
  const xrt = (cpu: number): string => (Number.isFinite(cpu) ? `${Math.round(seconds / cpu)}×` : '—');
  const ms = (cpu: number): string => (Number.isFinite(cpu) ? ((cpu / seconds) * 1000).toFixed(3) : '—');
  console.log(
    `${String(rate).padEnd(8)} ${xrt(wasmCpu).padStart(8)} ${xrt(jsCpu).padStart(8)} ${(haveWasm ? (jsCpu / wasmCpu).toFixed(2) : '—').padStart(9)} ${xrt(energyCpu).padStart(21)}   ${ms(wasmCpu)} / ${ms(jsCpu)}`,
  );
}

function cpuSecondsOnce(run: () => void): number {
  const t0 = process.cpuUsage();
  run();
  const dt = process.cpuUsage(t0);
  return (dt.user + dt.system) / 1e6;
}

/** Max |Δ| per frame field between two flattened runs (0 everywhere when the counts differ). */
function fieldDiffs(a: Float32Array, b: Float32Array): { worst: Record<string, number>; frames: number } {
  const worst: Record<string, number> = {};
  for (const field of FIELDS) worst[field] = 0;
  if (a.length !== b.length) return { worst, frames: 0 };
  for (let o = 0; o < a.length; o += FRAME_VALUES) {
    let p = o;
    for (const field of FIELDS) {
      for (let j = 0; j < FRAME_LAYOUT[field]; j++, p++) {
        worst[field] = Math.max(worst[field]!, Math.abs(a[p]! - b[p]!));
      }
    }
  }
  return { worst, frames: a.length / FRAME_VALUES };
}

if (backendDiffs.length > 0) {
  console.log('max |Δ| per field, wasm vs js backend:');
  for (const { rate, worst, frames, countsDiffer } of backendDiffs) {
    console.log(
      countsDiffer
        ? `${rate}: frame counts differ`
        : `${rate}: ${FIELDS.map((f) => `${f} ${worst[f]!.toExponential(1)}`).join(', ')} (${frames} frames)`,
    );
  }
}

function pack(arrays: Float32Array[]): Uint8Array {
  const header = new Uint32Array([arrays.length, ...arrays.map((a) => a.length)]);
  const total = header.byteLength + arrays.reduce((n, a) => n + a.byteLength, 0);
  const out = new Uint8Array(total);
  out.set(new Uint8Array(header.buffer), 0);
  let o = header.byteLength;
  for (const a of arrays) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), o);
    o += a.byteLength;
  }
  return out;
}

function unpack(bytes: Uint8Array): Float32Array[] {
  const copy = bytes.slice();
  const n = new Uint32Array(copy.buffer, 0, 1)[0]!;
  const lengths = new Uint32Array(copy.buffer, 4, n);
  const out: Float32Array[] = [];
  let o = 4 * (n + 1);
  for (const len of lengths) {
    out.push(new Float32Array(copy.buffer, o, len));
    o += 4 * len;
  }
  return out;
}

if (values.dump) {
  writeFileSync(values.dump, pack(dumps));
  writeFileSync(`${values.dump}.inputs`, pack(inputs));
  console.log(`driver frames written to ${values.dump}`);
}
if (values.compare) {
  const ref = unpack(readFileSync(values.compare));
  console.log('max |Δ| per field vs reference:');
  SUPPORTED_SAMPLE_RATES.forEach((rate, i) => {
    const a = ref[i]!;
    const b = dumps[i]!;
    if (a.length !== b.length) {
      console.log(`${rate}: frame count differs (${a.length / FRAME_VALUES} vs ${b.length / FRAME_VALUES})`);
      return;
    }
    const worst: Record<string, number> = {};
    for (const field of FIELDS) worst[field] = 0;
    let over = 0;
    for (let o = 0; o < a.length; o += FRAME_VALUES) {
      let p = o;
      let frameWorst = 0;
      for (let j = 0; j < FRAME_VALUES; j++)
        frameWorst = Math.max(frameWorst, Math.abs(a[o + j]! - b[o + j]!));
      if (frameWorst > 1e-4) over++;
      for (const field of FIELDS) {
        for (let j = 0; j < FRAME_LAYOUT[field]; j++, p++) {
          worst[field] = Math.max(worst[field]!, Math.abs(a[p]! - b[p]!));
        }
      }
    }
    const frames = a.length / FRAME_VALUES;
    console.log(
      `${rate}: ${FIELDS.map((f) => `${f} ${worst[f]!.toExponential(1)}`).join(', ')}; frames off by > 1e-4: ${over} of ${frames}`,
    );
  });
}
