import { describe, expect, it } from 'vitest';
import { extractBlocks } from '../harness/extract.js';

const md = (...lines: string[]) => lines.join('\n');

describe('extractBlocks', () => {
  it('finds fenced blocks with their language, line and kind', () => {
    const blocks = extractBlocks(
      md('# T', '', '```ts', 'a();', '```', '', '```sh', 'ls', '```', '```', 'diagram', '```'),
      'R.md',
    );
    expect(blocks.map((b) => [b.line, b.lang, b.kind, b.code])).toEqual([
      [3, 'ts', 'node', 'a();'],
      [7, 'sh', 'sh', 'ls'],
      [10, '', 'text', 'diagram'],
    ]);
  });

  it('reads skip (with its reason), browser, prelude and epilogue markers', () => {
    const [skipped, browser] = extractBlocks(
      md(
        '<!-- doc-test: skip — starts a long-running server -->',
        '',
        '```sh',
        'pnpm start',
        '```',
        '<!-- doc-test: browser -->',
        '<!-- doc-test: prelude',
        'const x = 1;',
        '-->',
        '```ts',
        'use(x);',
        '```',
        '<!-- doc-test: epilogue',
        'done(x--);',
        '-->',
      ),
      'R.md',
    );
    expect(skipped!.skip).toBe('starts a long-running server');
    expect(browser).toMatchObject({
      kind: 'browser',
      prelude: 'const x = 1;\n',
      epilogue: 'done(x--);\n',
      code: 'use(x);',
    });
  });

  it('reads a network marker on sh blocks only', () => {
    const [installed] = extractBlocks(
      md('<!-- doc-test: network -->', '```sh', 'npm install x', '```'),
      'R.md',
    );
    expect(installed).toMatchObject({ kind: 'sh', network: true });
    expect(() => extractBlocks(md('<!-- doc-test: network -->', '```ts', 'a();', '```'), 'R.md')).toThrow(
      /network applies to sh blocks only/,
    );
  });

  it('refuses markers that do not belong to a block, and a skip without a reason', () => {
    expect(() =>
      extractBlocks(md('<!-- doc-test: skip — x -->', 'text', '```sh', 'ls', '```'), 'R.md'),
    ).toThrow(/must be followed by a code block/);
    expect(() => extractBlocks(md('<!-- doc-test: skip -->', '```sh', 'ls', '```'), 'R.md')).toThrow(
      /needs a reason/,
    );
    expect(() => extractBlocks(md('<!-- doc-test: sometimes -->', '```sh', 'ls', '```'), 'R.md')).toThrow(
      /unknown/,
    );
    expect(() => extractBlocks(md('text', '<!-- doc-test: epilogue', 'x', '-->'), 'R.md')).toThrow(
      /must follow a code block/,
    );
  });
});
