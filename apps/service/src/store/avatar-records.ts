/**
 * The metadata of uploaded avatars, per app, kept where every node of a region finds it: in Redis
 * with the rest of the shared store, or (without Redis) in a directory shared by the region's
 * processes on one machine. The files themselves live in an {@link AvatarBlobStore}.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreUnavailableError } from './shared-store.js';

/** One uploaded avatar. */
export interface UploadedAvatarRecord {
  appId: string;
  id: string;
  name: string;
  /** Hex SHA-256 of the file: its name in the blob store and its strong ETag. */
  sha256: string;
  size: number;
  /** `lam`: a LAM Gaussian-splat avatar zip (skin.glb, offset.ply, …). */
  format: 'glb' | 'vrm' | 'lam';
  /** VRM major version (0 or 1) for `vrm`. */
  vrmVersion?: 0 | 1;
  /** Which drive channels the avatar binds and how the missing ones fall back (JSON). */
  coverage: unknown;
  /** What the Khronos validator said (no errors, or it would not be here). */
  validation: { validatorVersion: string; warnings: number };
  /** `lam`: Gaussians (one per vertex of skin.glb's mesh). */
  splats?: number;
  /** ISO 8601. */
  createdAt: string;
}

export interface AvatarRecords {
  /** The app's uploaded avatars, oldest first. */
  list(appId: string): Promise<UploadedAvatarRecord[]>;
  get(appId: string, id: string): Promise<UploadedAvatarRecord | undefined>;
  /** Adds `record` unless its app already has `maxPerApp` avatars (then false). */
  add(record: UploadedAvatarRecord, maxPerApp: number): Promise<boolean>;
  /**
   * Removes one avatar; says whether any avatar (of any app) still uses its file, so the caller
   * knows whether the blob may go. Undefined when there was no such avatar.
   */
  remove(
    appId: string,
    id: string,
  ): Promise<{ record: UploadedAvatarRecord; blobInUse: boolean } | undefined>;
  /** Whether any avatar of any app uses the file `sha256`. */
  blobInUse(sha256: string): Promise<boolean>;
}

const byCreation = (a: UploadedAvatarRecord, b: UploadedAvatarRecord) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** In this process only (tests, embedding without a data directory). */
export class MemoryAvatarRecords implements AvatarRecords {
  readonly #apps = new Map<string, Map<string, UploadedAvatarRecord>>();

  async list(appId: string): Promise<UploadedAvatarRecord[]> {
    return [...(this.#apps.get(appId)?.values() ?? [])].sort(byCreation);
  }

  async get(appId: string, id: string): Promise<UploadedAvatarRecord | undefined> {
    return this.#apps.get(appId)?.get(id);
  }

  async add(record: UploadedAvatarRecord, maxPerApp: number): Promise<boolean> {
    let app = this.#apps.get(record.appId);
    if (!app) {
      app = new Map();
      this.#apps.set(record.appId, app);
    }
    if (app.size >= maxPerApp) return false;
    app.set(record.id, record);
    return true;
  }

  async remove(appId: string, id: string) {
    const record = this.#apps.get(appId)?.get(id);
    if (!record) return undefined;
    this.#apps.get(appId)!.delete(id);
    return { record, blobInUse: await this.blobInUse(record.sha256) };
  }

  async blobInUse(sha256: string): Promise<boolean> {
    for (const app of this.#apps.values()) for (const r of app.values()) if (r.sha256 === sha256) return true;
    return false;
  }
}

/**
 * One JSON file per avatar, `<dir>/<app>/<id>.json`, in a directory shared by the region's
 * processes on this machine (the embedded default's way to share state without Redis).
 */
export class DirectoryAvatarRecords implements AvatarRecords {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async list(appId: string): Promise<UploadedAvatarRecord[]> {
    const appDir = join(this.dir, fileSafe(appId));
    let names: string[];
    try {
      names = await readdir(appDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw this.#unavailable(error);
    }
    const records: UploadedAvatarRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const record = await this.#read(join(appDir, name));
      if (record) records.push(record);
    }
    return records.sort(byCreation);
  }

  async get(appId: string, id: string): Promise<UploadedAvatarRecord | undefined> {
    return this.#read(this.#path(appId, id));
  }

  async add(record: UploadedAvatarRecord, maxPerApp: number): Promise<boolean> {
    // Two processes adding at once may both pass the count; the limit is a guard, not a quota.
    if ((await this.list(record.appId)).length >= maxPerApp) return false;
    try {
      await mkdir(join(this.dir, fileSafe(record.appId)), { recursive: true, mode: 0o700 });
      await writeFile(this.#path(record.appId, record.id), JSON.stringify(record), {
        flag: 'wx',
        mode: 0o600,
      });
    } catch (error) {
      throw this.#unavailable(error);
    }
    return true;
  }

  async remove(appId: string, id: string) {
    const path = this.#path(appId, id);
    const record = await this.#read(path);
    if (!record) return undefined;
    try {
      await unlink(path);
    } catch (error) {
      // Another process removed it first: it answers for the blob.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.#unavailable(error);
    }
    return { record, blobInUse: await this.blobInUse(record.sha256) };
  }

  async blobInUse(sha256: string): Promise<boolean> {
    let apps: string[];
    try {
      apps = await readdir(this.dir);
    } catch {
      return false;
    }
    for (const app of apps) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, app));
      } catch {
        continue;
      }
      for (const name of names) {
        if ((await this.#read(join(this.dir, app, name)))?.sha256 === sha256) return true;
      }
    }
    return false;
  }

