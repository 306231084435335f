/**
 * The Redis primary dies under a region of three nodes (real redis-server, redis-sentinel,
 * HAProxy and service processes): Sentinel promotes a replica; while it does, new sessions are
 * refused with 4503 (no crash, no hang) and established ones keep going; afterwards sessions are
 * accepted again; and no token is accepted twice across the failover, including tokens used while
 * replication was cut, whose writes the failover loses (asynchronous replication): without the
 * WAIT for a replica, those would be accepted before the failover and again after it.
 */
import { generateApiKey } from '@avatar-drive/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/cluster.js';
import { type Attempt, attemptSession, mintToken } from '../src/probe.js';
import { sleep } from '../src/processes.js';
import { Speaker } from '../src/speaker.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    nodes: 3,
    apps: [{ appId: 'app_failover', apiKey: generateApiKey() }],
    checkIntervalMs: 500,
    redis: { replicas: 2, downAfterMs: 1000, failoverTimeoutMs: 3000 },
    env: { AVATAR_DRIVE_TOKEN_RATE_LIMIT: '100000' },
  });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

/** Every attempt made with each token, in order. */
const uses = new Map<string, string[]>();

const describeOutcome = (a: Attempt) =>
  a.outcome === 'closed' ? `closed ${a.code}` : a.outcome === 'http' ? `http ${a.status}` : a.outcome;

async function attempt(token: string): Promise<Attempt> {
  const result = await attemptSession(cluster.ingressUrl, cluster.app.appId, token);
  uses.set(token, [...(uses.get(token) ?? []), describeOutcome(result)]);
  if (result.outcome === 'accepted') result.socket.close();
  return result;
}

describe('Redis primary failover under a region of three nodes', () => {
  it('refuses new sessions with 4503 during the gap, keeps established ones, accepts after, never accepts a token twice', async () => {
    const { app } = cluster;
    const speakers = Array.from(
      { length: 6 },
      () =>
        new Speaker({
          consoleUrl: cluster.url,
          ingressUrl: cluster.ingressUrl,
          appId: app.appId,
          apiKey: app.apiKey,
        }),
    );
    await Promise.all(speakers.map((s) => s.start()));
    // Tokens are minted ahead: minting counts a rate limit in Redis, so it pauses in the gap too.
    const tokens = await Promise.all(Array.from({ length: 60 }, () => mintToken(cluster.url, app.apiKey)));
    const before = tokens.slice(0, 4);
    const lagging = tokens.slice(4, 8);
    const during = tokens.slice(8);

    // Used normally: replicated before the session starts.
    for (const token of before) expect(describeOutcome(await attempt(token))).toBe('accepted');

    // Replication cut (the replicas stopped, their links closed by the primary): the primary marks
    // these tokens used, but no replica gets the write, so none confirms it (WAIT) and the sessions
    // are refused (4503) rather than started on a write the failover will lose.
    const primary = await cluster.redis.primaryPort();
    const replicas = cluster.redis.servers.filter((s) => s.port !== primary);
    for (const r of replicas) r.proc.child.kill('SIGSTOP');
    await cluster.redis.call(primary!, 'CLIENT', 'KILL', 'TYPE', 'replica');
    const laggingOutcomes = await Promise.all(lagging.map(attempt));
    const killedAt = Date.now();
    await cluster.redis.killPrimary();
    for (const r of replicas) r.proc.child.kill('SIGCONT');
    expect(laggingOutcomes.map(describeOutcome)).toEqual(lagging.map(() => 'closed 4503'));

    // The gap: every new session is refused with 4503 (never a hang: each attempt has 10 s) until
    // the promoted replica takes writes.
    const framesAtKill = speakers.map((s) => s.frames);
    const gap: string[] = [];
    let acceptedAt: number | undefined;
    for (const token of during) {
      const outcome = describeOutcome(await attempt(token));
      gap.push(outcome);
      if (outcome === 'accepted') {
        acceptedAt = Date.now();
        break;
      }
      await sleep(200);
    }
    expect(acceptedAt, `no session accepted after the failover: ${gap.join(', ')}`).toBeDefined();
    expect(gap.slice(0, -1).every((o) => o === 'closed 4503')).toBe(true);
    console.log(
      `failover: ${gap.length - 1} attempts refused with 4503, first accepted ${acceptedAt! - killedAt} ms after the kill (see the cluster bench)`,
    );
    // The sentinels agree on a new primary (each learns it from the one that did the failover).
    expect(await cluster.redis.waitForFailover(primary!)).not.toBe(primary);

    // Established sessions kept going through the gap.
    for (const [i, s] of speakers.entries()) {
      expect(s.errors).toEqual([]);
      expect(s.session.state).toBe('connected');
      expect(s.frames).toBeGreaterThan(framesAtKill[i]!);
    }

    // Single use across the failover: every token again. Those accepted before are refused; the
    // lagging ones (refused, their write lost with the old primary) may be accepted now, once.
    // (Each node follows the switch on its own: wait until all of them are back.)
    for (const node of cluster.nodes) await node.ready();
    for (const token of [...before, ...lagging]) {
      for (let i = 0; i < 20 && describeOutcome(await attempt(token)) === 'closed 4503'; i++)
        await sleep(250);
    }
    for (const token of before) {
      expect(uses.get(token)!.filter((o) => o !== 'closed 4503')).toEqual(['accepted', 'http 401']);
    }
    for (const token of tokens) {
      const accepted = (uses.get(token) ?? []).filter((o) => o === 'accepted').length;
      expect(accepted).toBeLessThanOrEqual(1);
    }
    // And the store is whole again: minting works, and the same token twice, now. Until the
    // replicas have synced with the new primary a use can still go unconfirmed (4503, that token
    // spent), so fresh tokens are tried for a bounded while, as a client would after a 4503.
    let fresh = await mintToken(cluster.url, app.apiKey);
    let first = describeOutcome(await attempt(fresh));
    for (let i = 0; i < 20 && first === 'closed 4503'; i++) {
      await sleep(250);
      fresh = await mintToken(cluster.url, app.apiKey);
      first = describeOutcome(await attempt(fresh));
    }
    expect(first).toBe('accepted');
    expect(describeOutcome(await attempt(fresh))).toBe('http 401');
    await Promise.all(speakers.map((s) => s.stop()));
  });
});
