/**
 * The container image definition (Dockerfile), checked without a container engine: hadolint; its
 * COPY lines cover every workspace package the service is built from; and what stage 1 leaves
 * in /out (`pnpm deploy --prod` of the service) runs on its own, outside the workspace, with
 * stage 2's environment, and answers stage 2's HEALTHCHECK command.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/pack.js';
import { tool } from './support/deploy-tools.js';
import { freePort, type RunningProcess, startNode } from './support/processes.js';

const run = promisify(execFile);
const DOCKERFILE = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined. */
const INSTRUCTIONS = DOCKERFILE.replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'));
const runtimeStage = INSTRUCTIONS.slice(INSTRUCTIONS.findLastIndex((l) => l.startsWith('FROM ')));

/** The workspace packages the service needs to build: it, its dependencies, and theirs (dev ones too). */
function buildClosure(): string[] {
  const dirs = new Map<string, string>();
  for (const base of ['packages', 'apps']) {
    for (const name of readdirSync(join(REPO_ROOT, base))) {
      const file = join(REPO_ROOT, base, name, 'package.json');
      if (existsSync(file)) dirs.set(JSON.parse(readFileSync(file, 'utf8')).name, `${base}/${name}`);
    }
  }
  const out = new Set<string>();
  const visit = (name: string) => {
    const dir = dirs.get(name);
    if (!dir || out.has(dir)) return;
    out.add(dir);
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) visit(dep);
  };
  visit('@avatar-drive/service');
  return [...out].sort();
}

describe('Dockerfile', () => {
  it('passes hadolint', async () => {
    const { stdout } = await run(tool('hadolint'), ['--no-color', join(REPO_ROOT, 'Dockerfile')]);
    expect(stdout).toBe('');
  });

  it('is multi-stage, runs as a non-root user, has a HEALTHCHECK on /healthz', () => {
    expect(INSTRUCTIONS.filter((l) => l.startsWith('FROM '))).toHaveLength(2);
    expect(runtimeStage.find((l) => l.startsWith('USER '))).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    expect(runtimeStage.find((l) => l.startsWith('HEALTHCHECK '))).toMatch(/\/healthz/);
  });

  it('copies every workspace package the service is built from (manifest and sources)', () => {
    const copied = INSTRUCTIONS.filter((l) => l.startsWith('COPY ') && !l.includes('--from=')).map((l) =>
      l.split(/\s+/).slice(1, -1),
    );
    const sources = new Set(copied.flat());
    for (const dir of buildClosure()) {
      expect(sources, `Dockerfile does not COPY ${dir}/package.json`).toContain(`${dir}/package.json`);
      expect(sources, `Dockerfile does not COPY ${dir}`).toContain(dir);
    }
    for (const source of sources)
      expect(existsSync(join(REPO_ROOT, source)), `${source} does not exist`).toBe(true);
  });
});

describe('the image contents (stage 1 output) run on their own', () => {
  let work: string;
  let service: RunningProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'avd-image-'));
    const deploy = INSTRUCTIONS.join('\n').match(
      /pnpm --filter @avatar-drive\/service deploy ([^\n&]*?) \/out/,
    );
    expect(deploy, 'the build stage runs `pnpm --filter @avatar-drive/service deploy … /out`').not.toBeNull();
    await run(
      'pnpm',
      ['--filter', '@avatar-drive/service', 'deploy', ...deploy![1]!.trim().split(/\s+/), join(work, 'app')],
      {
        cwd: REPO_ROOT,
        timeout: 150_000,
      },
    );
    // Stage 2's ENV, then loopback and a free port (tests never bind other addresses).
    env = {};
    for (const line of runtimeStage.filter((l) => l.startsWith('ENV '))) {
      for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[key!] = value!;
    }
    expect(env).toMatchObject({ NODE_ENV: 'production', AVATAR_DRIVE_HOST: '0.0.0.0' });
    Object.assign(env, {
      AVATAR_DRIVE_HOST: '127.0.0.1',
      AVATAR_DRIVE_PORT: String(await freePort()),
      AVATAR_DRIVE_SIGNING_KEY: 'k'.repeat(43),
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'app_image', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }]),
      REDIS_URL: '',
    });
    const entrypoint = JSON.parse(
      runtimeStage.find((l) => l.startsWith('ENTRYPOINT '))!.slice(11),
    ) as string[];
    expect(entrypoint[0]).toBe('node');
    service = await startNode(entrypoint.slice(1), { cwd: join(work, 'app'), env, ready: /is running/ });
  }, 200_000);

  afterAll(async () => {
    await service?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('has production dependencies only, none of the workspace', () => {
    const modules = join(work, 'app/node_modules');
    expect(existsSync(join(modules, '@avatar-drive/engine/dist/index.js'))).toBe(true);
    expect(existsSync(join(modules, '@avatar-drive/avatars/dist/mika/avatar.glb'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'tsup', '@types/ws'])
      expect(existsSync(join(modules, dev))).toBe(false);
    // Copies, not links into the checkout: the directory stands alone in the image.
    for (const pkg of ['core', 'engine', 'avatars']) {
      expect(realpathSync(join(modules, '@avatar-drive', pkg)).startsWith(REPO_ROOT)).toBe(false);
    }
  });

  it('answers the HEALTHCHECK command, /readyz and the built-in avatars', async () => {
    const check = JSON.parse(
      runtimeStage.find((l) => l.startsWith('HEALTHCHECK '))!.replace(/^.*?CMD\s+/, ''),
    ) as string[];
    expect(check[0]).toBe('node');
    await run(process.execPath, check.slice(1), { env: { ...process.env, ...env } });
    const base = `http://127.0.0.1:${env.AVATAR_DRIVE_PORT}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const avatars = await (await fetch(`${base}/v1/console/avatars?appId=app_image`)).text();
    expect(avatars).toContain('"mika"');
  });

  it('stops on SIGTERM (node is PID 1: no shell in between)', async () => {
    const exited = new Promise<number | null>((resolve) =>
      service.child.once('exit', (code) => resolve(code)),
    );
    service.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
