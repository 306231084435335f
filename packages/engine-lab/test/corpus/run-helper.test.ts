import { describe, expect, it } from 'vitest';
import { runHelper } from '../../corpus/run-helper.js';

describe('runHelper', () => {
  it('feeds stdin and hands back stdout, stderr and the exit code', async () => {
    const script =
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(s.toUpperCase());process.stderr.write('warn');process.exit(3)})";
    const run = await runHelper('upper', process.execPath, ['-e', script], { input: 'a\tb\n' });
    expect(run).toEqual({ code: 3, stdout: 'A\tB\n', stderr: 'warn' });
  });

  it('passes the environment it is given', async () => {
    const run = await runHelper(
      'env',
      process.execPath,
      ['-e', 'process.stdout.write(process.env.X_HELPER ?? "-")'],
      {
        env: { ...process.env, X_HELPER: 'yes' },
      },
    );
    expect(run.stdout).toBe('yes');
  });

  it('says which helper cannot start, and what to do', async () => {
    await expect(
      runHelper('festival', '/nonexistent/festival', ['--batch'], {
        hint: 'install it with bash scripts/setup.sh',
      }),
    ).rejects.toThrow(/cannot run festival \(.*ENOENT.*\); install it with bash scripts\/setup\.sh/);
  });
});
