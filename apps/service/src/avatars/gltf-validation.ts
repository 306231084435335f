/**
 * Runs the Khronos glTF validator (npm `gltf-validator`) on a file in a worker thread with a time
 * and memory bound, so a file built to make it slow or greedy costs one worker, never the event
 * loop that serves sessions. Errors refuse the file, summarised in the message; warnings are kept.
 *
 * A file with `EXT_meshopt_compression` buffer views is decoded first (npm `meshoptimizer`, in the
 * same worker; sizes were bounded by the pre-check) and repacked as a plain GLB, so the validator
 * checks the decoded vertices, indices and morph targets like any other file's: a stream that
 * does not decode refuses the file, and so does data that decodes to nonsense.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fileProblem } from './file-problem.js';
import type { MeshoptView } from './gltf-extensions.js';

/** One issue the validator reported. */
export interface ValidationIssue {
  code: string;
  message: string;
  /** JSON pointer into the glTF, when the issue has one. */
  pointer?: string;
}

/** What the validator said about a file it accepted. */
export interface ValidationSummary {
  /** Hex SHA-256 of the file (hashed in the worker too, off the event loop). */
  sha256: string;
  validatorVersion: string;
  errors: number;
  warnings: number;
  /** The first warnings (up to 10). */
  warningIssues: ValidationIssue[];
}

export interface ValidationOptions {
  /** Give up (and refuse the file) after this long (default 10 s). */
  timeoutMs?: number;
  /** Heap of the validator's worker in MiB (default 512). */
  maxHeapMiB?: number;
  /** The file's compressed buffer views, as the pre-check found them: decoded before validating. */
  meshopt?: readonly MeshoptView[];
}

interface WorkerReply {
  ok: boolean;
  error?: string;
  /** Set when a compressed stream did not decode. */
  undecodable?: boolean;
  sha256?: string;
  validatorVersion?: string;
  errors?: number;
  warnings?: number;
  errorIssues?: ValidationIssue[];
  warningIssues?: ValidationIssue[];
}

// The worker runs as a CommonJS script: it loads the validator from the path resolved here (the
// same copy in source and built form), validates, and reports counts and the first issues.
// With meshopt views it first decodes them into one new BIN chunk (view indices kept, so the
// validator's pointers name the file's own views) and drops the extension from the JSON.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const validator = require(workerData.validatorPath);
const sha256 = require('node:crypto').createHash('sha256').update(workerData.bytes).digest('hex');
const pick = (issue) => ({ code: issue.code, message: issue.message, ...(issue.pointer && { pointer: issue.pointer }) });
class Undecodable extends Error {}
async function unpack(bytes, compressed) {
  const { MeshoptDecoder } = await import(workerData.meshoptUrl);
  await MeshoptDecoder.ready;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const gltf = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 20, jsonLength).toString('utf8'));
  const binAt = 20 + jsonLength;
  const bin = binAt + 8 <= bytes.length ? bytes.subarray(binAt + 8, binAt + 8 + dv.getUint32(binAt, true)) : new Uint8Array(0);
  const byView = new Map(compressed.map((c) => [c.view, c]));
  const parts = [];
  let length = 0;
  gltf.bufferViews = (gltf.bufferViews || []).map((view, i) => {
    const c = byView.get(i);
    let data;
    if (c) {
      data = new Uint8Array(c.count * c.byteStride);
      try {
        MeshoptDecoder.decodeGltfBuffer(data, c.count, c.byteStride, bin.subarray(c.byteOffset, c.byteOffset + c.byteLength), c.mode, c.filter);
      } catch (error) {
        throw new Undecodable('bufferViews[' + i + '] does not decode (' + (error && error.message || error) + ')');
      }
    } else {
      const from = view.byteOffset || 0;
      data = bin.subarray(from, from + view.byteLength);
    }
    const at = Math.ceil(length / 4) * 4;
    parts.push([at, data]);
    length = at + data.length;
    const out = { ...view, buffer: 0, byteOffset: at };
    if (out.extensions) {
      const { EXT_meshopt_compression, ...rest } = out.extensions;
      if (Object.keys(rest).length > 0) out.extensions = rest;
      else delete out.extensions;
    }
    return out;
  });
  gltf.buffers = [{ byteLength: length }];
  const drop = (list) => (Array.isArray(list) ? list.filter((name) => name !== 'EXT_meshopt_compression') : list);
  gltf.extensionsUsed = drop(gltf.extensionsUsed);
  gltf.extensionsRequired = drop(gltf.extensionsRequired);
  if (gltf.extensionsRequired && gltf.extensionsRequired.length === 0) delete gltf.extensionsRequired;
  let json = Buffer.from(JSON.stringify(gltf), 'utf8');
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const binLength = Math.ceil(length / 4) * 4;
  const glb = new Uint8Array(12 + 8 + json.length + 8 + binLength);
  const out = new DataView(glb.buffer);
  out.setUint32(0, 0x46546c67, true);
  out.setUint32(4, 2, true);
  out.setUint32(8, glb.length, true);
  out.setUint32(12, json.length, true);
  out.setUint32(16, 0x4e4f534a, true);
  glb.set(json, 20);
  const binStart = 20 + json.length;
  out.setUint32(binStart, binLength, true);
  out.setUint32(binStart + 4, 0x004e4942, true);
  for (const [at, data] of parts) glb.set(data, binStart + 8 + at);
  return glb;
}
(workerData.meshopt.length > 0 ? unpack(workerData.bytes, workerData.meshopt) : Promise.resolve(workerData.bytes))
  .then((bytes) => validator.validateBytes(bytes, {
    format: 'glb',
    maxIssues: 100,
    writeTimestamp: false,
    // Nothing outside the file is ever read.
    externalResourceFunction: () => Promise.reject(new Error('external resources are not allowed')),
  }))
  .then((report) => {
    const messages = report.issues.messages || [];
    parentPort.postMessage({
      ok: true,
      sha256,
      validatorVersion: report.validatorVersion,
      errors: report.issues.numErrors,
      warnings: report.issues.numWarnings,
      errorIssues: messages.filter((m) => m.severity === 0).slice(0, 10).map(pick),
      warningIssues: messages.filter((m) => m.severity === 1).slice(0, 10).map(pick),
    });
  })
  .catch((error) => parentPort.postMessage({ ok: false, undecodable: error instanceof Undecodable, error: String(error && error.message || error) }));
