/** Runs a real HAProxy (Debian package) with a given configuration, for proxy tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class TestHaproxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly output: () => string,
  ) {}

  /**
   * Starts `haproxy -db` (foreground) on `config` and waits until every port in `ports` accepts
   * connections on 127.0.0.1.
   */
  static async start(config: string, ports: number[]): Promise<TestHaproxy> {
    const dir = await mkdtemp(join(tmpdir(), 'avd-haproxy-'));
    const file = join(dir, 'haproxy.cfg');
    await writeFile(file, config);
    const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const deadline = Date.now() + 10_000;
    for (const port of ports) {
      while (!(await accepts(port))) {
        if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${out}`);
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`haproxy did not listen on ${port}: ${out}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return new TestHaproxy(child, () => out);
  }

  /** What haproxy printed (warnings, errors). */
  get log(): string {
    return this.output();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
