import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config.js';
import { loadOrCreateDevCredentials } from '../src/credentials/dev-credentials.js';
import { makeAvatarsDir, mintToken, STAND_IN_DRIVER_MODULE, TestClient } from './support/harness.js';
import { TestRedis } from './support/redis-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts `src/main.ts` and resolves with its stdout once it printed the banner. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../src/main.ts'), ...args],
    {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDIS_URL: '', AVATAR_DRIVE_APPS: '', AVATAR_DRIVE_SIGNING_KEY: '' },
    },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Mint a session token') || out.includes('is running\n')) {
        clearInterval(timer);
        setTimeout(resolve, 100);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
  return { child, out: () => out };
}

describe('avatar-drive-service CLI (embedded defaults)', () => {
  it('--version prints the package version (the bin a user runs: the committed shim over dist)', async () => {
    const manifest = JSON.parse(await readFile(join(import.meta.dirname, '../package.json'), 'utf8'));
    const shim = join(import.meta.dirname, '..', manifest.bin['avatar-drive-service']);
    expect(execFileSync(process.execPath, [shim, '--version'], { encoding: 'utf8' }).trim()).toBe(
      manifest.version,
    );
  });

  it('two regions started at once share fresh dev credentials; a token minted in one works in the other', {
    timeout: 60_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'avd-cli-'));
    const credentialsPath = join(dir, 'dev-credentials.json');
    const avatarsDir = await makeAvatarsDir();
    const common = [
      '--port',
      '0',
      '--dev-credentials',
      credentialsPath,
      '--avatars-dir',
      avatarsDir,
      '--engine-module',
      STAND_IN_DRIVER_MODULE,
    ];
    const [ap, us] = await Promise.all([
      startCli(['--region', 'ap-northeast', ...common]),
      startCli(['--region', 'us-west', ...common]),
    ]);
    const credentials = JSON.parse(await readFile(credentialsPath, 'utf8')) as {
      appId: string;
      apiKey: string;
    };
    expect((await stat(credentialsPath)).mode & 0o777).toBe(0o600);
    expect(ap.out()).toContain('Avatar Drive service (ap-northeast) is running');
    expect(us.out()).toContain('Avatar Drive service (us-west) is running');
    for (const out of [ap.out(), us.out()]) {
      expect(out).toContain(`App ID   ${credentials.appId}`);
      expect(out).toContain(`API key  ${credentials.apiKey}`);
    }
    expect(
      [ap.out(), us.out()].filter((o) => o.includes(`dev credentials (created ${credentialsPath})`)),
    ).toHaveLength(1);
    const endpoints = (out: string) => ({
      url: /console API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1\/console/.exec(out)![1]!,
      ingressUrl: /ingress\s+(ws:\/\/\S+)/.exec(out)![1]!,
    });
    // Minted in ap-northeast, used in us-west.
    const token = await mintToken(endpoints(ap.out()), credentials.apiKey);
    const client = await TestClient.open(endpoints(us.out()), token, { appId: credentials.appId });
    client.configure();
    await client.confirmed();
    client.close();
    // Each region keeps its own ledger (regions share no state): single use holds per region, so
    // a token used in us-west opens one more session in ap-northeast, then is refused in both.
    for (const [out, region] of [
      [ap.out(), 'ap-northeast'],
      [us.out(), 'us-west'],
    ] as const) {
      expect(out).toContain(`token ledger  ${join(dir, 'used-tokens', region)}`);
    }
    const alreadyUsed = {
      status: 401,
      body: { errors: [{ detail: expect.stringMatching(/already used/) }] },
    };
    await expect(
      TestClient.open(endpoints(us.out()), token, { appId: credentials.appId }),
    ).rejects.toMatchObject(alreadyUsed);
    (await TestClient.open(endpoints(ap.out()), token, { appId: credentials.appId })).close();
    for (const out of [ap.out(), us.out()]) {
      await expect(
        TestClient.open(endpoints(out), token, { appId: credentials.appId }),
      ).rejects.toMatchObject(alreadyUsed);
    }
    // The regions stay separate processes with separate state: one dies, the other keeps serving
    // and keeps its ledger.
    ap.child.kill('SIGKILL');
    await new Promise((resolve) => ap.child.once('exit', resolve));
    const third = await mintToken(endpoints(us.out()), credentials.apiKey);
    const survivor = await TestClient.open(endpoints(us.out()), third, { appId: credentials.appId });
    survivor.configure();
    await survivor.confirmed();
    survivor.close();
    await expect(
      TestClient.open(endpoints(us.out()), token, { appId: credentials.appId }),
    ).rejects.toMatchObject(alreadyUsed);
    // Log lines (JSON) never carry the key; only the banner prints it.
    const logLines = [ap.out(), us.out()]
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(credentials.apiKey);
    // A restart reads the same file.
    const again = await loadOrCreateDevCredentials(credentialsPath);
    expect(again.created).toBe(false);
    expect(again.credentials).toEqual(credentials);
  });

  it('--processes 2 runs two service processes on one port, sharing state through Redis', async () => {
    const redis = await TestRedis.start();
    try {
      const dir = await mkdtemp(join(tmpdir(), 'avd-cli-'));
      const credentialsPath = join(dir, 'dev-credentials.json');
      const cli = await startCli([
        '--port',
        '0',
        '--processes',
        '2',
        '--redis-url',
        redis.url,
        '--dev-credentials',
        credentialsPath,
        '--avatars-dir',
        await makeAvatarsDir(),
        '--engine-module',
        STAND_IN_DRIVER_MODULE,
      ]);
      expect(cli.out()).toContain('is running in 2 processes');
      const credentials = JSON.parse(await readFile(credentialsPath, 'utf8')) as {
        appId: string;
        apiKey: string;
      };
      const url = /console API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1\/console/.exec(cli.out())![1]!;
      const ingressUrl = /ingress\s+(ws:\/\/\S+)/.exec(cli.out())![1]!;
      const clients: TestClient[] = [];
      for (let i = 0; i < 4; i++) {
        const token = await mintToken({ url }, credentials.apiKey);
        const client = await TestClient.open({ ingressUrl }, token, { appId: credentials.appId });
        client.configure();
        await client.confirmed();
        clients.push(client);
        // Whichever process takes the second attempt, the token is already spent.
        await expect(
          TestClient.open({ ingressUrl }, token, { appId: credentials.appId }),
        ).rejects.toMatchObject({ status: 401 });
      }
      for (const c of clients) c.close();
    } finally {
      for (const child of children.splice(0)) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      await redis.kill();
    }
  }, 90_000);

  it('resolves regions, ports and production apps from flags and env', async () => {
    const env = {
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'a1', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }]),
      AVATAR_DRIVE_SIGNING_KEY: 'x'.repeat(43),
    };
    const ap = await resolveConfig([], env);
    const us = await resolveConfig(['--region', 'us-west'], env);
    const port = await resolveConfig(['--region', 'us-west'], {
      ...env,
      AVATAR_DRIVE_PORT: '9000',
      AVATAR_DRIVE_MAX_SESSIONS_PER_APP: '7',
    });
    if ('help' in ap || 'help' in us || 'help' in port) throw new Error('unexpected help');
    expect([ap.options.region, ap.options.port, ap.options.host]).toEqual([
      'ap-northeast',
      8710,
      '127.0.0.1',
    ]);
    expect([us.options.region, us.options.port]).toEqual(['us-west', 8720]);
    expect(port.options.port).toBe(9000);
    expect(port.options.limits?.maxConcurrentSessionsPerApp).toBe(7);
    expect(ap.dev).toBeUndefined();
    await expect(resolveConfig(['--region', 'eu-central'], env)).rejects.toThrow(
      /Unknown region "eu-central"/,
    );
    await expect(resolveConfig([], { AVATAR_DRIVE_APPS: env.AVATAR_DRIVE_APPS })).rejects.toThrow(
      /no signing key/,
    );
  });
});

describe('dev credentials', () => {
  it('two regions starting at once share one set', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'avd-creds-')), 'dev-credentials.json');
    const [a, b] = await Promise.all([loadOrCreateDevCredentials(path), loadOrCreateDevCredentials(path)]);
    expect(a.credentials).toEqual(b.credentials);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
  });
});
