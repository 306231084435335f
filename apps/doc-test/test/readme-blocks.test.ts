/**
 * Every code block of every README.md, run: ts/js in Node (or Chromium with a `browser` marker)
 * and sh in bash against what `pnpm start` runs, json parsed. The runner (harness/runner.ts) works in
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
import { type CodeBlock, collectBlocks } from '../harness/extract.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const blocks = collectBlocks(ROOT);
const runnable = blocks.filter((b) => !b.skip && b.kind !== 'text');
const results = new Map<CodeBlock, { ok: boolean; ms: number; output: string }>();
let runnerOutput = '';
const work = mkdtempSync(join(tmpdir(), 'avd-doc-blocks-'));

/** `unshare --net` as root; with a user namespace otherwise (unprivileged). */
function inOwnNetwork(command: string[]): [string, string[]] {
  const flags = process.getuid?.() === 0 ? ['--net'] : ['--map-root-user', '--net'];
  const script = 'ip link set lo up && exec "$@"';
  return ['unshare', [...flags, '--', 'sh', '-c', script, 'sh', ...command]];
}

beforeAll(async () => {
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
    `README code blocks: ${blocks.length} — ${runnable.length} run, ${skipped.length} skipped by marker, ${blocks.filter((b) => !b.skip && b.kind === 'text').length} text (not code)`,
  );
  for (const b of skipped) console.log(`  skipped ${b.file}:${b.line} — ${b.skip}`);
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README code blocks', () => {
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
