/**
 * The embedded default: on first start, a dev app id, API key and signing key are created and kept
 * in a git-ignored JSON file, so restarts (and a second region process) reuse them.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateApiKey, generateAppId, hashApiKey } from './api-keys.js';
import type { AppConfig } from './app-registry.js';

/** What the dev credentials file holds. The API key is kept so it can be printed again. */
export interface DevCredentials {
  appId: string;
  apiKey: string;
  signingKey: string;
  createdAt: string;
}

export interface LoadedDevCredentials {
  credentials: DevCredentials;
  created: boolean;
  app: AppConfig;
}

/** Reads the dev credentials file, creating it (mode 0600) when it does not exist yet. */
export async function loadOrCreateDevCredentials(path: string, attempt = 0): Promise<LoadedDevCredentials> {
  let credentials: DevCredentials | undefined;
  let created = false;
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<DevCredentials>;
    if (parsed.appId && parsed.apiKey && parsed.signingKey) credentials = parsed as DevCredentials;
  } catch (error) {
    if (error instanceof SyntaxError && attempt < 20) {
      // Another process is writing it right now.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return loadOrCreateDevCredentials(path, attempt + 1);
    }
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(
        `Cannot read dev credentials at ${path}: ${(error as Error).message}. Delete the file to recreate it.`,
      );
    }
  }
  if (!credentials) {
    credentials = {
      appId: generateAppId(),
      apiKey: generateApiKey(),
      signingKey: randomBytes(32).toString('base64url'),
      createdAt: new Date().toISOString(),
    };
    await mkdir(dirname(path), { recursive: true });
    try {
      // Exclusive create: two regions started at once must end up with the same credentials.
      await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(path, 0o600);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return loadOrCreateDevCredentials(path, attempt + 1);
    }
  }
  return {
    credentials,
    created,
    app: { appId: credentials.appId, name: 'dev', apiKeyHashes: [hashApiKey(credentials.apiKey)] },
  };
}
