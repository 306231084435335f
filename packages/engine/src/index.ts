/**
 * @avatar-drive/engine — streaming speech → 25 fps drive frames (ARKit-52, visemes, head, eyes),
 * causal, on the CPU, in TypeScript with its hot loops also in an embedded WebAssembly SIMD module
 * (Node, browsers, Workers).
 * @packageDocumentation
 */
export {
  createDriver,
  DEFAULT_LOOKAHEAD_MS,
  type Driver,
  type DriverOptions,
  MAX_LOOKAHEAD_MS,
} from './driver.js';
export {
  ANALYSIS_RATE,
  FEATURE_DIM,
  FeatureExtractor,
  HOP,
  HOP_MS,
  HOPS_PER_FRAME,
  type HopAcoustics,
  MEL_BANDS,
  WINDOW,
} from './features.js';
export { type AnalysisFrontEnd, analysisRateFor, createAnalysisFrontEnd } from './front-end.js';
export type { EngineBackend } from './hop-analysis.js';
export {
  type ContextSlot,
  type ModelHeader,
  type ModelWeights,
  parseModelWeights,
  serializeModelWeights,
} from './model.js';
export { defaultModelWeights } from './weights.js';
