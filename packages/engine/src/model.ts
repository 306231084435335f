/**
 * The viseme model: its weights file format and its inference (a small MLP on Float32Arrays).
 *
 * Weights file (`weights/lipsync.bin`), little-endian:
 *   bytes 0..3   magic "ADLS"
 *   bytes 4..7   uint32 length H of the JSON header
 *   bytes 8..    H bytes of UTF-8 JSON ({@link ModelHeader}), then zero padding to a multiple of 4
 *   then         float32 parameters: for each layer, weights (out × in, row-major) then biases (out)
 */
import { AvatarError } from '@avatar-drive/core';

/** Context slot: mean of the feature hops `[from, to]`, relative to the frame's first hop. */
export type ContextSlot = readonly [from: number, to: number];

/** What the JSON header of a weights file holds. */
export interface ModelHeader {
  format: 'avatar-drive-lipsync';
  version: 1;
  /** Feature values per hop (must match the runtime's feature extractor). */
  featureDim: number;
  /**
   * Optional per-hop projection, `rows × featureDim` row-major: each standardised hop is reduced to
   * `rows` values before the context is assembled, so the first layer reads `rows` values per slot
   * instead of `featureDim`. The projection is shared by every slot, so the runtime computes it once
   * per hop, not once per slot and frame. Absent: slots hold the standardised features themselves.
   */
  projection?: number[];
  /** Context slots, oldest first. The largest `to` minus 3 is the model's own lookahead in hops. */
  context: ContextSlot[];
  /** Layer sizes, input first: [in, hidden..., out]. */
  layers: number[];
  activation: 'relu';
  /** Output classes, in order (the 15 visemes). */
  classes: string[];
  /** Per-value standardisation applied to every context slot: (x - mean) / std. */
  featureMean: number[];
  featureStd: number[];
  /** Prior of the per-band channel mean of the mel shape (see FeatureExtractor). */
  channelPrior: number[];
  /** Free-form provenance: corpus, sizes, scores. */
  provenance?: Record<string, unknown>;
}

/** Parsed weights, ready for inference. */
export interface ModelWeights {
  header: ModelHeader;
  /** Per layer: weights (out × in, row-major). */
  weights: Float32Array[];
  /** Per layer: biases (out). */
  biases: Float32Array[];
}

const MAGIC = 0x534c4441; // "ADLS" read as little-endian uint32

function invalid(message: string): AvatarError {
  return new AvatarError(
    'invalidRequest',
    `${message} Pass the weights file produced by \`pnpm --filter @avatar-drive/engine-lab train\` (weights/lipsync.bin) or omit the weights option to use the bundled ones.`,
  );
}

/** Values per context slot: the projection's rows, or the feature dimension without one. */
export function slotDim(header: Pick<ModelHeader, 'featureDim' | 'projection'>): number {
  return header.projection ? header.projection.length / header.featureDim : header.featureDim;
}

