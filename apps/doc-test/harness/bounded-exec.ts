/**
 * Runs one code block's process with a time limit: exit status and output (bounded), and whatever
 * the block started in the background is killed with it (its own process group).
 */
import { spawn } from 'node:child_process';

export function runBounded(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ ok: boolean; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const take = (chunk: Buffer) => {
      if (output.length < 20_000) output += chunk.toString();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      output += `\n[doc-test] timed out after ${options.timeoutMs / 1000} s`;
      process.kill(-child.pid!, 'SIGKILL');
    }, options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      done({ ok: code === 0, output });
    });
  });
}