  #path(appId: string, id: string): string {
    return join(this.dir, fileSafe(appId), `${fileSafe(id)}.json`);
  }

  async #read(path: string): Promise<UploadedAvatarRecord | undefined> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as UploadedAvatarRecord;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (error instanceof SyntaxError) return undefined; // being written by another process
      throw this.#unavailable(error);
    }
  }

  #unavailable(error: unknown): StoreUnavailableError {
    return new StoreUnavailableError(
      `The avatar records at ${this.dir} cannot be used (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
}

/** App and avatar ids are short and safe; anything else is hashed so it can never name another path. */
function fileSafe(text: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(text) && !text.includes('..')
    ? text
    : createHash('sha256').update(text).digest('hex');
}

/** Runs a command on the store's Redis connection, mapping failures to StoreUnavailableError. */
export type RedisRunner = <T>(command: (redis: import('ioredis').Redis) => Promise<T>) => Promise<T>;

// KEYS: app hash, blob set. ARGV: id, record JSON, max per app, blob member.
const ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[4])
return 1`;

// KEYS: app hash. ARGV: id, blob key prefix, member. Returns {record, members left} or nil.
const REMOVE = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return nil end
redis.call('HDEL', KEYS[1], ARGV[1])
local blob = ARGV[2] .. cjson.decode(v)['sha256']
redis.call('SREM', blob, ARGV[3])
return {v, redis.call('SCARD', blob)}`;

/** In Redis: a hash per app (`avatars:<app>`: id → JSON) and a set per file of who uses it. */
export class RedisAvatarRecords implements AvatarRecords {
  readonly #run: RedisRunner;
  readonly #prefix: string;

  constructor(run: RedisRunner, keyPrefix: string) {
    this.#run = run;
    this.#prefix = keyPrefix;
  }

  async list(appId: string): Promise<UploadedAvatarRecord[]> {
    const all = await this.#run((r) => r.hvals(this.#appKey(appId)));
    return all.map((v) => JSON.parse(v) as UploadedAvatarRecord).sort(byCreation);
  }

  async get(appId: string, id: string): Promise<UploadedAvatarRecord | undefined> {
    const v = await this.#run((r) => r.hget(this.#appKey(appId), id));
    return v ? (JSON.parse(v) as UploadedAvatarRecord) : undefined;
  }

  async add(record: UploadedAvatarRecord, maxPerApp: number): Promise<boolean> {
    const ok = await this.#run((r) =>
      r.eval(
        ADD,
        2,
        this.#appKey(record.appId),
        this.#blobKey(record.sha256),
        record.id,
        JSON.stringify(record),
        maxPerApp,
        member(record.appId, record.id),
      ),
    );
    return Number(ok) === 1;
  }

  async remove(appId: string, id: string) {
    const reply = (await this.#run((r) =>
      r.eval(REMOVE, 1, this.#appKey(appId), id, `${this.#prefix}avatar-blob:`, member(appId, id)),
    )) as [string, number] | null;
    if (!reply) return undefined;
    return { record: JSON.parse(reply[0]) as UploadedAvatarRecord, blobInUse: Number(reply[1]) > 0 };
  }

  async blobInUse(sha256: string): Promise<boolean> {
    return Number(await this.#run((r) => r.scard(this.#blobKey(sha256)))) > 0;
  }

  #appKey(appId: string): string {
    return `${this.#prefix}avatars:${appId}`;
  }

  #blobKey(sha256: string): string {
    return `${this.#prefix}avatar-blob:${sha256}`;
  }
}

function member(appId: string, id: string): string {
  return `${appId}\n${id}`;
}