/** Parses a weights file (see the module comment for the layout). */
export function parseModelWeights(bytes: Uint8Array): ModelWeights {
  if (bytes.byteLength < 8) throw invalid('The weights file is too short.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw invalid('The weights file does not start with "ADLS".');
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.byteLength) throw invalid('The weights header is truncated.');
  let header: ModelHeader;
  try {
    header = JSON.parse(asciiToString(bytes.subarray(8, 8 + headerLength))) as ModelHeader;
  } catch {
    throw invalid('The weights header is not valid JSON.');
  }
  if (header.format !== 'avatar-drive-lipsync' || header.version !== 1) {
    throw invalid('The weights header has an unknown format or version.');
  }
  const sizes = header.layers;
  if (!Array.isArray(sizes) || sizes.length < 2) throw invalid('The weights header lists no layers.');
  const projection = header.projection;
  if (
    projection !== undefined &&
    (!Array.isArray(projection) ||
      projection.length === 0 ||
      projection.length % header.featureDim !== 0 ||
      !projection.every((v) => typeof v === 'number' && Number.isFinite(v)))
  ) {
    throw invalid('The weights header has a malformed projection.');
  }
  if (sizes[0] !== header.context.length * slotDim(header)) {
    throw invalid('The first layer does not match the context size.');
  }
  let offset = 8 + headerLength;
  offset += (4 - (offset % 4)) % 4;
  const count = sizes.slice(1).reduce((sum, out, i) => sum + out * (sizes[i]! + 1), 0);
  if (offset + count * 4 !== bytes.byteLength) throw invalid('The weights file has the wrong length.');
  // Copy into aligned Float32Arrays (the input may sit at any offset).
  const params = new Float32Array(count);
  for (let i = 0; i < count; i++) params[i] = view.getFloat32(offset + 4 * i, true);
  const weights: Float32Array[] = [];
  const biases: Float32Array[] = [];
  let p = 0;
  for (let l = 1; l < sizes.length; l++) {
    const fanIn = sizes[l - 1]!;
    const fanOut = sizes[l]!;
    weights.push(params.subarray(p, p + fanIn * fanOut));
    p += fanIn * fanOut;
    biases.push(params.subarray(p, p + fanOut));
    p += fanOut;
  }
  return { header, weights, biases };
}

/** Serialises weights into the file format read by {@link parseModelWeights}. */
export function serializeModelWeights(model: ModelWeights): Uint8Array {
  // The header is written as ASCII JSON (non-ASCII escaped), so no text codec is needed to read it.
  const text = JSON.stringify(model.header).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const json = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) json[i] = text.charCodeAt(i);
  let offset = 8 + json.byteLength;
  const pad = (4 - (offset % 4)) % 4;
  const count = model.weights.reduce((sum, w, i) => sum + w.length + model.biases[i]!.length, 0);
  const out = new Uint8Array(offset + pad + 4 * count);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, json.byteLength, true);
  out.set(json, 8);
  offset += pad;
  for (let l = 0; l < model.weights.length; l++) {
    for (const array of [model.weights[l]!, model.biases[l]!]) {
      for (let i = 0; i < array.length; i++, offset += 4) view.setFloat32(offset, array[i]!, true);
    }
  }
  return out;
}

function asciiToString(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 4096)));
  }
  return text;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

/** Decodes base64 in plain TypeScript (no Buffer, no atob: the same code in every runtime). */
export function base64ToBytes(base64: string): Uint8Array {
  const clean = base64.replace(/[^A-Za-z0-9+/]/g, '');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | BASE64_VALUE[clean.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[o++] = (acc >> bits) & 0xff;
    }
  }
  return bytes;
}

/**
 * The float64 copies of each model's parameters, shared by every runner of that model: a service
 * holds hundreds of drivers, and one copy per driver (≈ 85 KB each) would crowd the CPU caches.
 */
const widenedModels = new WeakMap<ModelWeights, { weights: Float64Array[]; biases: Float64Array[] }>();

function widen(model: ModelWeights): { weights: Float64Array[]; biases: Float64Array[] } {
  let widened = widenedModels.get(model);
  if (widened === undefined) {
    widened = {
      weights: model.weights.map((w) => Float64Array.from(w)),
      biases: model.biases.map((b) => Float64Array.from(b)),
    };
    widenedModels.set(model, widened);
  }
  return widened;
}

const sharedActivations = new WeakMap<ModelWeights, Float32Array[]>();

/**
 * Runs the model. Runners of the same weights share their input and activation buffers: fill
 * {@link input} and call {@link run} without running another runner of the model in between.
 */
export class MlpRunner {
  /** The input vector to fill before {@link run}. */
  readonly input: Float32Array;
  /** Softmax output after {@link run}. */
  readonly output: Float32Array;
  private readonly activations: Float32Array[];
  /**
   * The weights widened to float64 once: every read of a Float32Array converts to double anyway,
   * so the products are bit-identical and the hot loop saves a conversion per weight.
   */
  private readonly weights: Float64Array[];
  private readonly biases: Float64Array[];

