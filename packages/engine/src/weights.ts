/**
 * The bundled model: weights/lipsync.bin, embedded as base64 at build time
 * (scripts/embed-weights.mjs writes src/gen/weights.ts) so the runtime needs no file system or
 * fetch, in Node and in browsers alike.
 */
import { LIPSYNC_WEIGHTS_BASE64 } from './gen/weights.js';
import { base64ToBytes, type ModelWeights, parseModelWeights } from './model.js';

let cached: ModelWeights | undefined;

/** The bundled weights, parsed once. */
export function defaultModelWeights(): ModelWeights {
  cached ??= parseModelWeights(base64ToBytes(LIPSYNC_WEIGHTS_BASE64));
  return cached;
}
