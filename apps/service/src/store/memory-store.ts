/**
 * The single-node shared store: plain maps, pruned as entries expire. With a token ledger
 * directory, single use is kept there instead, so every process on the machine sharing that
 * directory (both regions of the embedded default) honours it; limits and session counts stay per
 * process.
 */
import { type AvatarRecords, DirectoryAvatarRecords, MemoryAvatarRecords } from './avatar-records.js';
import { DirectoryLedger } from './directory-ledger.js';
import type { RateLimitResult, SharedStore, TokenUsePolicy } from './shared-store.js';

export interface MemoryStoreOptions {
  /** Keep the single-use ledger in this directory (see {@link DirectoryLedger}). */
  tokenLedgerDir?: string;
  /** Keep uploaded avatars' metadata in this directory (shared like the ledger); else in memory. */
  avatarRecordsDir?: string;
}

export class MemoryStore implements SharedStore {
  readonly kind = 'memory';
  /** The shared single-use ledger, when there is one. */
  readonly ledger: DirectoryLedger | undefined;
  /** Uploaded avatars' metadata. */
  readonly avatars: AvatarRecords;
  readonly #usedTokens = new Map<string, number>();
  /**
   * Sequential tokens: the session holding each, null once given back (the token's entry in
   * #usedTokens keeps its expiry; a used token without an entry here was spent single-use).
   */
  readonly #holders = new Map<string, { appId: string; sessionId: string } | null>();
  readonly #policies = new Map<string, TokenUsePolicy>();
  readonly #sessions = new Map<string, Set<string>>();
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  #lastPrune = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.ledger = options.tokenLedgerDir ? new DirectoryLedger(options.tokenLedgerDir) : undefined;
    this.avatars = options.avatarRecordsDir
      ? new DirectoryAvatarRecords(options.avatarRecordsDir)
      : new MemoryAvatarRecords();
  }

  async consumeToken(jti: string, expiresAtMs: number): Promise<boolean> {
    if (this.ledger) return this.ledger.consume(jti, expiresAtMs);
    this.#prune();
    if (this.#usedTokens.has(jti)) return false;
    this.#usedTokens.set(jti, expiresAtMs);
    return true;
  }

  async claimToken(jti: string, expiresAtMs: number, appId: string, sessionId: string): Promise<boolean> {
    if (this.ledger) return this.ledger.claim(jti, expiresAtMs, sessionId);
    this.#prune();
    if (this.#usedTokens.has(jti) && !this.#holders.has(jti)) return false; // spent single-use
    const holder = this.#holders.get(jti);
    // A holder whose session is gone (closed without release) no longer counts.
    if (holder && this.#sessions.get(holder.appId)?.has(holder.sessionId)) return false;
    this.#usedTokens.set(jti, expiresAtMs);
    this.#holders.set(jti, { appId, sessionId });
    return true;
  }

  async releaseToken(jti: string, sessionId: string): Promise<void> {
    if (this.ledger) return this.ledger.release(jti, sessionId);
    if (this.#holders.get(jti)?.sessionId === sessionId) this.#holders.set(jti, null);
  }

  async tokenPolicy(appId: string): Promise<TokenUsePolicy> {
    if (this.ledger) return this.ledger.readPolicy(appId);
    return this.#policies.get(appId) ?? 'single';
  }

  async setTokenPolicy(appId: string, policy: TokenUsePolicy): Promise<void> {
    if (this.ledger) return this.ledger.writePolicy(appId, policy);
    this.#policies.set(appId, policy);
  }

  async acquireSession(appId: string, sessionId: string, limit: number): Promise<boolean> {
    let set = this.#sessions.get(appId);
    if (!set) {
      set = new Set();
      this.#sessions.set(appId, set);
    }
    if (set.has(sessionId)) return true;
    if (set.size >= limit) return false;
    set.add(sessionId);
    return true;
  }

  async releaseSession(appId: string, sessionId: string): Promise<void> {
    const set = this.#sessions.get(appId);
    set?.delete(sessionId);
    if (set?.size === 0) this.#sessions.delete(appId);
  }

  async sessionCount(appId: string): Promise<number> {
    return this.#sessions.get(appId)?.size ?? 0;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= limit, count: window.count, retryAfterMs: window.resetAt - now };
  }

  async ping(): Promise<void> {
    await this.ledger?.check();
  }

  async close(): Promise<void> {
    this.ledger?.close();
  }

  #prune(): void {
    const now = Date.now();
    if (now - this.#lastPrune < 10_000) return;
    this.#lastPrune = now;
    for (const [jti, expiresAt] of this.#usedTokens) {
      if (expiresAt > now) continue;
      this.#usedTokens.delete(jti);
      this.#holders.delete(jti);
    }
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
