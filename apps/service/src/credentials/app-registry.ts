/** The apps this deployment knows: public app ids and the digests of their API keys. */
import { apiKeyMatches, parseApiKeyHash } from './api-keys.js';

/** One app as configured (config file, env, or the embedded dev credentials). */
export interface AppConfig {
  appId: string;
  name?: string;
  /** `sha256:<hex>` digests of the app's API keys (several allow rotation). */
  apiKeyHashes: string[];
  /** Overrides the deployment's per-app concurrent session limit. */
  maxConcurrentSessions?: number;
}

export interface AppRecord {
  readonly appId: string;
  readonly name: string;
  readonly maxConcurrentSessions?: number;
}

interface Entry {
  record: AppRecord;
  digests: Buffer[];
}

/** Looks apps up by id and by API key, without ever holding a key in clear. */
export class AppRegistry {
  readonly #byId = new Map<string, Entry>();

  constructor(apps: readonly AppConfig[]) {
    for (const app of apps) {
      if (!app.appId) throw new Error('Every configured app needs an appId.');
      if (this.#byId.has(app.appId)) throw new Error(`App ${app.appId} is configured twice.`);
      const record: AppRecord = {
        appId: app.appId,
        name: app.name ?? app.appId,
        ...(app.maxConcurrentSessions !== undefined && { maxConcurrentSessions: app.maxConcurrentSessions }),
      };
      this.#byId.set(app.appId, { record, digests: app.apiKeyHashes.map(parseApiKeyHash) });
    }
  }

  get size(): number {
    return this.#byId.size;
  }

  byId(appId: string): AppRecord | undefined {
    return this.#byId.get(appId)?.record;
  }

  /**
   * The app owning `apiKey`, or undefined. Every stored digest is compared (no early exit), so the
   * time taken does not depend on which app, if any, matched.
   */
  byApiKey(apiKey: string): AppRecord | undefined {
    let found: AppRecord | undefined;
    for (const entry of this.#byId.values()) {
      for (const digest of entry.digests) {
        if (apiKeyMatches(apiKey, digest) && !found) found = entry.record;
      }
    }
    return found;
  }
}
