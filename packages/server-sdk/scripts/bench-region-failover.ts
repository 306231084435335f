/**
 * Region failover bench: how long a conversation is interrupted when its region dies. Two
 * independent regions (service process + own Redis each); per run, region A is started fresh, a
 * Host-mode AvatarSession talks to it, and mid-utterance A's service is killed — SIGKILL of the
 * service and of its Redis (a crash), or SIGTERM (the peer: an orderly shutdown, sessions closed
 * with 4503). Figures: kill → connected to region B, and kill → first animation frame of the next
 * utterance (sent as soon as the session is connected again).
 *
 *   pnpm --filter @avatar-drive/server-sdk bench:failover   (RUNS=5 by default)
 */
import { TestRedis } from '../../../apps/service/test/support/redis-server.js';
import { regionFailover } from '../test/support/region-failover.js';
import { createFixtures, startServiceProcess, stopAllServices } from '../test/support/service-process.js';

const RUNS = Number(process.env.RUNS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main(): Promise<void> {
  const fixtures = await createFixtures();
  const redisB = await TestRedis.start();
  const regionB = await startServiceProcess({ region: 'us-west', fixtures, redisUrl: redisB.url });
  const results: Record<'SIGKILL' | 'SIGTERM', { connected: number[]; frame: number[] }> = {
    SIGKILL: { connected: [], frame: [] },
    SIGTERM: { connected: [], frame: [] },
  };
  try {
    for (let run = 0; run < RUNS; run++) {
      // Alternate, so drift on a noisy machine hits both alike.
      for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
        const redisA = await TestRedis.start();
        const regionA = await startServiceProcess({ region: 'ap-northeast', fixtures, redisUrl: redisA.url });
        const result = await regionFailover({
          fixtures,
          primary: regionA,
          backup: regionB,
          primaryRedis: signal === 'SIGKILL' ? redisA : undefined,
          signal,
        });
        await regionA.stop('SIGKILL');
        await redisA.kill();
        if (result.regions[1] !== 'us-west') throw new Error(`run ${run}: ended in ${result.regions[1]}`);
        results[signal].connected.push(result.killToConnectedMs);
        results[signal].frame.push(result.killToFirstFrameMs);
        const retries = result.retries.map((a) => `${a.region}@${a.atMs}ms${a.error ? `:${a.error}` : ''}`);
        console.log(
          `run ${run + 1} ${signal}: drop seen after ${result.dropAtMs.toFixed(0)} ms, connected to us-west after ${result.killToConnectedMs.toFixed(0)} ms, next utterance animated after ${result.killToFirstFrameMs.toFixed(0)} ms (attempts ${retries.join(', ')})`,
        );
      }
    }
  } finally {
    await stopAllServices();
    await redisB.kill();
  }
  const kill = results.SIGKILL;
  const term = results.SIGTERM;
  console.log(`\nmedian of ${RUNS} runs (ms)       kill→connected   kill→first frame`);
  console.log(
    `SIGKILL service + Redis       ${median(kill.connected).toFixed(0).padStart(14)}   ${median(kill.frame).toFixed(0).padStart(16)}`,
  );
  console.log(
    `SIGTERM service (peer)        ${median(term.connected).toFixed(0).padStart(14)}   ${median(term.frame).toFixed(0).padStart(16)}`,
  );
  console.log(
    `ratio crash / orderly         ${(median(kill.connected) / median(term.connected)).toFixed(2).padStart(14)}   ${(median(kill.frame) / median(term.frame)).toFixed(2).padStart(16)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
