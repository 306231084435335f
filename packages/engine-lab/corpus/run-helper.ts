/**
 * Runs one synthesis helper process (espeak-align, flite-align, festival, kokoro-align) to the end:
 * writes its whole input to stdin, collects stdout and stderr, and resolves with them and the exit
 * code. Whether a code or an output is a failure is the caller's call (festival exits 0 on a Scheme
 * error, flite-align must report every job); only a helper that cannot start rejects here, with what
 * to install.
 */
import { spawn } from 'node:child_process';

/** What a finished helper left. */
export interface HelperRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface HelperOptions {
  /** Written to stdin, which is then closed (at once when absent). */
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** Appended to the error when the helper cannot start (e.g. how to install it). */
  hint?: string;
}

/** Runs `command args`; `name` is how errors call it. */
export function runHelper(
  name: string,
  command: string,
  args: readonly string[],
  options: HelperOptions = {},
): Promise<HelperRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', (err) =>
      reject(new Error(`cannot run ${name} (${err.message})${options.hint ? `; ${options.hint}` : ''}`)),
    );
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a helper that exits early closes its stdin: its exit code says why
    child.stdin.end(options.input ?? '');
  });
}
