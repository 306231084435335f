/**
 * `@avatar-drive/engine/lab`: the analysis internals the engine's lab (packages/engine-lab: the
 * trainer and the benches) builds on, so that training and the runtime compute each step with one
 * piece of code and round identically. For the lab, not for apps: no stability promise beyond the
 * engine's own version. The main entry (`@avatar-drive/engine`) is the public API.
 *
 * @example
 * ```ts
 * import { hopSamples, softmaxInPlace } from '@avatar-drive/engine/lab';
 *
 * const perHop = hopSamples(16000); // 320: samples per 20 ms analysis hop at 16 kHz
 * const posteriors = Float32Array.of(2, 1, 0);
 * softmaxInPlace(posteriors); // sums to 1
 * ```
 */
export { hopSamples } from './features.js';
export { inverseStd, projectHop, standardiseHop } from './hop-history.js';
export { softmaxInPlace } from './model.js';
export { wasmUnavailableReason } from './wasm/runtime.js';
