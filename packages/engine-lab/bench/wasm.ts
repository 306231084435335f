/**
 * The few WebAssembly JS-API calls the bench makes, typed locally: the engine's tsconfig has neither the
 * DOM lib nor Node types that declare them.
 */

/** A compiled module (opaque). */
export type WasmModule = object;
/** A wasm global; `value` is an address for exported C globals. */
export interface WasmGlobal {
  value: unknown;
}
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

/** The host's WebAssembly namespace. */
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