`;

const require = createRequire(import.meta.url);
const validatorPath = require.resolve('gltf-validator');
const meshoptUrl = pathToFileURL(require.resolve('meshoptimizer/decoder')).href;

/**
 * Validates `bytes`; resolves with the summary when the validator found no errors, rejects with an
 * AvatarError (`validationFailed` naming the first errors, or `validationTimeout`) otherwise.
 */
export async function validateGltf(
  bytes: Uint8Array,
  options: ValidationOptions = {},
): Promise<ValidationSummary> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A copy, moved to the worker: the caller keeps its bytes to store them.
  const copy = new Uint8Array(bytes);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { validatorPath, meshoptUrl, bytes: copy, meshopt: options.meshopt ?? [] },
    transferList: [copy.buffer],
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMiB ?? 512 },
    stdout: true,
    stderr: true,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<WorkerReply>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            fileProblem(
              'validationTimeout',
              `Validating the file took longer than ${timeoutMs / 1000} s; this service refuses it. Simplify the avatar (fewer meshes, smaller textures) and upload again.`,
            ),
          ),
        timeoutMs,
      );
      worker.once('message', resolve);
      worker.once('error', (error) =>
        reject(
          fileProblem(
            'validationFailed',
            `The glTF validator could not process the file (${error.message}). Re-export the avatar and upload again.`,
          ),
        ),
      );
      worker.once('exit', (code) =>
        reject(
          fileProblem(
            'validationFailed',
            `The glTF validator stopped (exit ${code}). Re-export the avatar and upload again.`,
          ),
        ),
      );
    });
    if (!reply.ok && reply.undecodable) {
      throw fileProblem(
        'compressionMalformed',
        `The file's meshopt-compressed data is corrupt: ${reply.error}. Re-export the avatar (glTF-Transform or gltfpack) and upload again.`,
      );
    }
    if (!reply.ok) {
      throw fileProblem(
        'validationFailed',
        `The glTF validator refused the file: ${reply.error}. Upload a binary glTF 2.0 (.glb) or VRM file.`,
      );
    }
    if ((reply.errors ?? 0) > 0) {
      const listed = (reply.errorIssues ?? [])
        .slice(0, 5)
        .map((i) => `${i.code}${i.pointer ? ` at ${i.pointer}` : ''}: ${i.message.replace(/\.$/, '')}`)
        .join('; ');
      throw fileProblem(
        'validationFailed',
        `The glTF validator found ${reply.errors} error(s): ${listed}. Fix them (the Khronos glTF Validator lists them all) and upload again.`,
      );
    }
    return {
      sha256: reply.sha256!,
      validatorVersion: reply.validatorVersion ?? 'unknown',
      errors: 0,
      warnings: reply.warnings ?? 0,
      warningIssues: reply.warningIssues ?? [],
    };
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
