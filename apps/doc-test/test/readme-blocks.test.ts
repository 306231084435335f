/**
 * Every code block of every README.md and docs/ guide, run: ts/js in Node (or Chromium with a
 * `browser` marker) and sh in bash against what `pnpm start` runs, json parsed. Blocks with a
 * `network` marker (they need the npm registry) run first, in order, outside the namespace. The runner (harness/runner.ts) works in
 * a network namespace of its own (`unshare --net`), so the stack takes its documented fixed ports
 * (8710, 8720, 8790, 8788, 5173) whatever else runs on the machine, and a snippet that uses the
 * built-in regions works as written. Blocks with a skip marker are listed as skipped, with the
 * reason.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBounded } from '../harness/bounded-exec.js';
import { type CodeBlock, collectBlocks } from '../harness/extract.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const blocks = collectBlocks(ROOT);
const runnable = blocks.filter((b) => !b.skip && b.kind !== 'text' && !b.network);
const networked = blocks.filter((b) => !b.skip && b.network);
/** A network block installs packages: more than the 90 s a sandboxed block gets. */
const NETWORK_BLOCK_TIMEOUT_MS = 300_000;
const results = new Map<CodeBlock, { ok: boolean; ms: number; output: string }>();
let runnerOutput = '';
const work = mkdtempSync(join(tmpdir(), 'avd-doc-blocks-'));

/** `unshare --net` as root; with a user namespace otherwise (unprivileged). */
function inOwnNetwork(command: string[]): [string, string[]] {
  const flags = process.getuid?.() === 0 ? ['--net'] : ['--map-root-user', '--net'];
  const script = 'ip link set lo up && exec "$@"';
  return ['unshare', [...flags, '--', 'sh', '-c', script, 'sh', ...command]];
}

/** Runs a `network` block in bash from the repository root, with the machine's network. */
async function runNetworked(block: CodeBlock): Promise<{ ok: boolean; ms: number; output: string }> {
  const started = Date.now();
  const script = [block.prelude, block.code, block.epilogue].join('\n');
  const result = await runBounded('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, DOC_TEST_SCRATCH: work },
    timeoutMs: NETWORK_BLOCK_TIMEOUT_MS,
  });
  return { ...result, ms: Date.now() - started };
}

beforeAll(async () => {
  for (const block of networked) results.set(block, await runNetworked(block));
  const list = join(work, 'blocks.json');
  writeFileSync(list, JSON.stringify(runnable));
  const [command, args] = inOwnNetwork([
    process.execPath,
    '--import',
    'tsx',
    join(import.meta.dirname, '../harness/runner.ts'),
    list,
  ]);
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => {
    runnerOutput += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    runnerOutput += chunk.toString();
  });
  await new Promise<void>((done) => child.on('close', () => done()));
  for (const line of runnerOutput.split('\n')) {
    if (!line.startsWith('{"index"')) continue;
    const result = JSON.parse(line) as { index: number; ok: boolean; ms: number; output: string };
    results.set(runnable[result.index]!, result);
  }
  const skipped = blocks.filter((b) => b.skip);
  console.log(
    `README and docs/ code blocks: ${blocks.length} — ${runnable.length + networked.length} run (${networked.length} with the network), ${skipped.length} skipped by marker, ${blocks.filter((b) => !b.skip && b.kind === 'text').length} text (not code)`,
  );
  for (const b of skipped) console.log(`  skipped ${b.file}:${b.line} — ${b.skip}`);
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README and docs/ code blocks', () => {
  for (const block of blocks) {
    const name = `${block.file}:${block.line} (${block.lang || 'text'}${block.kind === 'browser' ? ', Chromium' : ''})`;
    if (block.skip) {
      it.skip(`${name} — ${block.skip}`, () => {});
    } else if (block.kind !== 'text') {
      it(name, () => {
        const result = results.get(block);
        expect(
          result,
          `the runner gave no result for this block:\n${runnerOutput.slice(-4000)}`,
        ).toBeDefined();
        expect(result!.ok, result!.output).toBe(true);
      });
    }
  }
});
