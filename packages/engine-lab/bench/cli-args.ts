/**
 * Command-line handling shared by the bench scripts: `--help` prints the usage and exits 0, an
 * unknown or malformed option prints what was wrong plus the usage and exits 2, and a missing dev
 * set says which command makes it — instead of a stack trace.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The command that makes the dev set the benches read by default. */
export const MAKE_DEV_SET = 'pnpm --filter @avatar-drive/engine-lab gen:dev';

/**
 * Parses `argv` (default: this process's arguments, without a `--` pnpm passes through) against
 * `options`; `--help`/`-h` prints `usage` and exits 0, a bad option prints the error and `usage`
 * and exits 2.
 */
export function parseBenchArgs<O extends Options>(
  usage: string,
  options: O,
  argv: string[] = process.argv.slice(2),
): ReturnType<typeof parseArgs<{ options: O & { help: { type: 'boolean'; short: 'h' } } }>>['values'] {
  const args = argv.filter((a) => a !== '--');
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage.trim());
    process.exit(0);
  }
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } } })
      .values as never;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage.trim()}`);
    process.exit(2);
  }
}

/**
 * Exits 2 with what to run first when `dir` is not a dev set (neither index.json nor any WAV):
 * `hint` names the option or variable that points elsewhere.
 */
export function requireDevSet(dir: string, hint: string): void {
  if (existsSync(join(dir, 'index.json'))) return;
  if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.wav'))) return;
  console.error(
    `No dev set at ${dir}.\nMake it first (about 1-2 min of CPU): ${MAKE_DEV_SET}\n` +
      `It writes to $AVATAR_DRIVE_DATA/dev (default packages/engine-lab/.data/dev); ${hint}.`,
  );
  process.exit(2);
}
