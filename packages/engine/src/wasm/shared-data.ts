/**
 * Writes what drivers share into the WebAssembly memory, once: the tables of an analysis rate (the
 * TypeScript path's own arrays, copied, so both paths read the same numbers) and each model's
 * parameters. The layouts are csrc/engine.c's Tables and Model structs, field by field.
 */
import { analysisTables, MEL_BANDS, NOISE_FLOOR_PRIOR } from '../features.js';
import { inverseStd } from '../hop-history.js';
import { type ModelWeights, slotDim } from '../model.js';
import { defaultModelWeights } from '../weights.js';
import type { WasmEngine } from './runtime.js';

/** Tables struct: three doubles, then 7 ints and 17 pointers. */
const TABLES_BYTES = 24 + 4 * (7 + 17);
const MAX_LAYERS = 8;
const MAX_CONTEXT = 32;
/** Most model outputs (csrc/engine.c MAX_CLASSES). */
const MAX_CLASSES = 64;
/** Model struct: int32 fields and pointers only. */
const MODEL_INTS =
  1 + (MAX_LAYERS + 1) + MAX_LAYERS + MAX_LAYERS + (MAX_LAYERS + 1) + 1 + 1 + 2 * MAX_CONTEXT + 4;

type Typed = Float32Array | Float64Array | Int32Array | Uint32Array;

/** Copies `array` into a new block and returns its address (blocks are recorded in `owned`). */
function place(engine: WasmEngine, array: Typed, owned: [number, number][]): number {
  const bytes = Math.max(16, array.byteLength);
  const ptr = engine.alloc(bytes);
  owned.push([ptr, bytes]);
  const view =
    array instanceof Float32Array
      ? engine.f32
      : array instanceof Float64Array
        ? engine.f64
        : array instanceof Int32Array
          ? engine.i32
          : engine.u32;
  view.set(array, ptr / array.BYTES_PER_ELEMENT);
  return ptr;
}

const tablesByKey = new Map<string, number>();

/** The Tables struct of an analysis rate and sample scale (kept for the life of the realm). */
export function wasmTables(engine: WasmEngine, rate: number, sampleScale: number, hop: number): number {
  const key = `${rate}/${sampleScale}`;
  const cached = tablesByKey.get(key);
  if (cached !== undefined) return cached;
  const t = analysisTables(rate, sampleScale);
  const fft = t.fft;
  const owned: [number, number][] = [];
  const pointers = [
    place(engine, fft.inputOrder, owned),
    place(engine, fft.cosSub, owned),
    place(engine, fft.sinSub, owned),
    place(engine, fft.cos3, owned),
    place(engine, fft.sin3, owned),
    place(engine, fft.cosFull, owned),
    place(engine, fft.sinFull, owned),
    place(engine, t.window, owned),
    place(engine, t.lagCos, owned),
    place(engine, t.melStart, owned),
    place(engine, t.melOffset, owned),
    place(engine, t.melWeights, owned),
    place(engine, new Float64Array(fft.half), owned),
    place(engine, new Float64Array(fft.half), owned),
    place(engine, new Float32Array(fft.bins), owned),
    // Each FFT stage's twiddles, consecutive (filled by tables_prepare): at most 7/3 · sub doubles.
    place(engine, new Float64Array(3 * fft.sub), owned),
    // The hop's samples in time order (compute_hop's scratch).
    place(engine, new Float32Array(t.window.length), owned),
  ];
  const ptr = engine.alloc(TABLES_BYTES);
  engine.f64.set([t.energyScale, t.bandScale, NOISE_FLOOR_PRIOR], ptr / 8);
  engine.i32.set(
    [fft.size, fft.half, fft.radix, fft.sub, t.window.length, t.lastBin, hop, ...pointers],
    (ptr + 24) / 4,
  );
  engine.exports.tables_prepare(ptr);
  tablesByKey.set(key, ptr);
  return ptr;
}

function roundUp4(n: number): number {
  return (n + 3) & ~3;
}

