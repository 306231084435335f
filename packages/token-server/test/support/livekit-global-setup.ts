/**
 * Finds the real LiveKit server for the token-server tests:
 * 1. LIVEKIT_URL / LIVEKIT_API_KEY / LIVEKIT_API_SECRET (set by scripts/test-all.sh);
 * 2. else scripts/livekit.sh, when this checkout has it (started here, stopped afterwards);
 * 3. else the livekit-server binary built by scripts/livekit.sh, started here on a free port.
 * When none is available, the LiveKit tests are skipped and print why — except under CI, where
 * that is an error.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import 'vitest';
import type { TestProject } from 'vitest/node';

export interface LiveKitInfo {
  url: string;
  apiKey: string;
  apiSecret: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    livekit: LiveKitInfo | null;
    livekitSkipReason: string;
  }
}

const repo = resolve(import.meta.dirname, '../../../..');

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url.replace(/^ws/, 'http'), { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const { LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET } = process.env;
  if (LIVEKIT_URL && LIVEKIT_API_KEY && LIVEKIT_API_SECRET) {
    project.provide('livekit', { url: LIVEKIT_URL, apiKey: LIVEKIT_API_KEY, apiSecret: LIVEKIT_API_SECRET });
    project.provide('livekitSkipReason', '');
    return undefined;
  }
  const script = join(repo, 'scripts/livekit.sh');
  if (existsSync(script)) {
    const running = spawnSync('bash', [script, 'status'], { cwd: repo }).status === 0;
    if (!running) execFileSync('bash', [script, 'start'], { cwd: repo, stdio: 'inherit' });
    const url = execFileSync('bash', [script, 'url'], { cwd: repo, encoding: 'utf8' }).trim();
    project.provide('livekit', { url, apiKey: 'devkey', apiSecret: 'secret' });
    project.provide('livekitSkipReason', '');
    return async () => {
      if (!running) execFileSync('bash', [script, 'stop'], { cwd: repo, stdio: 'inherit' });
    };
  }
  const bin = join(
    process.env.LIVEKIT_BIN_DIR ?? join(homedir(), '.cache/avatar-drive/livekit/bin'),
    'server',
  );
  if (!existsSync(bin)) {
    // CI (and scripts/test-all.sh, which exports LIVEKIT_URL) must run these tests, never skip them.
    if (process.env.CI) {
      throw new Error(
        `CI is set but no LiveKit server is available (no LIVEKIT_URL, no scripts/livekit.sh, no ${bin}): run bash scripts/setup.sh, which builds it.`,
      );
    }
    project.provide('livekit', null);
    project.provide(
      'livekitSkipReason',
      'no LiveKit server: set LIVEKIT_URL/LIVEKIT_API_KEY/LIVEKIT_API_SECRET or run `bash scripts/livekit.sh install`',
    );
    return undefined;
  }
  // Loopback only, no ICE/TCP port: the token server only needs LiveKit's server API.
  const port = await freePort();
  const rtcBase = 51000 + (port % 500) * 2;
  const dir = await mkdtemp(join(tmpdir(), 'avd-livekit-'));
  const config = join(dir, 'livekit.yaml');
  await writeFile(
    config,
    [
      `port: ${port}`,
      'rtc:',
      '  use_external_ip: false',
      '  interfaces:',
      '    includes: [lo]',
      `  port_range_start: ${rtcBase}`,
      `  port_range_end: ${rtcBase + 1}`,
      '  tcp_port: 0',
      '  stun_servers: []',
      'logging:',
      '  level: warn',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    bin,
    ['--dev', '--config', config, '--bind', '127.0.0.1', '--node-ip', '127.0.0.1'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr!.on('data', (c: Buffer) => {
    log += c.toString();
  });
  const url = `ws://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`livekit-server did not start: ${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('livekit', { url, apiKey: 'devkey', apiSecret: 'secret' });
  project.provide('livekitSkipReason', '');
  return async () => {
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  };
}
