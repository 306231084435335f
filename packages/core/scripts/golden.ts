/// <reference types="node" />
/**
 * Regenerates or checks the golden byte vectors in test/fixtures.
 *
 *   tsx scripts/golden.ts --check   exit 1 if any fixture differs from what the code encodes
 *   tsx scripts/golden.ts --write   rewrite the fixtures
 *
 * Each vector is <name>.hex (lowercase hex, one line) plus <name>.json: the protobuf JSON form
 * of a driveningress.v2 Message, or the fields of a relay message with bytes as hex.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goldenFiles } from '../test/golden/files.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const mode = process.argv[2];
if (mode !== '--check' && mode !== '--write') {
  console.error('usage: tsx scripts/golden.ts --check | --write');
  process.exit(2);
}

let stale = 0;
for (const [file, content] of goldenFiles()) {
  const path = join(fixtures, file);
  if (mode === '--write') {
    writeFileSync(path, content);
    continue;
  }
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== content) {
    stale += 1;
    console.error(`${current === undefined ? 'missing' : 'differs'}: test/fixtures/${file}`);
  }
}
if (mode === '--write') console.log(`wrote ${goldenFiles().size} files to test/fixtures`);
else if (stale > 0) {
  console.error(
    `${stale} golden file(s) out of date; if the change is intended, run: pnpm --filter @avatar-drive/core golden:write`,
  );
  process.exit(1);
} else console.log(`all ${goldenFiles().size} golden files match`);
