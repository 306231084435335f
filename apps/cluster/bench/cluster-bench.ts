/**
 * `pnpm --filter @avatar-drive/cluster bench`: what a region of nodes costs when something fails,
 * measured on real processes (3 service nodes, HAProxy, Redis primary + 2 replicas, 3 sentinels):
 *
 * - kill: kill -9 of the node with the most sessions, mid-utterance; per session it held, the time
 *   from the kill to its first animation from another node (speaking again), and to `connected`;
 * - failover: kill -9 of the Redis primary; the time until a new session is accepted again (a
 *   session attempt every 100 ms with a fresh token), and until the sentinels name the new primary;
 * - drain: SIGTERM to the node with the most sessions (speakers with 2 s utterances); the time to
 *   /readyz 503, to the process's exit, and per session it held from its close to speaking again;
 * - capacity: the service bench (apps/service/bench) through HAProxy in front of one node, then
 *   straight at that node, in the same invocation: sessions per node at p99 lateness < 40 ms behind
 *   the load balancer, with the direct run as the peer.
 *
 * Flags: --what kill,failover,drain,capacity  --rounds 3  --speakers 12  --steps 100,200,300
 *        --hold 8  --down-after 1000 (Sentinel down-after-milliseconds)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Cluster, startCluster } from '../src/cluster.js';
import { attemptSession, liveSessions, mintToken } from '../src/probe.js';
import { sleep } from '../src/processes.js';
import { readyz } from '../src/service-node.js';
import { Speaker } from '../src/speaker.js';

const { values } = parseArgs({
  options: {
    what: { type: 'string', default: 'kill,failover,drain,capacity' },
    rounds: { type: 'string', default: '3' },
    speakers: { type: 'string', default: '12' },
    steps: { type: 'string', default: '100,200,300' },
    hold: { type: 'string', default: '8' },
    'down-after': { type: 'string', default: '1000' },
  },
});
const WHAT = values.what!.split(',');
const ROUNDS = Number(values.rounds);
const SPEAKERS = Number(values.speakers);
const load = async () =>
  (await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
  return `n=${s.length} min ${s[0]} p50 ${q(50)} max ${s.at(-1)} ms`;
};

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

function speakers(cluster: Cluster, count: number, utteranceMs: number, pauseMs: number): Speaker[] {
  return Array.from(
    { length: count },
    () =>
      new Speaker({
        consoleUrl: cluster.url,
        ingressUrl: cluster.ingressUrl,
        appId: cluster.app.appId,
        apiKey: cluster.app.apiKey,
        utteranceMs,
        pauseMs,
      }),
  );
}

async function busiestNode(cluster: Cluster): Promise<number> {
  const counts = await Promise.all(cluster.nodes.map((n) => liveSessions(n.url)));
  return counts.reduce<number>((best, c, i) => ((c ?? 0) > (counts[best] ?? 0) ? i : best), 0);
}

/** A token, retrying while the store is still settling after a round (503). */
async function mint(cluster: Cluster): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await mintToken(cluster.url, cluster.app.apiKey);
    } catch (error) {
      if (attempt >= 40) throw error;
      await sleep(250);
    }
  }
}

const ENV = { AVATAR_DRIVE_TOKEN_RATE_LIMIT: '1000000' };

async function benchKill(): Promise<void> {
  const cluster = await startCluster({ nodes: 3, env: ENV });
  try {
    const speaking: number[] = [];
    const connected: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const group = speakers(cluster, SPEAKERS, 1000, 100);
      await Promise.all(group.map((s) => s.start()));
      await sleep(1500);
      const victim = await busiestNode(cluster);
      const killedAt = Date.now();
      await cluster.nodes[victim]!.kill();
      await until(() =>
        group.filter((s) => s.dropped).every((s) => s.speakingAgainAt(killedAt) !== undefined),
      );
      for (const s of group.filter((x) => x.dropped)) {
        // Animation counts from the new connection on (frames of the dead node may still arrive
        // in the first milliseconds after the kill).
        const back = s.events.find((e) => e.at >= killedAt && e.detail === 'reconnecting->connected');
        const again = s.speakingAgainAt(killedAt);
        if (back && again) {
          connected.push(back.at - killedAt);
          speaking.push(again - killedAt);
        }
      }
      console.log(
        `kill round ${round + 1}: ${group.filter((s) => s.dropped).length} sessions moved (load ${await load()})`,
      );
      await Promise.all(group.map((s) => s.stop()));
      await cluster.nodes[victim]!.start();
      for (const node of cluster.nodes) await node.ready();
      await sleep(2500);
    }
    console.log(`RESULT kill -9 of a node → its sessions speaking again on another node: ${stats(speaking)}`);
    console.log(`RESULT kill -9 of a node → its sessions connected again: ${stats(connected)}`);
  } finally {
    await cluster.stop();
  }
}