  constructor(model: ModelWeights) {
    const sizes = model.header.layers;
    // Activations are scratch, filled and read within one synchronous run: every runner of a model
    // shares one set (fewer cache lines per driver when hundreds are interleaved).
    let activations = sharedActivations.get(model);
    if (activations === undefined) {
      activations = sizes.map((n) => new Float32Array(n));
      sharedActivations.set(model, activations);
    }
    this.activations = activations;
    this.input = this.activations[0]!;
    this.output = this.activations[sizes.length - 1]!;
    const widened = widen(model);
    this.weights = widened.weights;
    this.biases = widened.biases;
  }

  run(): Float32Array {
    const weights = this.weights;
    const biases = this.biases;
    const acts = this.activations;
    const last = weights.length - 1;
    for (let l = 0; l <= last; l++) layer(acts[l]!, acts[l + 1]!, weights[l]!, biases[l]!, l < last);
    const out = acts[last + 1]!;
    softmaxInPlace(out);
    return out;
  }
}

/**
 * Replaces `values` by their softmax (max subtracted first, so large logits cannot overflow). The
 * runtime and the trainer both use this one, so a trained model reads the same at run time.
 */
export function softmaxInPlace(values: Float32Array): void {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const e = Math.exp(values[i]! - max);
    values[i] = e;
    sum += e;
  }
  for (let i = 0; i < values.length; i++) values[i] = values[i]! / sum;
}

/**
 * y = W·x + b (ReLU when `relu`). Four rows per pass share each load of x; each row keeps two
 * accumulators (even and odd inputs: eight independent chains, the loop is latency-bound otherwise),
 * summed in the same order for every row, so the result does not depend on the grouping.
 */
function layer(x: Float32Array, y: Float32Array, w: Float64Array, b: Float64Array, relu: boolean): void {
  const fanIn = x.length;
  const fanOut = y.length;
  const body = fanIn & ~1;
  let o = 0;
  for (; o + 3 < fanOut; o += 4) {
    const r0 = o * fanIn;
    const r1 = r0 + fanIn;
    const r2 = r1 + fanIn;
    const r3 = r2 + fanIn;
    let p0 = b[o]!;
    let p1 = b[o + 1]!;
    let p2 = b[o + 2]!;
    let p3 = b[o + 3]!;
    let q0 = 0;
    let q1 = 0;
    let q2 = 0;
    let q3 = 0;
    let i = 0;
    for (; i < body; i += 2) {
      const x0 = x[i]!;
      const x1 = x[i + 1]!;
      p0 += w[r0 + i]! * x0;
      q0 += w[r0 + i + 1]! * x1;
      p1 += w[r1 + i]! * x0;
      q1 += w[r1 + i + 1]! * x1;
      p2 += w[r2 + i]! * x0;
      q2 += w[r2 + i + 1]! * x1;
      p3 += w[r3 + i]! * x0;
      q3 += w[r3 + i + 1]! * x1;
    }
    if (i < fanIn) {
      const x0 = x[i]!;
      p0 += w[r0 + i]! * x0;
      p1 += w[r1 + i]! * x0;
      p2 += w[r2 + i]! * x0;
      p3 += w[r3 + i]! * x0;
    }
    const s0 = p0 + q0;
    const s1 = p1 + q1;
    const s2 = p2 + q2;
    const s3 = p3 + q3;
    y[o] = relu && s0 < 0 ? 0 : s0;
    y[o + 1] = relu && s1 < 0 ? 0 : s1;
    y[o + 2] = relu && s2 < 0 ? 0 : s2;
    y[o + 3] = relu && s3 < 0 ? 0 : s3;
  }
  for (; o < fanOut; o++) {
    const r0 = o * fanIn;
    let p0 = b[o]!;
    let q0 = 0;
    let i = 0;
    for (; i < body; i += 2) {
      p0 += w[r0 + i]! * x[i]!;
      q0 += w[r0 + i + 1]! * x[i + 1]!;
    }
    if (i < fanIn) p0 += w[r0 + i]! * x[i]!;
    const s = p0 + q0;
    y[o] = relu && s < 0 ? 0 : s;
  }
}
