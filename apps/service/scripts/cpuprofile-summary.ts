/**
 * Summarises V8 CPU profiles of the service under bench load: self time by bucket (engine, socket
 * write syscalls, service code, Node streams, ws, GC, …) and by function, as shares of the busy
 * (non-idle) samples in a window before the profile's end — the bench's hold, not start-up.
 *
 *   AVD_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" pnpm bench:service --steps 200 --modes inline --hold 10
 *   pnpm --filter @avatar-drive/service exec tsx scripts/cpuprofile-summary.ts [--window 9] [--tail 1] [--top 30] /tmp/prof/*.cpuprofile
 *
 * V8 inlines small functions into their callers: with the inline engine, the driver's `push` is
 * counted in DriveSession's `#audioNow`, so read the function list beside the buckets.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    window: { type: 'string', default: '9' },
    tail: { type: 'string', default: '1' },
    top: { type: 'string', default: '30' },
  },
});
const WINDOW_US = Number(values.window) * 1e6;
const TAIL_US = Number(values.tail) * 1e6;
const TOP = Number(values.top);

function shortUrl(url: string): string {
  return url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1').replace(/^.*\/(apps|packages)\//, '$1/');
}

function bucketOf(name: string, url: string): string {
  if (url.includes('packages/engine')) return 'engine';
  if (url.includes('packages/core')) return 'core (mostly the engine allocating frames)';
  if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(name)) return 'socket write syscalls';
  if (url.startsWith('ws@')) return 'ws';
  if (url.includes('apps/service/src')) return 'service code';
  if (url.startsWith('node:internal/streams') || url.includes('stream_base') || url === 'node:net')
    return 'Node streams / net';
  if (name === '(garbage collector)') return 'GC';
  if (url.includes('@bufbuild')) return 'protobuf-es';
  if (url === 'node:events') return 'events';
  if (name === '(program)') return '(program): native, outside JS';
  if (name === 'runMicrotasks' || url.includes('task_queues') || url.includes('timers'))
    return 'microtasks / timers';
  return 'other';
}

function add<K>(map: Map<K, number>, key: K, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const to = profile.endTime - TAIL_US;
  const from = to - WINDOW_US;
  const selfTime = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    const next = t + (profile.timeDeltas[i + 1] ?? 0);
    if (t < from || t > to) continue;
    add(selfTime, profile.samples[i]!, next - t);
  }
  let total = 0;
  let idle = 0;
  const byBucket = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfTime) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    total += us;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    add(byBucket, bucketOf(functionName, shortUrl(url)), us);
    add(byFunction, `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber}`, us);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s window, busy ${((100 * busy) / total).toFixed(0)} % (${(busy / 1e6).toFixed(2)} s)`,
  );
  console.log('  buckets (share of busy):');
  for (const [k, v] of [...byBucket].sort((a, b) => b[1] - a[1])) console.log(`    ${pct(v)}  ${k}`);
  console.log('  functions (share of busy):');
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`    ${pct(v)}  ${k}`);
}
