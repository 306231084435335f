/**
 * The WebAssembly SIMD path of the per-hop analysis (see src/hop-analysis.ts): the driver's state lives
 * in one slot of the shared module's memory; the tables and the model are shared by every driver.
 */

import type { FrameAcoustics } from '../animator.js';
import { hopSamples } from '../features.js';
import { HALFBAND_PAIRS, halfbandTaps } from '../front-end.js';
import type { HopAnalysis, HopAnalysisOptions } from '../hop-analysis.js';
import type { ModelWeights } from '../model.js';
import { pitchFilter } from '../pitch.js';
import { type WasmEngine, wasmEngine } from './runtime.js';
import { acquireWasmModel, releaseWasmModel, wasmTables } from './shared-data.js';

/** Samples copied into the module per call (at most csrc/engine.c D_MAX_INPUT): input longer than this goes in pieces. */
const SCRATCH_SAMPLES = 4096;

/** Floats of room the decimator needs before its input (csrc/engine.c D_CARRY, rounded up). */
const CARRY_ROOM = 32;

/** Per engine, shared by its drivers (used within one call): PCM, input and decimated buffers, parameters. */
interface Scratch {
  pcm: number;
  input: number;
  decimated: number;
  params: number;
}
const scratchByEngine = new WeakMap<WasmEngine, Scratch>();

function scratch(engine: WasmEngine): Scratch {
  let s = scratchByEngine.get(engine);
  if (s === undefined) {
    s = {
      pcm: engine.alloc(2 * SCRATCH_SAMPLES),
      input: engine.alloc(4 * (CARRY_ROOM + SCRATCH_SAMPLES)) + 4 * CARRY_ROOM,
      decimated: engine.alloc(4 * (SCRATCH_SAMPLES / 2 + CARRY_ROOM)),
      params: engine.alloc(8 * 8),
    };
    scratchByEngine.set(engine, s);
  }
  return s;
}

/** Zeros that flush the decimator (its reach: 2·pairs − 1 inputs of silence after the end). */
const FLUSH = new Int16Array(2 * HALFBAND_PAIRS - 1);

/** What a collected driver still holds, so its slot is freed even if close() was never called. */
interface Held {
  engine: WasmEngine;
  slot: number;
  bytes: number;
  weights: ModelWeights;
}

const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Held>((held) => freeSlot(held))
    : undefined;

function freeSlot(held: Held): void {
  held.engine.release(held.slot, held.bytes);
  releaseWasmModel(held.engine, held.weights);
}

export class WasmHopAnalysis implements HopAnalysis {
  readonly backend = 'wasm';
  readonly hop: number;
  count = 0;
  private readonly engine: WasmEngine;
  private readonly held: Held;
  private readonly ptr: number;
  private readonly pcm: number;
  private readonly input: number;
  private readonly decimated: number;
  /** Whether the input passes the half-band decimator (44.1 and 48 kHz). */
  private readonly decimate: boolean;
  private readonly classes: number;
  private closed = false;

  /** Throws when the module is unavailable: check {@link wasmEngine} first. */
  constructor(options: HopAnalysisOptions) {
    const engine = wasmEngine();
    if (!engine) throw new Error('WebAssembly engine unavailable');
    const { inputRate, rate, sampleScale, lead, weights } = options;
    this.engine = engine;
    this.hop = hopSamples(rate);
    const ex = engine.exports;
    const tables = wasmTables(engine, rate, sampleScale, this.hop);
    const model = acquireWasmModel(engine, weights);
    const bytes = ex.slot_bytes(tables, model);
    const slot = engine.alloc(bytes);
    const { pcm, input, decimated, params } = scratch(engine);
    const f = pitchFilter(rate, sampleScale);
    engine.f64.set([f.b0, f.b1, f.b2, f.a1, f.a2, f.rate], params / 8);
    ex.slot_init(slot, tables, model, lead, params, f.block, f.integerInput ? 1 : 0);
    this.decimate = inputRate !== rate;
    if (this.decimate) {
      // The taps of front-end.ts's decimator, with its 2^-15 folded in (the same doubles).
      engine.f64.set(
        halfbandTaps(HALFBAND_PAIRS).map((t) => t / 32768),
        params / 8,
      );
      ex.slot_set_taps(slot, params);
    }
    this.ptr = slot;
    this.pcm = pcm;
    this.input = input;
    this.decimated = decimated;
    this.classes = weights.header.layers[weights.header.layers.length - 1]!;
    this.held = { engine, slot, bytes, weights };
    registry?.register(this, this.held, this);
  }

