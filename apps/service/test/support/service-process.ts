/**
 * The service as its own process (src/main.ts through tsx), configured like a deployment (apps,
 * signing key and limits in the environment), for tests that measure the process itself (RSS) or
 * need it apart from the test's event loop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashApiKey } from '../../src/credentials/api-keys.js';
import { API_KEY, APP_ID, SIGNING_KEY, STAND_IN_DRIVER_MODULE } from './harness.js';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  ingressUrl: string;
  /** Everything the process wrote (banner and logs). */
  output(): string;
  /** Resident set size of the process now, in MiB (from /proc). */
  rssMiB(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts the service on a free loopback port with the test app ({@link APP_ID}, {@link API_KEY}). */
export async function startServiceProcess(options: {
  avatarsDir: string;
  args?: string[];
  env?: Record<string, string>;
}): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '../../src/main.ts'),
      '--port',
      '0',
      '--avatars-dir',
      options.avatarsDir,
      '--engine-module',
      STAND_IN_DRIVER_MODULE,
      '--log-level',
      'warn',
      ...(options.args ?? []),
    ],
    {
      cwd: join(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        REDIS_URL: '',
        LIVEKIT_URL: '',
        AVATAR_DRIVE_APPS: JSON.stringify([{ appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] }]),
        AVATAR_DRIVE_SIGNING_KEY: Buffer.from(SIGNING_KEY).toString('base64url'),
        ...options.env,
      },
    },
  );
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /console API\s+(http:\/\/\S+)\/v1\/console/.exec(out);
      if (found) {
        clearInterval(timer);
        resolve(found[1]!);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the service exited (${code}): ${out}`));
    });
  });
  return {
    child,
    url,
    ingressUrl: `${url.replace(/^http/, 'ws')}/v2/driveningress`,
    output: () => out,
    async rssMiB() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      return kib / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
    },
  };
}
