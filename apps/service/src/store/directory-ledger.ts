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
import { mkdir, open, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreUnavailableError, TOKEN_USE_POLICIES, type TokenUsePolicy } from './shared-store.js';

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

  /**
   * Sequential use: takes `jti` for `sessionId` of this process. The entry then names its holder
   * (`<pid> <sessionId>`); an empty entry is a spent single-use token. A holder process that is
   * gone (crashed without releasing) no longer holds it.
   */
  async claim(jti: string, expiresAtMs: number, sessionId: string): Promise<boolean> {
    await this.#ensureDir();
    const path = join(this.dir, `${Math.ceil(expiresAtMs / 1000)}-${fileSafe(jti)}`);
    const holder = `${process.pid} ${sessionId}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const file = await open(path, 'wx', 0o600);
        await file.write(holder);
        await file.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw ledgerError(this.dir, error);
      }
      const current = await readFile(path, 'utf8').catch(() => undefined);
      if (current === undefined) continue; // released meanwhile: try again
      const pid = Number(current.split(' ')[0]);
      if (!current || !Number.isInteger(pid) || processAlive(pid)) return false;
      // The holder's process died: move its entry away (one process wins the rename), then retry.
      const stale = `${path}.stale-${process.pid}`;
      if (
        !(await rename(path, stale).then(
          () => true,
          () => false,
        ))
      )
        return false;
      await unlink(stale).catch(() => undefined);
    }
    return false;
  }

  /** Frees `jti` if this process's `sessionId` holds it. */
  async release(jti: string, sessionId: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    const suffix = `-${fileSafe(jti)}`;
    for (const name of names) {
      if (!name.endsWith(suffix)) continue;
      const path = join(this.dir, name);
      const current = await readFile(path, 'utf8').catch(() => '');
      if (current === `${process.pid} ${sessionId}`) await unlink(path).catch(() => undefined);
    }
  }

  /** The app's token-use policy as kept here; `single` when none was set. */
  async readPolicy(appId: string): Promise<TokenUsePolicy> {
    const text = await readFile(join(this.dir, `policy-${fileSafe(appId)}`), 'utf8').catch(() => '');
    return TOKEN_USE_POLICIES.includes(text as TokenUsePolicy) ? (text as TokenUsePolicy) : 'single';
  }

  /** Sets the app's token-use policy for every process sharing the directory. */
  async writePolicy(appId: string, policy: TokenUsePolicy): Promise<void> {
    await this.#ensureDir();
    const path = join(this.dir, `policy-${fileSafe(appId)}`);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(temp, policy, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      throw ledgerError(this.dir, error);
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
function ledgerError(dir: string, error: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `The token ledger at ${dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
  );
}

/** True while process `pid` exists on this machine (EPERM: it exists, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function fileSafe(jti: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(jti) ? jti : createHash('sha256').update(jti).digest('hex');
}
