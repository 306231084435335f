/**
 * Real processes for the release checks: the driving service from the workspace build
 * (apps/service/dist/main.js) on a free loopback port with one configured app, and a helper that
 * waits for a line on a child's output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/pack.js';

/** A free loopback port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `node args…` and resolves once `ready` matches its output (rejects on exit or after `timeoutMs`). */
export async function startNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; ready: RegExp; timeoutMs?: number },
): Promise<RunningProcess & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args[0]} was not ready within ${options.timeoutMs ?? 45_000} ms:\n${out}`));
    }, options.timeoutMs ?? 45_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = options.ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
  return {
    child,
    match,
    output: () => out,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface TestService extends RunningProcess {
  url: string;
  appId: string;
  apiKey: string;
}

/** The service from the workspace build, one app, the built-in avatars, a free port. */
export async function startWorkspaceService(dir: string): Promise<TestService> {
  const main = join(REPO_ROOT, 'apps/service/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`pnpm build\` first.`);
  const appId = `app_${randomBytes(6).toString('base64url')}`;
  const apiKey = `adk_${randomBytes(32).toString('base64url')}`;
  const configPath = join(dir, 'service.json');
  await writeFile(
    configPath,
    JSON.stringify({
      signingKey: randomBytes(32).toString('base64url'),
      apps: [{ appId, apiKeyHashes: [`sha256:${createHash('sha256').update(apiKey).digest('hex')}`] }],
    }),
  );
  const service = await startNode(
    [main, '--region', 'ap-northeast', '--port', '0', '--config', configPath, '--log-level', 'warn'],
    {
      cwd: dir,
      env: { REDIS_URL: '', AVATAR_DRIVE_APPS: '', AVATAR_DRIVE_SIGNING_KEY: '' },
      ready: /console API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1\/console/,
    },
  );
  return { ...service, url: service.match[1]!, appId, apiKey };
}
