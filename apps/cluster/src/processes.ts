/**
 * Child processes of the local cluster: spawned with their output kept (for error messages and an
 * optional log sink), killed with the test or script that started them, waited on for a condition.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

/** Children still running, killed when this process exits (one listener for all of them). */
const LIVE = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of LIVE) child.kill('SIGKILL');
});

/** Where the output of every process goes (name, one line); nowhere by default. */
export type LogSink = (name: string, line: string) => void;

/** A running child process and the tail of its output. */
export class Proc {
  readonly child: ChildProcess;
  readonly name: string;
  #output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    name: string,
    command: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv; log?: LogSink },
  ) {
    this.name = name;
    this.child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    // Never outlive the process that started it (a timed-out test skips its cleanup).
    LIVE.add(this.child);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        LIVE.delete(this.child);
        resolve({ code, signal });
      }),
    );
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      this.#output = (this.#output + text).slice(-20_000);
      if (options.log) for (const line of text.split('\n')) if (line.trim()) options.log(name, line);
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last 20 000 characters the process printed. */
  get output(): string {
    return this.#output;
  }

  /** Waits until `check` passes, failing early (with the output) if the process exits. */
  async until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (!this.running) throw new Error(`${this.name} exited before ${what}:\n${this.#output}`);
      if (Date.now() > deadline)
        throw new Error(`${this.name}: no ${what} within ${timeoutMs} ms:\n${this.#output}`);
      await sleep(50);
    }
  }

  /** Sends `signal` and resolves when the process has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    await this.exited;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    setTimeout(() => done(false), 500).unref();
  });
}