async function benchFailover(): Promise<void> {
  const downAfter = Number(values['down-after']);
  const cluster = await startCluster({
    nodes: 3,
    env: ENV,
    redis: { replicas: 2, downAfterMs: downAfter, failoverTimeoutMs: Math.max(3000, downAfter * 3) },
  });
  try {
    const gaps: number[] = [];
    const switches: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const tokens: string[] = [];
      for (let i = 0; i < 200; i += 20) {
        const batch = Array.from({ length: 20 }, () => mint(cluster));
        tokens.push(...(await Promise.all(batch)));
      }
      const old = await cluster.redis.primaryPort();
      const killedAt = Date.now();
      await cluster.redis.killPrimary();
      const switched = cluster.redis.waitForFailover(old!, 60_000).then(() => Date.now() - killedAt);
      let refused = 0;
      for (const token of tokens) {
        const attempt = await attemptSession(cluster.ingressUrl, cluster.app.appId, token);
        if (attempt.outcome === 'accepted') {
          attempt.socket.close();
          break;
        }
        if (!(attempt.outcome === 'closed' && attempt.code === 4503))
          throw new Error(`unexpected outcome in the gap: ${JSON.stringify(attempt)}`);
        refused++;
        await sleep(100);
      }
      gaps.push(Date.now() - killedAt);
      switches.push(await switched);
      console.log(
        `failover round ${round + 1}: ${refused} attempts refused with 4503 (load ${await load()})`,
      );
      // The old primary comes back (emptied) as a replica of the new one, for the next round.
      await cluster.redis.restartServer(old!);
      for (const node of cluster.nodes) await node.ready();
      await sleep(3000);
    }
    console.log(
      `RESULT Redis primary kill -9 → new sessions accepted again (down-after ${downAfter} ms): ${stats(gaps)}`,
    );
    console.log(`RESULT Redis primary kill -9 → sentinels name the new primary: ${stats(switches)}`);
  } finally {
    await cluster.stop();
  }
}

async function benchDrain(): Promise<void> {
  const cluster = await startCluster({ nodes: 3, env: ENV });
  try {
    const unready: number[] = [];
    const exited: number[] = [];
    const back: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const group = speakers(cluster, SPEAKERS * 2, 2000, 300);
      await Promise.all(group.map((s) => s.start()));
      await sleep(2500);
      const victim = cluster.nodes[await busiestNode(cluster)]!;
      const start = Date.now();
      victim.proc!.child.kill('SIGTERM');
      const ready = (async () => {
        await until(async () => (await readyz(victim.url)) !== 200);
        return Date.now() - start;
      })();
      await victim.proc!.exited;
      exited.push(Date.now() - start);
      unready.push(await ready);
      await until(() => group.filter((s) => s.dropped).every((s) => s.speakingAgainAt(start) !== undefined));
      for (const s of group.filter((x) => x.dropped)) {
        const closedAt = s.events.find((e) => e.at >= start && e.detail === 'connected->reconnecting')?.at;
        const again = closedAt && s.speakingAgainAt(closedAt);
        if (closedAt && again) back.push(again - closedAt);
      }
      console.log(
        `drain round ${round + 1}: ${group.filter((s) => s.dropped).length} sessions moved (load ${await load()})`,
      );
      await Promise.all(group.map((s) => s.stop()));
      await victim.start();
      for (const node of cluster.nodes) await node.ready();
      await sleep(2500);
    }
    console.log(`RESULT SIGTERM → /readyz 503: ${stats(unready)}`);
    console.log(
      `RESULT SIGTERM → node exited (drain delay 3000 ms, then each session as its utterance ends): ${stats(exited)}`,
    );
    console.log(`RESULT drained session closed → speaking again on another node: ${stats(back)}`);
  } finally {
    await cluster.stop();
  }
}

/** The service bench against `url`; resolves when it exits (its output goes to ours). */
function serviceBench(url: string, apiKey: string, appId: string, pids: number[]): Promise<void> {
  const bench = join(import.meta.dirname, '../../service/bench/service-bench.ts');
  const args = ['--import', 'tsx', bench, '--url', url, '--app-id', appId, '--avatar', 'mika'];
  args.push('--pids', pids.join(','), '--steps', values.steps!, '--hold', values.hold!);
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, AVD_BENCH_API_KEY: apiKey },
    cwd: join(import.meta.dirname, '../../service'),
  });
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function benchCapacity(): Promise<void> {
  const cluster = await startCluster({
    nodes: 1,
    env: { ...ENV, AVATAR_DRIVE_MAX_SESSIONS_PER_APP: '100000', LOG_LEVEL: 'error' },
  });
  try {
    const node = cluster.nodes[0]!;
    console.log(`\n== capacity: through HAProxy (${cluster.url}) in front of one node`);
    await serviceBench(cluster.url, cluster.app.apiKey, cluster.app.appId, [
      node.proc!.pid,
      cluster.haproxy.proc.pid,
    ]);
    console.log(`\n== capacity: the same node directly (${node.url}), the peer`);
    await serviceBench(node.url, cluster.app.apiKey, cluster.app.appId, [node.proc!.pid]);
  } finally {
    await cluster.stop();
  }
}

console.log(`cluster bench ${new Date().toISOString()}, load average ${await load()}`);
for (const what of WHAT) {
  const run = { kill: benchKill, failover: benchFailover, drain: benchDrain, capacity: benchCapacity }[what];
  if (!run) throw new Error(`--what takes kill, failover, drain, capacity; not ${what}`);
  try {
    await run();
  } catch (error) {
    console.error(`${what}: the run failed: ${(error as Error).stack}`);
  }
}
process.exit(0);
