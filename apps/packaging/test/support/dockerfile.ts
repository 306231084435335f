/**
 * A Dockerfile read as instructions (continuation lines joined, comments dropped), and the
 * workspace packages an image must COPY to build a package. Shared by the image tests.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/pack.js';

export interface Dockerfile {
  /** Every instruction, one a line. */
  instructions: string[];
  /** The instructions of the last stage (what runs). */
  runtimeStage: string[];
  /** The source paths of every COPY that is not `--from` another stage. */
  copied: Set<string>;
  /** The runtime stage's ENV as a map. */
  runtimeEnv: Record<string, string>;
  /** The runtime stage's exec-form instruction `name` (ENTRYPOINT, or HEALTHCHECK's CMD) as argv. */
  execForm(name: 'ENTRYPOINT' | 'HEALTHCHECK'): string[];
}

export function readDockerfile(relativePath: string): Dockerfile {
  const text = readFileSync(join(REPO_ROOT, relativePath), 'utf8');
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'));
  const runtimeStage = instructions.slice(instructions.findLastIndex((l) => l.startsWith('FROM ')));
  const copied = new Set(
    instructions
      .filter((l) => l.startsWith('COPY ') && !l.includes('--from='))
      .flatMap((l) => l.split(/\s+/).slice(1, -1)),
  );
  const runtimeEnv: Record<string, string> = {};
  for (const line of runtimeStage.filter((l) => l.startsWith('ENV '))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) runtimeEnv[key!] = value!;
  }
  const execForm = (name: 'ENTRYPOINT' | 'HEALTHCHECK') => {
    const line = runtimeStage.find((l) => l.startsWith(`${name} `));
    if (!line) throw new Error(`${relativePath} has no ${name} in its last stage`);
    return JSON.parse(
      name === 'HEALTHCHECK' ? line.replace(/^.*?CMD\s+/, '') : line.slice(name.length + 1),
    ) as string[];
  };
  return { instructions, runtimeStage, copied, runtimeEnv, execForm };
}

/** The workspace packages `name` needs to build: it, its dependencies, and theirs (dev ones too). */
export function buildClosure(name: string): string[] {
  const dirs = new Map<string, string>();
  for (const base of ['packages', 'apps']) {
    for (const dir of readdirSync(join(REPO_ROOT, base))) {
      const file = join(REPO_ROOT, base, dir, 'package.json');
      if (existsSync(file)) dirs.set(JSON.parse(readFileSync(file, 'utf8')).name, `${base}/${dir}`);
    }
  }
  const out = new Set<string>();
  const visit = (pkg: string) => {
    const dir = dirs.get(pkg);
    if (!dir || out.has(dir)) return;
    out.add(dir);
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) visit(dep);
  };
  visit(name);
  return [...out].sort();
}
