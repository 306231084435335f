/**
 * `pnpm --filter @avatar-drive/service bench:profile DIR_OR_FILE…`: self time of a service CPU
 * profile (`--cpu-prof`, e.g. from `AVD_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"
 * pnpm bench:service …`), per function and per part of a session's cost (engine WebAssembly, engine
 * JavaScript, frame encoding, socket writes, input path, timers, GC, …), so that the breakdown in
 * docs/benchmarks.md can be reproduced from a profile file.
 *
 * A sample counts for the function it was taken in (self time); "(idle)" (the loop waiting in
 * epoll) is left out of the shares. The parts are assigned by the sampled function's name and
 * source file, the first matching rule winning (see {@link PARTS}); start-up (module loading,
 * compiling) shows as its own part. `--skip-ms N` drops the profile's first N ms (start-up and
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

/** Parts of a session's cost: the first rule whose test matches a sampled frame names its part. */
const PARTS: { part: string; test: (f: CallFrame) => boolean }[] = [
  { part: 'idle', test: (f) => f.functionName === '(idle)' },
  { part: 'GC', test: (f) => f.functionName === '(garbage collector)' },
  {
    part: 'engine: WebAssembly',
    test: (f) => f.url.startsWith('wasm://') || /^\$?f\d+$|^wasm-/.test(f.functionName),
  },
  {
    part: 'engine: frame objects (createDriveFrame)',
    test: (f) => f.functionName === 'createDriveFrame',
  },
  { part: 'engine: JavaScript', test: (f) => f.url.includes('/packages/engine/') },
  {
    part: 'output: animation encoding',
    test: (f) =>
      f.url.includes('response-animation') ||
      f.url.includes('animation-frames') ||
      f.url.includes('/wire/fast/varint'),
  },
  {
    part: 'socket writes (writev/writeBuffer)',
    test: (f) => /^(writev|writeBuffer|writeUtf8String|writeGeneric|writevGeneric)$/.test(f.functionName),
  },
  {
    part: 'input: frame reader, audio decode',
    test: (f) =>
      f.url.includes('frame-reader') ||
      f.url.includes('/wire/fast/audio-input') ||
      f.url.includes('/audio/') ||
      f.url.includes('intake-limiter'),
  },
  { part: 'socket reads (onStreamRead)', test: (f) => f.functionName === 'onStreamRead' },
  {
    part: 'session logic (drive-session, feed, clock, output)',
    test: (f) => f.url.includes('/src/ingress/') || f.url.includes('/engine-pool/'),
  },
  {
    part: 'overload guard, metrics',
    test: (f) => f.url.includes('overload-guard') || f.url.includes('metrics'),
  },
  { part: 'ws library', test: (f) => f.url.includes('/node_modules/') && f.url.includes('/ws/') },
  {
    part: 'timers',
    test: (f) =>
      /^(listOnTimeout|processTimers|insert|setTimeout|clearTimeout|unenroll|Timeout)$/.test(
        f.functionName,
      ) || f.url.includes('internal/timers'),
  },
  {
    part: 'Node streams, net, events',
    test: (f) =>
      f.url.startsWith('node:internal/streams') ||
      f.url.startsWith('node:net') ||
      f.url.startsWith('node:events') ||
      f.url.startsWith('node:internal/stream_base_commons') ||
      f.url.startsWith('node:buffer') ||
      f.url.startsWith('node:internal/buffer'),
  },
  {
    part: 'start-up (modules, compile)',
    test: (f) =>
      f.url.includes('internal/modules') ||
      f.url.includes('/tsx/') ||
      f.url.includes('esbuild') ||
      f.functionName === '(program)' ||
      f.functionName === 'compileFunction',
  },
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    'skip-ms': { type: 'string', default: '0' },
  },
});
if (positionals.length === 0 || process.argv.includes('--help')) {
  console.log(`Usage: pnpm --filter @avatar-drive/service bench:profile [--top 30] [--skip-ms 0] DIR_OR_FILE…

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
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    t += profile.timeDeltas[i]!;
    if (t < skipUs) continue;
    const frame = nodes.get(profile.samples[i]!)!.callFrame;
    const part = PARTS.find((p) => p.test(frame))?.part ?? 'other';
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
  `${files.length} profile(s): ${(total / 1e6).toFixed(2)} s busy, ${(idle / 1e6).toFixed(2)} s idle (skipped the first ${values['skip-ms']} ms of each)\n`,
);
console.log('| Part | Self time | Share of busy |\n| --- | ---: | ---: |');
for (const [part, us] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`| ${part} | ${(us / 1e6).toFixed(2)} s | ${pct(us)} |`);
console.log('\n| Function | Self time | Share of busy |\n| --- | ---: | ---: |');
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`| \`${key}\` | ${(us / 1e6).toFixed(2)} s | ${pct(us)} |`);
