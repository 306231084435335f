/**
 * Starts the real driving service (apps/service/dist/main.js) as a region process for the
 * browser tests, and mints session tokens the way a developer's server does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SERVICE_MAIN = join(repoRoot, 'apps/service/dist/main.js');

/** True when the service has been built (`pnpm build`). */
export const serviceBuilt = existsSync(SERVICE_MAIN);

export interface RunningService {
  region: string;
  consoleUrl: string;
  ingressUrl: string;
  output: () => string;
  stop(): Promise<void>;
  /** SIGKILL: the region's process dies at once (a crash). */
  kill(): Promise<void>;
}

/** Starts one region of the service on a free port and waits for its banner. */
export async function startService(region: string, extraArgs: string[]): Promise<RunningService> {
  const child: ChildProcess = spawn(
    process.execPath,
    // The page server forwards console reads as a trusted loopback proxy (harness.ts).
    [
      SERVICE_MAIN,
      '--region',
      region,
      '--port',
      '0',
      '--log-level',
      'warn',
      '--trusted-proxies',
      '127.0.0.1',
      ...extraArgs,
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDIS_URL: '', AVATAR_DRIVE_APPS: '', AVATAR_DRIVE_SIGNING_KEY: '' },
    },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const urls = await new Promise<{ consoleUrl: string; ingressUrl: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      const consoleMatch = /console API\s+(https?:\/\/\S+?)\/v1\/console/.exec(out);
      const ingressMatch = /ingress\s+(wss?:\/\/\S+)/.exec(out);
      if (consoleMatch && ingressMatch) {
        clearInterval(timer);
        resolve({ consoleUrl: consoleMatch[1]!, ingressUrl: ingressMatch[1]! });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`service (${region}) exited with ${code}:\n${out}`));
    });
  });
  return {
    region,
    ...urls,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** POST /v1/console/session-tokens with the API key, as the developer's server would. */
export async function mintSessionToken(consoleUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/v1/console/session-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
  });
  if (!response.ok) throw new Error(`minting a token failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}