  /**
   * The input PCM, copied into the module as it is (s16, a plain memory copy) and converted there:
   * 8–32 kHz as raw s16 values (the analysis scales them), 44.1/48 kHz through the decimator.
   */
  feedInput(pcm: Int16Array, onHop: () => void): void {
    const engine = this.engine;
    const ex = engine.exports;
    for (let start = 0; start < pcm.length; start += SCRATCH_SAMPLES) {
      const n = Math.min(SCRATCH_SAMPLES, pcm.length - start);
      engine.i16.set(start === 0 && n === pcm.length ? pcm : pcm.subarray(start, start + n), this.pcm / 2);
      if (this.decimate) {
        this.run(this.decimated, ex.slot_decimate(this.ptr, this.pcm, this.input, n, this.decimated), onHop);
      } else {
        // The conversion and the first hops in one call.
        this.ran(ex.slot_feed_pcm(this.ptr, this.pcm, this.input, n), this.input, n, onHop);
      }
    }
  }

  flushInput(onHop: () => void): void {
    if (this.decimate) this.feedInput(FLUSH, onHop);
  }

  /** Copies analysis-rate samples into the module piece by piece (the driver's end-of-utterance padding). */
  feed(samples: Float32Array, length: number, onHop: () => void): void {
    const engine = this.engine;
    for (let start = 0; start < length; start += SCRATCH_SAMPLES) {
      const n = Math.min(SCRATCH_SAMPLES, length - start);
      engine.f32.set(
        start === 0 && n === samples.length ? samples : samples.subarray(start, start + n),
        this.input / 4,
      );
      this.run(this.input, n, onHop);
    }
  }

  /** Analyses the n samples at `at` in the module's memory, a few hops per call (csrc/engine.c slot_run). */
  private run(at: number, n: number, onHop: () => void): void {
    if (n > 0) this.ran(this.engine.exports.slot_run(this.ptr, at, 0, n), at, n, onHop);
  }

  /**
   * Continues after a slot_run result `r` (next index · 4 + hops done). The driver is told once per
   * call: it analyses and emits every frame the new hops complete, in order, as it would hop by hop.
   */
  private ran(r: number, at: number, n: number, onHop: () => void): void {
    const ex = this.engine.exports;
    for (;;) {
      if (r & 3) {
        this.count += r & 3;
        onHop();
      }
      const from = r >> 2;
      if (from >= n) return;
      r = ex.slot_run(this.ptr, at, from, n);
    }
  }

  /** One module call: the acoustics, the pitch and the softmax are computed there (csrc/engine.c slot_frame). */
  frame(
    base: number,
    hops: number,
    newest: number,
    endSample: number,
    acoustics: FrameAcoustics,
    posteriors: Float32Array,
  ): void {
    const engine = this.engine;
    const at = engine.exports.slot_frame(this.ptr, base, hops, newest, endSample) / 8;
    const f64 = engine.f64;
    acoustics.energy = f64[at]!;
    acoustics.level = f64[at + 1]!;
    acoustics.noiseFloor = f64[at + 2]!;
    acoustics.f0 = f64[at + 3]!;
    const f32 = engine.f32;
    const from = 2 * at + 8;
    for (let i = 0; i < this.classes; i++) posteriors[i] = f32[from + i]!;
  }

  restart(full: boolean): void {
    this.count = 0;
    if (full) this.engine.exports.slot_reset(this.ptr);
    else this.engine.exports.slot_restart(this.ptr);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    registry?.unregister(this);
    freeSlot(this.held);
  }
}
