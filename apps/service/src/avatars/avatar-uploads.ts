/**
 * Taking an app's own avatar file in and out: structural pre-check (cheap, on the event loop),
 * coverage, the Khronos validator and hashing (in a bounded worker), then the file into the blob
 * store and its record into the shared store. At most `maxConcurrent` files are validated at once;
 * more are refused (429, retry) instead of queued, so uploads cannot pile up memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type AvatarCoverage,
  AvatarError,
  type LamArchive,
  looksLikeZip,
  readLamArchive,
} from '@avatar-drive/core';
import type { Logger } from 'pino';
import type { UploadedAvatarRecord } from '../store/avatar-records.js';
import type { AvatarBlobStore } from './avatar-blobs.js';
import type { AvatarDirectory } from './avatar-directory.js';
import { drivableCoverage, summariseCoverage } from './drivable.js';
import { fileProblem } from './file-problem.js';
import { type PrecheckResult, precheckGlb } from './glb-precheck.js';
import { type ValidationSummary, validateGltf } from './gltf-validation.js';

/** Bounds of uploads (flags and env in config.ts). */
export interface AvatarUploadLimits {
  /** Largest file accepted (default 32 MiB). */
  maxBytes: number;
  /** Most uploaded avatars per app in a region (default 20). */
  maxPerApp: number;
  /** Longest the validator may take on one file (default 15 s). */
  validationTimeoutMs: number;
  /** Files validated at once on this node (default 2). */
  maxConcurrent: number;
}

export const DEFAULT_AVATAR_UPLOAD_LIMITS: AvatarUploadLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxPerApp: 20,
  validationTimeoutMs: 15_000,
  maxConcurrent: 2,
};

/** An accepted upload: the record, the full coverage report and the validator's summary. */
export interface UploadResult {
  record: UploadedAvatarRecord;
  coverage: AvatarCoverage;
  validation: ValidationSummary;
}

export class AvatarUploads {
  readonly limits: AvatarUploadLimits;
  readonly #directory: AvatarDirectory;
  readonly #logger: Logger;
  #active = 0;

  constructor(directory: AvatarDirectory, limits: AvatarUploadLimits, logger: Logger) {
    this.#directory = directory;
    this.limits = limits;
    this.#logger = logger;
  }

  /**
   * Checks, stores and records `bytes` — a GLB/VRM, or a LAM avatar zip (its archive, Gaussians and
   * vertex order checked, then its skin.glb like any GLB) — as a new avatar of `appId`. Throws
   * AvatarError on refusal.
   */
  async upload(appId: string, bytes: Uint8Array, name: string | undefined): Promise<UploadResult> {
    let lam: LamArchive | undefined;
    let checked: PrecheckResult | undefined;
    let coverage: AvatarCoverage | undefined;
    if (!looksLikeZip(bytes)) {
      // Cheap structural checks first, outside the slots: a broken file is refused at once.
      checked = precheckGlb(bytes, { maxBytes: this.limits.maxBytes });
      coverage = drivableCoverage(checked);
    } else if (bytes.byteLength > this.limits.maxBytes) {
      throw fileProblem(
        'tooLarge',
        `The zip is ${bytes.byteLength} bytes; this service accepts avatars up to ${this.limits.maxBytes} bytes.`,
      );
    }
    // A zip is read inside a validation slot: inflating it costs CPU, bounded by maxConcurrent.
    const release = this.#acquire();
    let validation: ValidationSummary;
    try {
      if (!checked) {
        lam = readLamArchive(bytes, { maxUncompressedBytes: this.limits.maxBytes * 4 });
        checked = precheckGlb(lam.skin, { maxBytes: this.limits.maxBytes });
        coverage = drivableCoverage(checked);
      }
      validation = await validateGltf(lam ? lam.skin : bytes, {
        timeoutMs: this.limits.validationTimeoutMs,
        meshopt: checked.meshopt,
      });
    } finally {
      release();
    }
    const report = coverage as AvatarCoverage; // set on both paths above
    // A LAM avatar is stored (and hashed) as the whole zip.
    if (lam) validation = { ...validation, sha256: createHash('sha256').update(bytes).digest('hex') };
    const record: UploadedAvatarRecord = {
      appId,
      id: `av_${randomBytes(9).toString('base64url')}`,
      name: name ?? vrmName(checked.gltf) ?? (lam ? 'Uploaded splat avatar' : 'Uploaded avatar'),
      sha256: validation.sha256,
      size: bytes.byteLength,
      format: lam ? 'lam' : checked.format,
      ...(checked.vrmVersion !== undefined && !lam && { vrmVersion: checked.vrmVersion }),
      ...(lam && { splats: lam.splats.count }),
      coverage: summariseCoverage(report),
      validation: { validatorVersion: validation.validatorVersion, warnings: validation.warnings },
      createdAt: new Date().toISOString(),
    };
    return this.#keep(record, bytes, report, validation);
  }

