/**
 * A single-use token ledger in a local directory, shared by every service process on this machine
 * that points at it: the embedded default's way to honour single use across the processes of one
 * region without Redis (each region of `pnpm start` has its own directory, so either can die and
 * the other keeps serving).
 *
 * A used token is a file named `<expiry seconds>-<token id>` (both fixed by the token's signature,
 * so every use of one token names the same file), created with O_EXCL: the file system lets exactly
 * one process create it, whichever asks first; every later use finds it there.
 * Files of expired tokens are deleted now and then (an expired token is refused before the ledger is
 * asked). The ledger also survives restarts, so a restart does not make used tokens usable again.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreUnavailableError } from './shared-store.js';

export interface DirectoryLedgerOptions {
  /** How often expired entries are deleted (default 60 s). */
  pruneIntervalMs?: number;
}

/** Entries are kept this long past their token's expiry (clock differences between processes). */
const GRACE_MS = 60_000;

export class DirectoryLedger {
  readonly dir: string;
  readonly #pruneTimer: NodeJS.Timeout;
  #ready: Promise<void> | undefined;

  constructor(dir: string, options: DirectoryLedgerOptions = {}) {
    this.dir = dir;
    this.#pruneTimer = setInterval(() => void this.prune(), options.pruneIntervalMs ?? 60_000);
    this.#pruneTimer.unref();
  }

  /** Records `jti` as used. True for the first use in any process sharing the directory. */
  async consume(jti: string, expiresAtMs: number, retried = false): Promise<boolean> {
    await this.#ensureDir();
    const name = `${Math.ceil(expiresAtMs / 1000)}-${fileSafe(jti)}`;
    try {
      const file = await open(join(this.dir, name), 'wx', 0o600);
      await file.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !retried) {
        // The directory was removed while we ran (e.g. a cleaned .avatar-drive/): make it again.
        this.#ready = undefined;
        return this.consume(jti, expiresAtMs, true);
      }
      throw new StoreUnavailableError(
        `The token ledger at ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      );
    }
  }

  /** Resolves when the directory is usable; rejects with StoreUnavailableError otherwise. */
  async check(): Promise<void> {
    await this.#ensureDir();
  }

  /** Deletes the entries of tokens that expired more than a minute ago. */
  async prune(now = Date.now()): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const expiresAt = Number(name.slice(0, name.indexOf('-'))) * 1000;
      if (!Number.isFinite(expiresAt) || expiresAt + GRACE_MS > now) continue;
      // Another process may prune the same entry at the same time.
      await unlink(join(this.dir, name)).catch(() => undefined);
    }
  }

  close(): void {
    clearInterval(this.#pruneTimer);
  }

  #ensureDir(): Promise<void> {
    this.#ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => {
        this.#ready = undefined;
        throw new StoreUnavailableError(
          `The token ledger directory ${this.dir} cannot be created (${error.code ?? error.message}).`,
        );
      },
    );
    return this.#ready;
  }
}

/** Token ids we mint are UUIDs; anything else is hashed so it can never name another path. */
function fileSafe(jti: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(jti) ? jti : createHash('sha256').update(jti).digest('hex');
}
