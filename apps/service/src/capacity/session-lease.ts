/**
 * What an ingress session holds in the shared store while it is open: its concurrency slot (per
 * app, counted across nodes) and, under the sequential token policy, its session token. Taken
 * before the upgrade, handed over to the session, and given back exactly once, by whichever path
 * ends first (a refusal, ws declining the upgrade, or the session closing).
 */
import type { SharedStore } from '../store/shared-store.js';

export class SessionLease {
  readonly #store: SharedStore;
  readonly #appId: string;
  readonly #connectionId: string;
  #slot = false;
  #token: string | undefined;
  #released = false;

  constructor(store: SharedStore, appId: string, connectionId: string) {
    this.#store = store;
    this.#appId = appId;
    this.#connectionId = connectionId;
  }

  /** True while the lease holds a slot. */
  get hasSlot(): boolean {
    return this.#slot && !this.#released;
  }

  /** True once {@link release} ran. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Takes a slot if fewer than `limit` sessions of the app are open.
   * @throws StoreUnavailableError when the store cannot be reached.
   */
  async takeSlot(limit: number): Promise<boolean> {
    this.#slot = await this.#store.acquireSession(this.#appId, this.#connectionId, limit);
    return this.#slot;
  }

  /** Holds a sequential-policy token until {@link release}, so that it can open a session again. */
  holdToken(jti: string): void {
    this.#token = jti;
  }

  /** Gives the slot back now (the session was refused after taking it). */
  dropSlot(): void {
    if (this.#slot) this.#releaseSlot();
    this.#slot = false;
  }

  /**
   * Gives back what the lease holds, once; later calls do nothing. The store is not waited for,
   * and a failed give-back is ignored (the session is over either way).
   */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#slot) this.#releaseSlot();
    if (this.#token) void this.#store.releaseToken(this.#token, this.#connectionId).catch(() => undefined);
  }

  #releaseSlot(): void {
    void this.#store.releaseSession(this.#appId, this.#connectionId).catch(() => undefined);
  }
}