/** `values` followed by zeros up to a multiple of four. */
function padded(values: Float32Array): Float32Array {
  const out = new Float32Array(roundUp4(values.length));
  out.set(values);
  return out;
}

/**
 * A layer's out × in row-major weights in csrc/engine.c's layout: blocks of four output rows,
 * [block][input][row], rows past `fanOut` zero.
 */
export function packRows(weights: Float32Array, fanIn: number, fanOut: number): Float32Array {
  const out = new Float32Array(roundUp4(fanOut) * fanIn);
  for (let row = 0; row < fanOut; row++) {
    const block = row >> 2;
    const lane = row & 3;
    for (let i = 0; i < fanIn; i++) out[(block * fanIn + i) * 4 + lane] = weights[row * fanIn + i]!;
  }
  return out;
}

interface PlacedModel {
  ptr: number;
  users: number;
  owned: [number, number][];
}

const models = new WeakMap<ModelWeights, PlacedModel>();

/**
 * The Model struct of `weights`, placed on first use and counted: {@link releaseWasmModel} frees it
 * when its last driver is gone (a service may load custom weights per session).
 */
export function acquireWasmModel(engine: WasmEngine, weights: ModelWeights): number {
  const placed = models.get(weights);
  if (placed) {
    placed.users++;
    return placed.ptr;
  }
  const header = weights.header;
  const sizes = header.layers;
  const layers = sizes.length - 1;
  if (layers > MAX_LAYERS || header.context.length > MAX_CONTEXT || sizes[layers]! > MAX_CLASSES)
    throw new RangeError(
      `the WebAssembly path takes at most ${MAX_LAYERS} layers, ${MAX_CONTEXT} context slots and ${MAX_CLASSES} classes`,
    );
  const owned: [number, number][] = [];
  const ints = new Int32Array(MODEL_INTS);
  let o = 0;
  ints[o++] = layers;
  for (let l = 0; l <= MAX_LAYERS; l++) ints[o++] = sizes[l] ?? 0;
  for (let l = 0; l < MAX_LAYERS; l++)
    ints[o++] =
      l < layers ? place(engine, packRows(weights.weights[l]!, sizes[l]!, sizes[l + 1]!), owned) : 0;
  for (let l = 0; l < MAX_LAYERS; l++)
    ints[o++] = l < layers ? place(engine, padded(weights.biases[l]!), owned) : 0;
  for (let l = 0; l <= MAX_LAYERS; l++)
    ints[o++] = l <= layers ? place(engine, new Float32Array(roundUp4(sizes[l]!)), owned) : 0;
  ints[o++] = slotDim(header);
  ints[o++] = header.context.length;
  for (let c = 0; c < MAX_CONTEXT; c++) ints[o++] = header.context[c]?.[0] ?? 0;
  for (let c = 0; c < MAX_CONTEXT; c++) ints[o++] = header.context[c]?.[1] ?? 0;
  ints[o++] = header.projection ? place(engine, Float64Array.from(header.projection), owned) : 0;
  ints[o++] = place(engine, Float64Array.from(header.featureMean), owned);
  ints[o++] = place(engine, inverseStd(header.featureStd), owned);
  const prior = new Float32Array(MEL_BANDS);
  for (let b = 0; b < MEL_BANDS; b++) prior[b] = header.channelPrior?.[b] ?? 0;
  ints[o++] = place(engine, prior, owned);
  const ptr = place(engine, ints, owned);
  models.set(weights, { ptr, users: 1, owned });
  return ptr;
}

/**
 * One driver fewer uses `weights`: the last one frees its blocks, except the bundled model's, which
 * stays placed (sessions come and go; placing it again for each would copy 50 KB per session).
 */
export function releaseWasmModel(engine: WasmEngine, weights: ModelWeights): void {
  const placed = models.get(weights);
  if (!placed || --placed.users > 0 || weights === defaultModelWeights()) return;
  for (const [ptr, bytes] of placed.owned) engine.release(ptr, bytes);
  models.delete(weights);
}
