/**
 * Finds the fenced code blocks of every README.md and of the guides under docs/ (not the benchmark
 * records: their commands are measurements that run for minutes) and what the doc test does with each.
 *
 * Markers are HTML comments (invisible on GitHub and npm), written right before a block (blank
 * lines between are fine):
 *
 *   <!-- doc-test: skip — why it cannot run in CI -->   not run; counted and listed with the reason
 *   <!-- doc-test: browser -->                          ts/js: run in Chromium instead of Node
 *   <!-- doc-test: network -->                          sh: run first, outside the network namespace
 *                                                       (the block needs the npm registry)
 *   <!-- doc-test: prelude
 *   code run before the block (defines what the snippet takes for granted)
 *   -->
 * and right after a block:
 *   <!-- doc-test: epilogue
 *   code run after the block (e.g. clicks the button the snippet wired up, closes what it opened)
 *   -->
 *
 * Without a marker: ts/js run in Node (tsx), sh/bash run in bash from the repository root,
 * json is parsed (jsonc after removing comments); blocks with no language or a non-code one
 * (text, diagrams, sample output) are text and are not run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export type BlockKind = 'node' | 'browser' | 'sh' | 'json' | 'text';

export interface CodeBlock {
  /** README path relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string (language). */
  lang: string;
  kind: BlockKind;
  code: string;
  /** Set when a skip marker precedes the block. */
  skip?: string;
  /** Set by a network marker: the block runs before the stack, with the machine's network. */
  network?: boolean;
  prelude: string;
  epilogue: string;
}

const SCRIPT_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'tsx']);
const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*doc-test:\s*(skip|browser|node|network|prelude|epilogue)\b([\s\S]*?)-->$/;

function kindOf(lang: string): BlockKind {
  if (SCRIPT_LANGS.has(lang)) return 'node';
  if (SHELL_LANGS.has(lang)) return 'sh';
  if (lang === 'json' || lang === 'jsonc') return 'json';
  return 'text';
}

/** The blocks of one markdown text. Throws on a marker that does not belong to a block. */
export function extractBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  // Markers seen since the last block, waiting for the next one.
  let pending: { type: string; body: string; line: number }[] = [];
  let last: CodeBlock | undefined;
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const trimmed = text.trim();
    if (trimmed.startsWith('<!--') && /^<!--\s*doc-test/.test(trimmed)) {
      let end = i;
      let comment = trimmed;
      while (!comment.endsWith('-->') && end + 1 < lines.length) comment += `\n${lines[++end]!}`;
      const match = MARKER.exec(comment.trim());
      if (!match) throw new Error(`${file}:${i + 1}: unknown doc-test marker: ${comment.split('\n')[0]}`);
      const [, type, rest] = match;
      if (type === 'epilogue') {
        if (!last || lines.slice(lastEnd + 1, i).some((l) => l.trim() !== '')) {
          throw new Error(`${file}:${i + 1}: a doc-test epilogue must follow a code block.`);
        }
        last.epilogue = rest!.replace(/^[^\n]*\n/, '');
      } else {
        pending.push({ type: type!, body: rest!, line: i + 1 });
      }
      i = end;
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(text);
    if (fence) {
      const [, indent, marks, lang = ''] = fence;
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        if (lines[i]!.trim().startsWith(marks!) && lines[i]!.trim().replace(/[`~]/g, '') === '') break;
        body.push(lines[i]!.startsWith(indent!) ? lines[i]!.slice(indent!.length) : lines[i]!);
      }
      const block: CodeBlock = {
        file,
        line: start + 1,
        lang: lang.toLowerCase(),
        kind: kindOf(lang.toLowerCase()),
        code: body.join('\n'),
        prelude: '',
        epilogue: '',
      };
      for (const marker of pending) {
        if (marker.type === 'skip') {
          const reason = marker.body.replace(/^\s*[—–:-]\s*/, '').trim();
          if (!reason)
            throw new Error(`${file}:${marker.line}: a doc-test skip needs a reason (skip — why).`);
          block.skip = reason;
        } else if (marker.type === 'browser' || marker.type === 'node') {
          if (block.kind !== 'node' && block.kind !== 'browser') {
            throw new Error(`${file}:${marker.line}: doc-test: ${marker.type} applies to ts/js blocks only.`);
          }
          block.kind = marker.type;
        } else if (marker.type === 'network') {
          if (block.kind !== 'sh')
            throw new Error(`${file}:${marker.line}: doc-test: network applies to sh blocks only.`);
          block.network = true;
        } else {
          block.prelude = marker.body.replace(/^[^\n]*\n/, '');
        }
      }
      pending = [];
      blocks.push(block);
      last = block;
      lastEnd = i;
      continue;
    }
    if (trimmed !== '' && pending.length > 0) {
      throw new Error(`${file}:${pending[0]!.line}: a doc-test marker must be followed by a code block.`);
    }
  }
  if (pending.length > 0)
    throw new Error(`${file}:${pending[0]!.line}: a doc-test marker at the end of the file.`);
  return blocks;
}

/** The benchmark records under docs/: commands that measure for minutes, with their figures. */
const NOT_EXAMPLES = /^docs\/benchmarks(\.md$|\/)/;

/**
 * Every README.md of the repository, and every guide under docs/ except the benchmark records
 * (node_modules, dist and dot-directories left out).
 */
export function findDocs(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      const file = relative(root, path);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'README.md') out.push(file);
      else if (file.startsWith('docs/') && file.endsWith('.md') && !NOT_EXAMPLES.test(file)) out.push(file);
    }
  };
  walk(root);
  return out.sort();
}

/** The blocks of every README and guide of the repository. */
export function collectBlocks(root: string): CodeBlock[] {
  return findDocs(root).flatMap((file) => extractBlocks(readFileSync(join(root, file), 'utf8'), file));
}
