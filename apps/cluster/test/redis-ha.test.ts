/**
 * The cluster's Redis is ready for the service when RedisHA.start() resolves: every replica has its
 * first copy of the data, so a write is confirmed by WAIT at once. A replica that is connected but
 * not synced yet confirms nothing, and the nodes (which WAIT for one replica before accepting a
 * session token) refused every session with 4503 until it was: on a quiet machine the nodes were up
 * within Redis 7's default 5 s diskless-sync delay and the first sessions of nodes.test.ts were
 * refused.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlineReplicas, RedisHA } from '../src/redis-ha.js';

let ha: RedisHA;

beforeAll(async () => {
  ha = await RedisHA.start({ replicas: 2 });
}, 60_000);
afterAll(async () => {
  await ha?.stop();
});

describe('RedisHA.start()', () => {
  it('resolves with every replica online, so a write is confirmed by a replica right away', async () => {
    const primary = ha.servers[0]!.port;
    const replication = String(await ha.call(primary, 'INFO', 'replication'));
    expect(onlineReplicas(replication)).toBe(2);
    const client = new Redis({ port: primary, host: '127.0.0.1', maxRetriesPerRequest: 0 });
    try {
      await client.set('probe', '1');
      // The timeout only bounds a failure: online replicas answer WAIT's GETACK at once.
      expect(await client.wait(1, 10_000)).toBeGreaterThanOrEqual(1);
    } finally {
      client.disconnect();
    }
  });
});

describe('onlineReplicas', () => {
  it('counts the replicas listed online, not those still waiting for their first sync', () => {
    const info = [
      '# Replication',
      'role:master',
      'connected_slaves:3',
      'slave0:ip=127.0.0.1,port=7001,state=online,offset=1055,lag=0',
      'slave1:ip=127.0.0.1,port=7002,state=wait_bgsave,offset=0,lag=0',
      'slave2:ip=127.0.0.1,port=7003,state=online,offset=1055,lag=1',
      'master_repl_offset:1055',
    ].join('\r\n');
    expect(onlineReplicas(info)).toBe(2);
    expect(onlineReplicas('# Replication\r\nrole:master\r\nconnected_slaves:0\r\n')).toBe(0);
  });
});
