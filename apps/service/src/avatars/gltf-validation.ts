/**
 * Runs the Khronos glTF validator (npm `gltf-validator`) on a file in a worker thread with a time
 * and memory bound, so a file built to make it slow or greedy costs one worker, never the event
 * loop that serves sessions. Errors refuse the file, summarised in the message; warnings are kept.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { fileProblem } from './file-problem.js';

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
}

interface WorkerReply {
  ok: boolean;
  error?: string;
  sha256?: string;
  validatorVersion?: string;
  errors?: number;
  warnings?: number;
  errorIssues?: ValidationIssue[];
  warningIssues?: ValidationIssue[];
}

// The worker runs as a CommonJS script: it loads the validator from the path resolved here (the
// same copy in source and built form), validates, and reports counts and the first issues.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const validator = require(workerData.validatorPath);
const sha256 = require('node:crypto').createHash('sha256').update(workerData.bytes).digest('hex');
const pick = (issue) => ({ code: issue.code, message: issue.message, ...(issue.pointer && { pointer: issue.pointer }) });
validator
  .validateBytes(workerData.bytes, {
    format: 'glb',
    maxIssues: 100,
    writeTimestamp: false,
    // Nothing outside the file is ever read.
    externalResourceFunction: () => Promise.reject(new Error('external resources are not allowed')),
  })
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
  .catch((error) => parentPort.postMessage({ ok: false, error: String(error && error.message || error) }));
`;

const validatorPath = createRequire(import.meta.url).resolve('gltf-validator');

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
    workerData: { validatorPath, bytes: copy },
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
