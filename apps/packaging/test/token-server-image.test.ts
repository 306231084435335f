/**
 * The token server's image definition (deploy/token-server/Dockerfile), checked without a
 * container engine like the service's: hadolint; its COPY lines cover every workspace package the
 * token server is built from; and what stage 1 leaves in /out (`pnpm deploy --prod`) runs on its
 * own, outside the workspace, with stage 2's environment: it answers the HEALTHCHECK command and
 * mints a session token from a real driving service with the API key it was given, which never
 * appears in its output.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/pack.js';
import { tool } from './support/deploy-tools.js';
import { buildClosure, readDockerfile } from './support/dockerfile.js';
import {
  freePort,
  type RunningProcess,
  startNode,
  startWorkspaceService,
  type TestService,
} from './support/processes.js';

const run = promisify(execFile);
const PATH = 'deploy/token-server/Dockerfile';
const image = readDockerfile(PATH);

describe(PATH, () => {
  it('passes hadolint', async () => {
    const { stdout } = await run(tool('hadolint'), ['--no-color', join(REPO_ROOT, PATH)]);
    expect(stdout).toBe('');
  });

  it('is multi-stage, runs as a non-root user, has a HEALTHCHECK on /health', () => {
    expect(image.instructions.filter((l) => l.startsWith('FROM '))).toHaveLength(2);
    expect(image.runtimeStage.find((l) => l.startsWith('USER '))).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    expect(image.runtimeStage.find((l) => l.startsWith('HEALTHCHECK '))).toMatch(/\/health\b/);
  });

  it('copies every workspace package the token server is built from (manifest and sources)', () => {
    for (const dir of buildClosure('@avatar-drive/token-server')) {
      expect(image.copied, `${PATH} does not COPY ${dir}/package.json`).toContain(`${dir}/package.json`);
      expect(image.copied, `${PATH} does not COPY ${dir}`).toContain(dir);
    }
    for (const source of image.copied)
      expect(existsSync(join(REPO_ROOT, source)), `${source} does not exist`).toBe(true);
  });
});

describe('the token server image contents (stage 1 output) run on their own', () => {
  let work: string;
  let tokenServer: RunningProcess;
  let service: TestService;
  let env: Record<string, string>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'avd-token-image-'));
    const deploy = image.instructions
      .join('\n')
      .match(/pnpm --filter @avatar-drive\/token-server deploy ([^\n&]*?) \/out/);
    expect(
      deploy,
      'the build stage runs `pnpm --filter @avatar-drive/token-server deploy … /out`',
    ).not.toBeNull();
    await run(
      'pnpm',
      [
        '--filter',
        '@avatar-drive/token-server',
        'deploy',
        ...deploy![1]!.trim().split(/\s+/),
        join(work, 'app'),
      ],
      { cwd: REPO_ROOT, timeout: 150_000 },
    );
    service = await startWorkspaceService(work);
    env = { ...image.runtimeEnv };
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    // Loopback and a free port (tests never bind other addresses); the driving service's app.
    Object.assign(env, {
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      AVATAR_DRIVE_API_KEY: service.apiKey,
      AVATAR_DRIVE_APP_ID: service.appId,
      AVATAR_DRIVE_CONSOLE_URL: service.url,
    });
    const entrypoint = image.execForm('ENTRYPOINT');
    expect(entrypoint[0]).toBe('node');
    tokenServer = await startNode(entrypoint.slice(1), {
      cwd: join(work, 'app'),
      env,
      ready: /listening on/,
    });
  }, 200_000);

  afterAll(async () => {
    await tokenServer?.stop();
    await service?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('has production dependencies only, copied out of the workspace', () => {
    const modules = join(work, 'app/node_modules');
    expect(existsSync(join(modules, 'fastify'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'tsup']) expect(existsSync(join(modules, dev))).toBe(false);
    for (const pkg of ['core', 'server-sdk']) {
      expect(realpathSync(join(modules, '@avatar-drive', pkg)).startsWith(REPO_ROOT)).toBe(false);
    }
  });

  it('answers the HEALTHCHECK command and mints session tokens from the real service; the API key is never printed', async () => {
    const check = image.execForm('HEALTHCHECK');
    expect(check[0]).toBe('node');
    await run(process.execPath, check.slice(1), { env: { ...process.env, ...env } });
    const base = `http://127.0.0.1:${env.PORT}`;
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: 'ok', avatarDrive: true });
    const response = await fetch(`${base}/session-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { sessionToken?: string };
    expect(body.sessionToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokenServer.output()).not.toContain(service.apiKey);
  });

  it('stops on SIGTERM (node is PID 1: no shell in between)', async () => {
    const exited = new Promise<number | null>((resolve) =>
      tokenServer.child.once('exit', (code) => resolve(code)),
    );
    tokenServer.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
