/**
 * Prints the slowest test files of a `pnpm test:all` run (scripts/test-all.sh), from the JSON
 * reports it asks vitest and Playwright for: one line per file with its wall time and project.
 *
 *   tsx scripts/slowest-tests.ts [count] report.json...
 *
 * A report that is missing (its stage failed before writing it) is named and skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

interface FileTime {
  file: string;
  ms: number;
  tests: number;
}

const root = resolve(import.meta.dirname, '..');

/** vitest's JSON reporter: one entry per test file, with its start and end. */
function fromVitest(report: {
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }>;
}): FileTime[] {
  return report.testResults.map((r) => ({
    file: relative(root, r.name),
    ms: r.endTime - r.startTime,
    tests: r.assertionResults.length,
  }));
}

interface PlaywrightSuite {
  file: string;
  specs?: Array<{ tests: Array<{ results: Array<{ duration: number }> }> }>;
  suites?: PlaywrightSuite[];
}

/** Playwright's JSON reporter: suites per file; a file's time is the sum of its tests' runs. */
function fromPlaywright(report: { suites: PlaywrightSuite[]; config?: { rootDir?: string } }): FileTime[] {
  const byFile = new Map<string, FileTime>();
  const walk = (suite: PlaywrightSuite) => {
    const file = relative(root, resolve(report.config?.rootDir ?? root, suite.file));
    const entry = byFile.get(file) ?? { file, ms: 0, tests: 0 };
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        entry.tests += 1;
        for (const result of test.results) entry.ms += result.duration;
      }
    byFile.set(file, entry);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return [...byFile.values()].filter((f) => f.tests > 0);
}

const [countText, ...paths] = process.argv.slice(2);
const count = Number(countText) || 15;
const files: FileTime[] = [];
for (const path of paths) {
  if (!existsSync(path)) {
    console.log(`slowest-tests: no report at ${path} (that stage did not finish)`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  files.push(...(Array.isArray(report.testResults) ? fromVitest(report) : fromPlaywright(report)));
}
files.sort((a, b) => b.ms - a.ms);
const total = files.reduce((sum, f) => sum + f.ms, 0);
console.log(
  `\nThe ${Math.min(count, files.length)} slowest of ${files.length} test files (${(total / 60_000).toFixed(1)} min of file time in all):`,
);
for (const f of files.slice(0, count)) {
  console.log(`${(f.ms / 1000).toFixed(1).padStart(8)} s  ${String(f.tests).padStart(3)} tests  ${f.file}`);
}
