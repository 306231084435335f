/**
 * Every avatar an app may use: the built-ins of the avatars directory (shared by all apps) and the
 * app's own uploads (seen by that app only). Built-ins win an id clash, so an upload can never
 * stand in for a built-in another app relies on.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { RIG_ID } from '@avatar-drive/core';
import type { AvatarRecords, UploadedAvatarRecord } from '../store/avatar-records.js';
import { StoreUnavailableError } from '../store/shared-store.js';
import type { AvatarBlobStore, ByteRange } from './avatar-blobs.js';
import type { Avatar, AvatarCatalog } from './avatar-catalog.js';

/** An avatar as the routes serve it, wherever it came from. */
export interface AvatarView {
  id: string;
  name: string;
  rig: typeof RIG_ID;
  /** `builtin` (the avatars directory, every app) or `app` (uploaded by this app). */
  owner: 'builtin' | 'app';
  format: 'glb' | 'vrm' | 'lam';
  morphTargets?: { arkit: number; visemes: number };
  /** Summary of the coverage report. */
  coverage: unknown;
  model: {
    name: string;
    contentType: string;
    sha256: string;
    size: number;
    open(range?: ByteRange): Promise<Readable>;
  };
  /** Uploads: the stored record (coverage, validation, createdAt). */
  upload?: UploadedAvatarRecord;
  /** Built-ins: manifest.json fields other than the above. */
  extra?: Record<string, unknown>;
}

export class AvatarDirectory {
  readonly builtIns: AvatarCatalog;
  readonly records: AvatarRecords;
  readonly blobs: AvatarBlobStore;

  constructor(builtIns: AvatarCatalog, records: AvatarRecords, blobs: AvatarBlobStore) {
    this.builtIns = builtIns;
    this.records = records;
    this.blobs = blobs;
  }

  /** The avatar `id` as `appId` sees it. Rejects with StoreUnavailableError when the store is down. */
  async resolve(appId: string, id: string): Promise<AvatarView | undefined> {
    const builtIn = this.builtIns.get(id);
    if (builtIn) return builtInView(builtIn);
    const record = await this.records.get(appId, id);
    return record ? this.uploadView(record) : undefined;
  }

  /** Built-ins, then the app's uploads (oldest first). */
  async list(appId: string): Promise<AvatarView[]> {
    const uploads = await this.records.list(appId);
    return [
      ...this.builtIns.list().map(builtInView),
      ...uploads.filter((r) => !this.builtIns.get(r.id)).map((r) => this.uploadView(r)),
    ];
  }

  /**
   * Whether `appId` may open a session with avatar `id`; `unavailable` when the shared store cannot
   * say (the caller refuses with 503, retryable).
   */
  async has(appId: string, id: string): Promise<boolean | 'unavailable'> {
    if (this.builtIns.get(id)) return true;
    try {
      return (await this.records.get(appId, id)) !== undefined;
    } catch (error) {
      if (error instanceof StoreUnavailableError) return 'unavailable';
      throw error;
    }
  }

  uploadView(record: UploadedAvatarRecord): AvatarView {
    const { blobs } = this;
    return {
      id: record.id,
      name: record.name,
      rig: RIG_ID,
      owner: 'app',
      format: record.format,
      coverage: record.coverage,
      model: {
        name: record.format === 'lam' ? 'avatar.zip' : `avatar.${record.format}`,
        contentType: record.format === 'lam' ? 'application/zip' : 'model/gltf-binary',
        sha256: record.sha256,
        size: record.size,
        open: (range) => blobs.open(record.sha256, range),
      },
      upload: record,
    };
  }
}

function builtInView(avatar: Avatar): AvatarView {
  return {
    id: avatar.id,
    name: avatar.name,
    rig: avatar.rig,
    owner: 'builtin',
    format: avatar.format,
    morphTargets: avatar.morphTargets,
    coverage: avatar.coverage,
    model: {
      name: avatar.model.name,
      contentType: avatar.model.contentType,
      sha256: avatar.model.sha256,
      size: avatar.model.size,
      open: async (range) =>
        createReadStream(avatar.model.path, range ? { start: range.start, end: range.end } : {}),
    },
    extra: avatar.extra,
  };
}
