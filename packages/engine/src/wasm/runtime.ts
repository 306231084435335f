/**
 * The engine's WebAssembly module (csrc/engine.c, embedded by scripts/build-wasm.mjs): one instance
 * and one linear memory per JavaScript realm, shared by every driver. The memory holds the read-only
 * tables of each analysis rate and model once, and one slot per driver (its feature ring, trackers,
 * history and pitch ring, 8–10.5 KB); freeing a driver returns its slot to a free list of its size.
 */
import { ENGINE_WASM_BASE64 } from '../gen/engine-wasm.js';
import { base64ToBytes } from '../model.js';

/** The WebAssembly JS API calls used here, typed locally (the engine's tsconfig has no DOM lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/** The C functions (csrc/engine.c); pointers are byte offsets into the memory. */
export interface EngineExports {
  memory: WasmMemory;
  __heap_base: { value: number };
  init(): void;
  test_ln(x: number): number;
  test_acos(x: number): number;
  test_exp(x: number): number;
  tables_prepare(tables: number): void;
  slot_header_bytes(): number;
  slot_bytes(tables: number, model: number): number;
  slot_init(
    slot: number,
    tables: number,
    model: number,
    lead: number,
    pitch: number,
    block: number,
    integer: number,
  ): void;
  slot_reset(slot: number): void;
  slot_set_taps(slot: number, taps: number): void;
  slot_decimate(slot: number, pcm: number, scratch: number, n: number, out: number): number;
  slot_restart(slot: number): void;
  slot_count(slot: number): number;
  slot_features(slot: number): number;
  slot_push(slot: number, samples: number, from: number, to: number): number;
  slot_run(slot: number, samples: number, from: number, to: number): number;
  slot_feed_pcm(slot: number, pcm: number, samples: number, n: number): number;
  slot_model(slot: number, base: number, newest: number): number;
  pitch_f0(slot: number, endSample: number): number;
  slot_frame(slot: number, base: number, hops: number, newest: number, endSample: number): number;
}

const PAGE = 65536;
/** Allocation granule: 16 bytes keeps every block aligned for v128 and float64 access. */
const ALIGN = 16;

/** Heap figures, for tests and diagnostics. */
export interface WasmHeapStats {
  /** Blocks handed out and not yet freed (tables and models included). */
  liveBlocks: number;
  /** Bytes of the heap ever handed out (its high-water mark). */
  heapBytes: number;
  /** Size of the linear memory. */
  memoryBytes: number;
}

/** The instance and its heap: a bump allocator with one free list per block size. */
export class WasmEngine {
  readonly exports: EngineExports;
  private top: number;
  private readonly base: number;
  private readonly free = new Map<number, number[]>();
  private live = 0;
  private buffer: ArrayBuffer;
  /** Views of the memory, renewed whenever it grows (growing detaches the old ones). */
  f32: Float32Array;
  f64: Float64Array;
  i16: Int16Array;
  i32: Int32Array;
  u32: Uint32Array;

  constructor(exports: EngineExports) {
    this.exports = exports;
    exports.init();
    this.base = align(exports.__heap_base.value);
    this.top = this.base;
    this.buffer = exports.memory.buffer;
    this.f32 = new Float32Array(this.buffer);
    this.f64 = new Float64Array(this.buffer);
    this.i16 = new Int16Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.u32 = new Uint32Array(this.buffer);
  }

  /** A block of `bytes` (rounded up to 16), zero-filled. */
  alloc(bytes: number): number {
    const size = align(bytes);
    const list = this.free.get(size);
    let ptr = list?.pop();
    if (ptr === undefined) {
      ptr = this.top;
      this.top += size;
      const need = this.top - this.exports.memory.buffer.byteLength;
      if (need > 0) this.exports.memory.grow(Math.ceil(need / PAGE));
      this.refresh();
    } else {
      new Uint8Array(this.buffer, ptr, size).fill(0);
    }
    this.live++;
    return ptr;
  }

  /** Returns a block from {@link alloc} (with the same `bytes`). */
  release(ptr: number, bytes: number): void {
    const size = align(bytes);
    let list = this.free.get(size);
    if (list === undefined) {
      list = [];
      this.free.set(size, list);
    }
    list.push(ptr);
    this.live--;
  }

  /** Renews the views if the memory grew. */
  refresh(): void {
    const buffer = this.exports.memory.buffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.f32 = new Float32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.u32 = new Uint32Array(buffer);
  }

  stats(): WasmHeapStats {
    return {
      liveBlocks: this.live,
      heapBytes: this.top - this.base,
      memoryBytes: this.exports.memory.buffer.byteLength,
    };
  }
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

let engine: WasmEngine | null | undefined;
let unavailable = '';

/**
 * The shared module instance, made on first use; null when this build or this runtime has no
 * WebAssembly SIMD ({@link wasmUnavailableReason} says why).
 */
export function wasmEngine(): WasmEngine | null {
  if (engine !== undefined) return engine;
  engine = null;
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (ENGINE_WASM_BASE64 === null) {
    unavailable =
      'the engine was built without clang, so it has no WebAssembly module (install clang and lld, then rebuild)';
  } else if (api === undefined) {
    unavailable = 'this runtime has no WebAssembly';
  } else {
    const bytes = base64ToBytes(ENGINE_WASM_BASE64);
    if (!api.validate(bytes)) {
      unavailable = 'this runtime does not support WebAssembly SIMD128';
    } else {
      try {
        // Synchronous compilation: allowed in Node and in Workers; a browser's main thread may refuse
        // a module this size, and then the TypeScript path runs instead.
        const instance = new api.Instance(new api.Module(bytes), {});
        engine = new WasmEngine(instance.exports as unknown as EngineExports);
      } catch (error) {
        unavailable = `the WebAssembly module could not be instantiated here (${(error as Error).message})`;
      }
    }
  }
  return engine;
}

/** Why {@link wasmEngine} is null ('' while it is not). */
export function wasmUnavailableReason(): string {
  wasmEngine();
  return unavailable;
}
