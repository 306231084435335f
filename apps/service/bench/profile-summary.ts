/**
 * `pnpm --filter @avatar-drive/service bench:profile DIR_OR_FILE…`: self time of a service CPU
 * profile (`--cpu-prof`, e.g. from `AVD_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"
 * pnpm bench:service …`), per function and per part of a session's cost (engine WebAssembly, engine
 * JavaScript, frame encoding, socket writes, input path, timers, GC, …), so that the breakdown in
 * docs/benchmarks.md can be reproduced from a profile file.
 *
 * A sample counts for the function it was taken in (self time) and for one part, chosen by that
 * function and its callers (see {@link PARTS}); "(idle)" (the loop waiting in epoll) is left out of
 * the shares. The sampler runs on wall time: a thread preempted by another process (on loopback,
 * often the bench client its write just woke) is billed to what it was running, so compare the
 * shares with the service's user/system CPU split the bench prints. `--skip-ms N` drops the profile's first N ms (start-up and
 * ramp), `--top N` sets how many functions are listed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One frame of a sample's stack: function name and source file. */
type Frame = CallFrame;

const isWasm = (f: Frame) => f.url.startsWith('wasm://') || /^wasm-function/.test(f.functionName);
const inFile = (stack: readonly Frame[], file: string, fn?: string) =>
  stack.some((f) => f.url.endsWith(file) && (fn === undefined || f.functionName === fn));
const has = (stack: readonly Frame[], fn: string) => stack.some((f) => f.functionName === fn);

/**
 * Parts of a session's cost, by where a sample was taken (its leaf) and what called it (its
 * stack): the first rule that matches names the part. The engine call and the animation output
 * are counted inclusively (all they call); "input" is what remains of a socket read.
 */
const PARTS: { part: string; test: (leaf: Frame, stack: readonly Frame[]) => boolean }[] = [
  { part: 'idle', test: (leaf) => leaf.functionName === '(idle)' },
  { part: 'GC', test: (leaf) => leaf.functionName === '(garbage collector)' },
  { part: '(program): native, outside JavaScript', test: (leaf) => leaf.functionName === '(program)' },
  {
    part: 'engine: WebAssembly',
    test: (leaf, stack) => isWasm(leaf) && inFile(stack, 'inline-pool.ts'),
  },
  {
    part: 'engine: frame objects (createDriveFrame)',
    test: (leaf, stack) => leaf.functionName === 'createDriveFrame' && inFile(stack, 'inline-pool.ts'),
  },
  { part: 'engine: JavaScript around it', test: (_, stack) => inFile(stack, 'inline-pool.ts') },
  {
    part: 'animation out: write system call',
    test: (leaf, stack) => leaf.functionName === 'writeBuffer' && inFile(stack, 'socket-output.ts', 'frames'),
  },
  {
    part: 'animation out: encoding (AnimationBytes, frame header)',
    test: (_, stack) =>
      inFile(stack, 'socket-output.ts', 'frames') && (has(stack, 'animationFrame') || has(stack, 'encode')),
  },
  {
    part: 'animation out: Node stream write path, backpressure check',
    test: (_, stack) => inFile(stack, 'socket-output.ts', 'frames'),
  },
  {
    part: 'other messages (playback states, confirm) through ws',
    test: (_, stack) => inFile(stack, 'ws-sender.ts') || inFile(stack, 'websocket.js', 'send'),
  },
  {
    part: 'input: read, stream, frame reader, decode, session logic',
    test: (_, stack) => has(stack, 'onStreamRead'),
  },
  { part: 'timers', test: (_, stack) => has(stack, 'listOnTimeout') || has(stack, 'processTimers') },
  {
    part: 'start-up (modules, compile)',
    test: (leaf, stack) =>
      stack.some((f) => f.url.includes('internal/modules') || f.url.includes('/tsx/')) ||
      leaf.functionName === 'compileFunction',
  },
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    'skip-ms': { type: 'string', default: '0' },
    'last-ms': { type: 'string' },
  },
});
if (positionals.length === 0 || process.argv.includes('--help')) {
  console.log(`Usage: pnpm --filter @avatar-drive/service bench:profile [--top 30] [--skip-ms 0 | --last-ms N] DIR_OR_FILE…

Self time per function and per part of a session's cost, from .cpuprofile files (a directory: all
of them, e.g. one per service process).`);
  process.exit(positionals.length === 0 ? 2 : 0);
}
const files = positionals.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(p, f))
    : [p],
);
const skipUs = Number(values['skip-ms']) * 1000;

const byFunction = new Map<string, number>();
const byPart = new Map<string, number>();
let total = 0;
let idle = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map<number, Frame[]>();
  const stackOf = (id: number): Frame[] => {
    let stack = stacks.get(id);
    if (!stack) {
      stack = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
        stack.push(nodes.get(at)!.callFrame);
      stacks.set(id, stack);
    }
    return stack;
  };
  // --last-ms: the end of the profile only (the bench's hold is its last seconds).
  const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const from = values['last-ms'] ? span - Number(values['last-ms']) * 1000 : skipUs;
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    t += profile.timeDeltas[i]!;
    if (t < from) continue;
    const frame = nodes.get(profile.samples[i]!)!.callFrame;
    const stack = stackOf(profile.samples[i]!);
    const part = PARTS.find((p) => p.test(frame, stack))?.part ?? 'other';
    if (part === 'idle') {
      idle += dt;
      continue;
    }
    total += dt;
    byPart.set(part, (byPart.get(part) ?? 0) + dt);
    const file = frame.url.replace(/^.*\/(packages|apps|node_modules)\//, '$1/');
    const key = `${frame.functionName || '(anonymous)'}  ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
  }
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
console.log(
  `${files.length} profile(s): ${(total / 1e6).toFixed(2)} s busy, ${(idle / 1e6).toFixed(2)} s idle (${values['last-ms'] ? `the last ${values['last-ms']} ms` : `after the first ${values['skip-ms']} ms`} of each)\n`,
);
console.log('| Part | Self time | Share of busy |\n| --- | ---: | ---: |');
for (const [part, us] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`| ${part} | ${(us / 1e6).toFixed(2)} s | ${pct(us)} |`);
console.log('\n| Function | Self time | Share of busy |\n| --- | ---: | ---: |');
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`| \`${key}\` | ${(us / 1e6).toFixed(2)} s | ${pct(us)} |`);
