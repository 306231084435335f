/**
 * Runs README code blocks against the real thing: what `pnpm start` runs (the service as two
 * regions on their default ports 8710/8720, the token server on 8790, the Host-mode relay example
 * on 8788, the demo on 5173; fresh dev credentials), so snippets that use the built-in regions
 * work as written. Meant to run in a network namespace of its own (see test/readme-blocks.test.ts),
 * where those fixed ports are free whatever else runs on the machine.
 *
 * argv: <blocks.json> (CodeBlock[] to run); prints one JSON line per block:
 * {"index", "ok", "ms", "output"}.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { startStack } from '@avatar-drive/demo/stack';
import { launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';
import { runBounded } from './bounded-exec.ts';
import type { CodeBlock } from './extract.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const RUN_DIR = join(import.meta.dirname, '..', '.run');
const BLOCK_TIMEOUT_MS = 90_000;

interface Result {
  index: number;
  ok: boolean;
  ms: number;
  output: string;
}

const source = (block: CodeBlock) => [block.prelude, block.code, block.epilogue].join('\n');
const exec = (command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) =>
  runBounded(command, args, { ...options, timeoutMs: BLOCK_TIMEOUT_MS });

async function main() {
  const blocks = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as CodeBlock[];
  const scratch = mkdtempSync(join(tmpdir(), 'avd-doc-test-'));
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const stack = await startStack({
    ports: { primary: 8710, backup: 8720, token: 8790, relay: 8788, demo: 5173 },
    devCredentials: join(scratch, 'dev-credentials.json'),
    tokenRateLimit: 0,
  });
  const credentials = JSON.parse(readFileSync(join(scratch, 'dev-credentials.json'), 'utf8'));
  const env = {
    ...process.env,
    AVATAR_DRIVE_APP_ID: credentials.appId as string,
    AVATAR_DRIVE_API_KEY: credentials.apiKey as string,
    AVATAR_DRIVE_DEV_CREDENTIALS: join(scratch, 'dev-credentials.json'),
    DOC_TEST_SCRATCH: scratch,
  };

  // "Your server" for browser snippets: serves the page and mints session tokens with the dev key;
  // a sentence of speech as 16 kHz s16le PCM for their TTS stand-ins.
  const pages = new Map<string, string | Uint8Array>();
  const wav = parseWav(
    new Uint8Array(execFileSync('espeak-ng', ['--stdout', 'Hello there, how are you today?'])),
  );
  const speech = wavToSendablePcm(wav, 16000).samples;
  pages.set(
    '/doc-test/speech-16000.pcm',
    new Uint8Array(speech.buffer, speech.byteOffset, speech.byteLength),
  );
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/my-server/session-token') {
      const minted = await fetch('http://127.0.0.1:8710/v1/console/session-tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': env.AVATAR_DRIVE_API_KEY },
        body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 300 }),
      });
      res.writeHead(minted.status, { 'content-type': 'text/plain' });
      res.end(((await minted.json()) as { sessionToken: string }).sessionToken);
      return;
    }
    const page = pages.get(path);
    if (!page) return void res.writeHead(404).end();
    const type = path.endsWith('.js')
      ? 'text/javascript'
      : path.endsWith('.html')
        ? 'text/html'
        : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type });
    res.end(page);
  });
  await new Promise<void>((ok) => server.listen(5180, '127.0.0.1', () => ok()));
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

  for (const [index, block] of blocks.entries()) {
    const started = Date.now();
    let result: { ok: boolean; output: string };
    try {
      if (block.kind === 'sh') {
        result = await exec('bash', ['-euo', 'pipefail', '-c', source(block)], { cwd: ROOT, env });
      } else if (block.kind === 'node') {
        const file = join(RUN_DIR, `block-${index}.${extension(block)}`);
        writeFileSync(file, source(block));
        result = await exec(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env });
      } else if (block.kind === 'json') {
        JSON.parse(block.lang === 'jsonc' ? block.code.replace(/^\s*\/\/.*$|\s\/\/.*$/gm, '') : block.code);
        result = { ok: true, output: '' };
      } else if (block.kind === 'browser') {
        const entry = join(RUN_DIR, `block-${index}.${extension(block)}`);
        writeFileSync(entry, `${source(block)}\n;(window as any).__docTest = { ok: true };\n`);
        const bundle = await build({
          entryPoints: [entry],
          bundle: true,
          write: false,
          format: 'esm',
          target: 'es2022',
          platform: 'browser',
          jsx: 'automatic',
          logLevel: 'silent',
        });
        pages.set(`/block-${index}.js`, bundle.outputFiles[0]!.text);
        pages.set(
          `/block-${index}.html`,
          `<!doctype html><meta charset="utf-8"><body><div id="avatar" style="width:320px;height:320px"></div>
<script>window.DOC_TEST = ${JSON.stringify({ appId: env.AVATAR_DRIVE_APP_ID })};
addEventListener('error', (e) => { window.__docTest = { ok: false, error: String(e.message) }; });
addEventListener('unhandledrejection', (e) => { window.__docTest = { ok: false, error: String(e.reason?.stack ?? e.reason) }; });</script>
<script type="module" src="/block-${index}.js"></script></body>`,
        );
        chromium ??= await launchChromium({ viewport: { width: 400, height: 400 } });
        const page = await chromium.context.newPage();
        const logs: string[] = [];
        page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
        await page.goto(`http://127.0.0.1:5180/block-${index}.html`);
        const outcome = await page
          .waitForFunction(() => (window as { __docTest?: unknown }).__docTest, undefined, {
            timeout: BLOCK_TIMEOUT_MS,
          })
          .then((h) => h.jsonValue() as Promise<{ ok: boolean; error?: string }>)
          .catch((error: Error) => ({ ok: false, error: error.message }));
        await page.close();
        result = { ok: outcome.ok, output: `${outcome.error ?? ''}\n${logs.join('\n')}`.slice(0, 20_000) };
      } else {
        result = { ok: true, output: '' };
      }
    } catch (error) {
      result = { ok: false, output: String((error as Error).stack ?? error) };
    }
    const line: Result = { index, ok: result.ok, ms: Date.now() - started, output: result.output };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  await chromium?.close();
  server.close();
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
}

/** The file extension a block runs from: `tsx` blocks (React examples) keep their JSX. */
function extension(block: CodeBlock): 'ts' | 'tsx' {
  return block.lang === 'tsx' || block.lang === 'jsx' ? 'tsx' : 'ts';
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`doc-test runner: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
