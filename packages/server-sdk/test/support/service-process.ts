/**
 * Runs the real driving service (apps/service/dist/main.js) as child processes on free loopback
 * ports, one process per region, sharing one signing key so tokens verify in every region.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ARKIT_BLENDSHAPES, parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';
import { makeGlb } from '../../../../apps/service/test/support/glb.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
export const SERVICE_MAIN = join(REPO_ROOT, 'apps/service/dist/main.js');
export const AVATAR_ID = 'sdk-test-avatar';

/** Credentials and files every service process of a test run shares. */
export interface ServiceFixtures {
  appId: string;
  apiKey: string;
  /** A second app limited to 2 concurrent sessions. */
  smallAppId: string;
  smallApiKey: string;
  configPath: string;
  avatarsDir: string;
}

const hash = (key: string) => `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;

export async function createFixtures(): Promise<ServiceFixtures> {
  const dir = await mkdtemp(join(tmpdir(), 'avd-sdk-'));
  const apiKey = `adk_${randomBytes(32).toString('base64url')}`;
  const smallApiKey = `adk_${randomBytes(32).toString('base64url')}`;
  const appId = `app_${randomBytes(6).toString('base64url')}`;
  const smallAppId = `app_${randomBytes(6).toString('base64url')}`;
  const configPath = join(dir, 'service.json');
  await writeFile(
    configPath,
    JSON.stringify({
      signingKey: randomBytes(32).toString('base64url'),
      apps: [
        { appId, apiKeyHashes: [hash(apiKey)] },
        { appId: smallAppId, apiKeyHashes: [hash(smallApiKey)], maxConcurrentSessions: 2 },
      ],
    }),
  );
  const avatarsDir = join(dir, 'avatars');
  await mkdir(avatarsDir);
  await writeFile(join(avatarsDir, `${AVATAR_ID}.glb`), makeGlb([...ARKIT_BLENDSHAPES]));
  return { appId, apiKey, smallAppId, smallApiKey, configPath, avatarsDir };
}

/** A free loopback port (nothing listens on it after this returns). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The engine the child service runs: the real @avatar-drive/engine once it is built in this
 * checkout, otherwise the service's own stand-in driver (apps/service/test/support/test-driver.ts,
 * loaded through tsx) that the service's tests use.
 */
function engineArgs(): { nodeArgs: string[]; module: string } {
  const fromEnv = process.env.AVATAR_DRIVE_TEST_ENGINE_MODULE;
  if (fromEnv) return { nodeArgs: [], module: fromEnv };
  const engine = join(REPO_ROOT, 'packages/engine/dist/index.js');
  if (existsSync(engine)) return { nodeArgs: [], module: pathToFileURL(engine).href };
  const driver = join(REPO_ROOT, 'apps/service/test/support/test-driver.ts');
  return { nodeArgs: ['--import', 'tsx'], module: pathToFileURL(driver).href };
}

export interface ServiceProcess {
  readonly region: string;
  readonly url: string;
  readonly ingressUrl: string;
  readonly child: ChildProcess;
  output(): string;
  /** Stops the process (SIGTERM: sessions get 4503 "shutting down") and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartServiceOptions {
  region: 'ap-northeast' | 'us-west';
  fixtures: ServiceFixtures;
  port?: number;
  redisUrl?: string;
  env?: Record<string, string>;
}

const running = new Set<ServiceProcess>();

export async function startServiceProcess(options: StartServiceOptions): Promise<ServiceProcess> {
  if (!existsSync(SERVICE_MAIN)) {
    throw new Error(`${SERVICE_MAIN} is missing: run \`pnpm build\` first.`);
  }
  const engine = engineArgs();
  const args = [
    ...engine.nodeArgs,
    SERVICE_MAIN,
    '--region',
    options.region,
    '--port',
    String(options.port ?? 0),
    '--config',
    options.fixtures.configPath,
    '--avatars-dir',
    options.fixtures.avatarsDir,
    '--engine-module',
    engine.module,
    '--log-level',
    'warn',
    ...(options.redisUrl ? ['--redis-url', options.redisUrl] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      REDIS_URL: '',
      AVATAR_DRIVE_APPS: '',
      AVATAR_DRIVE_SIGNING_KEY: '',
      ...options.env,
    },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start within 45 s:\n${out}`));
    }, 45_000);
    const onData = () => {
      const m = /console API\s+(https?:\/\/127\.0\.0\.1:\d+)\/v1\/console/.exec(out);
      if (m) {
        clearTimeout(deadline);
        child.stdout!.off('data', onData);
        resolveUrl(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`service exited (${code}) before it was ready:\n${out}`));
    });
  });
  const service: ServiceProcess = {
    region: options.region,
    url,
    // http → ws, https → wss.
    ingressUrl: `${url.replace(/^http/, 'ws')}/v2/driveningress`,
    child,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      running.delete(service);
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((done) => {
        // A service that does not finish its shutdown in 10 s is killed.
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill(signal);
      });
    },
  };
  running.add(service);
  return service;
}

/** Stops every service process still running (afterAll safety net). */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop('SIGKILL')));
}

/** The `regions` map for two running services (or a down one). */
export function regionsFor(
  primary: { url: string; ingressUrl: string },
  backup: { url: string; ingressUrl: string },
): Record<string, { consoleUrl: string; ingressUrl: string }> {
  return {
    'ap-northeast': { consoleUrl: primary.url, ingressUrl: primary.ingressUrl },
    'us-west': { consoleUrl: backup.url, ingressUrl: backup.ingressUrl },
  };
}

/** ms of a 200 Hz tone at `sampleRate`, speech level. */
export function tone(ms: number, sampleRate = 16000, amplitude = 8000): Int16Array {
  const n = Math.round((ms * sampleRate) / 1000);
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 200 * i) / sampleRate));
  return pcm;
}

/**
 * Exactly `ms` of real speech at `sampleRate` (espeak-ng, installed by scripts/setup.sh): what the
 * engine animates, unlike a tone. Padded with silence or cut to length.
 */
export function speech(
  ms: number,
  sampleRate = 16000,
  text = 'Hello there, my name is Mika. How are you today?',
): Int16Array {
  const wav = parseWav(new Uint8Array(execFileSync('espeak-ng', ['--stdout', '-s', '170', text])));
  const pcm = resample(wavToMonoInt16(wav), wav.sampleRate, sampleRate);
  const out = new Int16Array(Math.round((ms * sampleRate) / 1000));
  out.set(pcm.subarray(0, out.length));
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
