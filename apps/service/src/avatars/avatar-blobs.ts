/**
 * Where uploaded avatar files live: content-addressed by SHA-256, written once, never changed.
 * An interface so that another backend (an S3-compatible bucket) can replace the disk; the disk
 * store needs a directory every node of a region can read (one machine, or a shared volume).
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** An inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface AvatarBlobStore {
  /** For logs and /readyz: `disk:<dir>`. */
  readonly description: string;
  /** Stores `bytes` under `sha256` (its hex SHA-256); a no-op when already there. */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** True when the blob exists. */
  has(sha256: string): Promise<boolean>;
  /** Streams the blob (or a range of it). Rejects with code ENOENT when it does not exist. */
  open(sha256: string, range?: ByteRange): Promise<Readable>;
  /** Deletes the blob (no error when it is already gone). */
  delete(sha256: string): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Blobs as files `<dir>/<first two hex digits>/<sha256>`, written to a temp name and renamed. */
export class DiskAvatarBlobStore implements AvatarBlobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  get description(): string {
    return `disk:${this.dir}`;
  }

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(sha256);
    if (await this.has(sha256)) return;
    await mkdir(join(this.dir, sha256.slice(0, 2)), { recursive: true });
    // Rename is atomic: a reader (another node) sees the whole file or none.
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, bytes, { mode: 0o644 });
      await rename(temp, path);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.#path(sha256))).isFile();
    } catch {
      return false;
    }
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable> {
    const path = this.#path(sha256);
    // Fail before the response starts when the file is gone (createReadStream would fail later).
    await stat(path);
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async delete(sha256: string): Promise<void> {
    await unlink(this.#path(sha256)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  #path(sha256: string): string {
    // The hash names the file: only 64 hex digits, so it can never name another path.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256.slice(0, 80)}`);
    return join(this.dir, sha256.slice(0, 2), sha256);
  }
}