  /** Takes one of the `maxConcurrent` validation slots (429 when none is free); call the result to give it back. */
  #acquire(): () => void {
    if (this.#active >= this.limits.maxConcurrent) {
      throw new AvatarError(
        'concurrencyLimit',
        `This node is validating ${this.#active} avatar files already. Retry in a second.`,
        { httpStatus: 429, details: { headers: { 'retry-after': '1' } } },
      );
    }
    this.#active++;
    let released = false;
    return () => {
      if (!released) this.#active--;
      released = true;
    };
  }

  async #keep(
    record: UploadedAvatarRecord,
    bytes: Uint8Array,
    coverage: AvatarCoverage,
    validation: ValidationSummary,
  ): Promise<UploadResult> {
    const { records, blobs } = this.#directory;
    const appId = record.appId;
    await storeFile(blobs, record.sha256, bytes);
    if (!(await records.add(record, this.limits.maxPerApp))) {
      if (!(await records.blobInUse(record.sha256))) await blobs.delete(record.sha256);
      throw new AvatarError(
        'invalidRequest',
        `This app already has ${this.limits.maxPerApp} uploaded avatars. Delete one (DELETE /v1/console/avatars/<id>) and upload again.`,
        { httpStatus: 409 },
      );
    }
    // A delete of another avatar with the same file may have removed the blob between put and
    // add (it saw no user yet): put it back. Puts of existing blobs are no-ops.
    await storeFile(blobs, record.sha256, bytes);
    this.#logger.info(
      { appId, avatarId: record.id, sha256: record.sha256, size: record.size, format: record.format },
      'avatar uploaded',
    );
    return { record, coverage, validation };
  }

  /** Deletes an uploaded avatar of `appId` (and its file when no other avatar uses it). */
  async remove(appId: string, id: string): Promise<'removed' | 'builtin' | 'missing'> {
    if (this.#directory.builtIns.get(id)) return 'builtin';
    const removed = await this.#directory.records.remove(appId, id);
    if (!removed) return 'missing';
    if (!removed.blobInUse) await this.#directory.blobs.delete(removed.record.sha256);
    this.#logger.info({ appId, avatarId: id }, 'avatar deleted');
    return 'removed';
  }
}

/** Writes the file; a store that cannot be written is a 503 naming the cause (not the path). */
async function storeFile(blobs: AvatarBlobStore, sha256: string, bytes: Uint8Array): Promise<void> {
  try {
    await blobs.put(sha256, bytes);
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? 'write failed';
    throw new AvatarError(
      'upstreamError',
      `The avatar store cannot be written (${cause}); the upload was not kept. Retry later; the operator points AVATAR_DRIVE_DATA_DIR at a writable volume.`,
      { httpStatus: 503, details: { headers: { 'retry-after': '5' } } },
    );
  }
}

/** The avatar's own name from its VRM metadata, when it has one. */
function vrmName(gltf: Record<string, unknown>): string | undefined {
  const extensions = gltf.extensions as Record<string, { meta?: Record<string, unknown> }> | undefined;
  const name = extensions?.VRMC_vrm?.meta?.name ?? extensions?.VRM?.meta?.title;
  return typeof name === 'string' && name.trim() ? cleanName(name) : undefined;
}

/** A display name: no control characters, at most 100 characters. */
export function cleanName(text: string): string {
  return text
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, 100);
}
