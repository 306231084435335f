/**
 * One region of three service nodes behind HAProxy, on Redis with Sentinel (all real processes):
 * limits hold across nodes, a node killed mid-utterance loses only its own sessions (which speak
 * again on another node), a node killed while an app is at its session limit gives its slots back
 * at once (its sessions come back instead of being refused with 4003 until their leases run out),
 * and a rolling restart under 100 live sessions costs nothing but retryable closes followed by
 * reconnects.
 */
import { audioInputMessage, decodeMessage, encodeMessage } from '@avatar-drive/core';
import { generateApiKey } from '@avatar-drive/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/cluster.js';
import { attemptSession, liveSessions, mintToken } from '../src/probe.js';
import { sleep } from '../src/processes.js';
import { readyz } from '../src/service-node.js';
import { Speaker } from '../src/speaker.js';

let cluster: Cluster;
const LIMITED = { appId: 'app_limited', apiKey: generateApiKey(), maxConcurrentSessions: 5 };
const FULL = { appId: 'app_full', apiKey: generateApiKey(), maxConcurrentSessions: 6 };

beforeAll(async () => {
  cluster = await startCluster({
    nodes: 3,
    apps: [{ appId: 'app_cluster', apiKey: generateApiKey() }, LIMITED, FULL],
    checkIntervalMs: 500,
    env: {
      AVATAR_DRIVE_TOKEN_RATE_LIMIT: '100000',
      AVATAR_DRIVE_DRAIN_DELAY_MS: '1500',
      AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS: '10',
    },
  });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

function speaker(app: { appId: string; apiKey: string } = cluster.app): Speaker {
  return new Speaker({
    consoleUrl: cluster.url,
    ingressUrl: cluster.ingressUrl,
    appId: app.appId,
    apiKey: app.apiKey,
  });
}

async function startSpeakers(count: number, app?: { appId: string; apiKey: string }): Promise<Speaker[]> {
  const speakers: Speaker[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, () => speaker(app));
    await Promise.all(batch.map((s) => s.start()));
    speakers.push(...batch);
  }
  return speakers;
}

async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
}

/** Until HAProxy routes to every node again (the checks need `rise 2` good answers). */
async function allNodesReady(): Promise<void> {
  for (const node of cluster.nodes) await node.ready();
  await sleep(1500);
}

describe('one region of three nodes', () => {
  it('an app limit of 5 is 5 across the three nodes, not 15; the token ledger is shared', async () => {
    const accepted = [];
    const refused = [];
    // Each node in turn, directly (not through the LB), so every node is asked.
    for (let i = 0; i < 9; i++) {
      const node = cluster.nodes[i % 3]!;
      const token = await mintToken(node.url, LIMITED.apiKey);
      const attempt = await attemptSession(node.ingressUrl, LIMITED.appId, token);
      if (attempt.outcome === 'accepted') accepted.push(attempt.socket);
      else refused.push(attempt);
    }
    // Closed before the verdict: sessions left open by a failure here would be counted on their
    // node by the kill test next, which then waits for sessions that never drop.
    for (const socket of accepted) socket.close();
    expect(accepted).toHaveLength(5);
    expect(refused).toEqual(Array.from({ length: 4 }, () => ({ outcome: 'closed', code: 4003 })));

    // A token used on one node is refused on the others.
    await until(async () => (await liveSessions(cluster.nodes[0]!.url)) === 0, 'sessions closed');
    const token = await mintToken(cluster.url, LIMITED.apiKey);
    const first = await attemptSession(cluster.nodes[0]!.ingressUrl, LIMITED.appId, token);
    expect(first.outcome).toBe('accepted');
    for (const node of cluster.nodes.slice(1)) {
      const again = await attemptSession(node.ingressUrl, LIMITED.appId, token);
      expect(again).toEqual({ outcome: 'http', status: 401 });
    }
    if (first.outcome === 'accepted') first.socket.close();
  });

  it('kill -9 of a node mid-utterance: its sessions speak again on another node; the others see nothing', async () => {
    const speakers = await startSpeakers(9);
    await sleep(1500); // every speaker mid-utterance or between two
    const counts = await Promise.all(cluster.nodes.map((n) => liveSessions(n.url)));
    const victim = counts.findIndex((c) => (c ?? 0) > 0);
    expect(victim).toBeGreaterThanOrEqual(0);
    const onVictim = counts[victim]!;
    const framesBefore = speakers.map((s) => s.frames);
    const killedAt = Date.now();
    await cluster.nodes[victim]!.kill();

    await until(
      () =>
        speakers.filter((s) => s.dropped && s.speakingAgainAt(killedAt) !== undefined).length === onVictim,
      `the ${onVictim} sessions of the killed node speaking again`,
    );
    const dropped = speakers.filter((s) => s.dropped);
    expect(dropped).toHaveLength(onVictim);
    const recovery = dropped.map((s) => s.speakingAgainAt(killedAt)! - killedAt);
    console.log(
      `node kill: ${onVictim} sessions speaking again after ${recovery.join(', ')} ms (see the cluster bench)`,
    );
    for (const s of dropped) {
      // One drop (1006, retryable), reported once; then connected again.
      expect(s.errors.map((e) => e.error?.retryable)).toEqual([true]);
      expect(s.session.state).toBe('connected');
    }
    // The others: no error, no state change, animation all along.
    await sleep(1000);
    for (const [i, s] of speakers.entries()) {
      if (s.dropped) continue;
      expect(s.errors).toEqual([]);
      expect(s.events.filter((e) => e.kind === 'state').map((e) => e.detail)).toEqual([
        'idle->connecting',
        'connecting->connected',
      ]);
      expect(s.frames).toBeGreaterThan(framesBefore[i]!);
    }
    await Promise.all(speakers.map((s) => s.stop()));
    await cluster.nodes[victim]!.start();
    await allNodesReady();
  });

  it('kill -9 of a node while an app is at its limit: its sessions come back at once, not refused with 4003', async () => {
    // Every slot of the app taken, spread over the three nodes.
    const speakers = await startSpeakers(FULL.maxConcurrentSessions, FULL);
    await sleep(1000);
    const extra = await attemptSession(
      cluster.ingressUrl,
      FULL.appId,
      await mintToken(cluster.url, FULL.apiKey),
    );
    expect(extra).toEqual({ outcome: 'closed', code: 4003 });
    const counts = await Promise.all(cluster.nodes.map((n) => liveSessions(n.url)));
    const victim = counts.findIndex((c) => (c ?? 0) > 0);
    expect(victim).toBeGreaterThanOrEqual(0);
    const killedAt = Date.now();
    await cluster.nodes[victim]!.kill();

    // The dropped sessions reconnect through HAProxy at once; the killed node's slots must not
    // count by then (its leases run 30 s; the SDKs do not retry 4003). 10 s is a third of that.
    await until(
      () => {
        const dropped = speakers.filter((s) => s.dropped);
        return dropped.length > 0 && dropped.every((s) => s.speakingAgainAt(killedAt) !== undefined);
      },
      "the killed node's sessions speaking again",
      10_000,
    );
    const dropped = speakers.filter((s) => s.dropped);
    const recovery = dropped.map((s) => s.speakingAgainAt(killedAt)! - killedAt);
    const connected = dropped.map(
      (s) => s.events.find((e) => e.at >= killedAt && e.detail === 'reconnecting->connected')!.at - killedAt,
    );
    console.log(
      `node kill at the app's limit (${FULL.maxConcurrentSessions}): ${dropped.length} dropped sessions connected again after ${connected.join(', ')} ms, speaking again after ${recovery.join(', ')} ms (bound 10,000 ms)`,
    );
    for (const s of dropped) {
      expect(s.errors.map((e) => e.error?.retryable)).toEqual([true]);
      expect(s.session.state).toBe('connected');
    }
    // Still at the limit: the killed node's slots were given to its sessions, not added to it.
    const again = await attemptSession(
      cluster.ingressUrl,
      FULL.appId,
      await mintToken(cluster.url, FULL.apiKey),
    );
    expect(again).toEqual({ outcome: 'closed', code: 4003 });
    await Promise.all(speakers.map((s) => s.stop()));
    await cluster.nodes[victim]!.start();
    await allNodesReady();
  });

  it('a draining node is unready, refuses new sessions with 4503 and lets the open utterance finish', async () => {
    const node = cluster.nodes[0]!;
    const ingress = node.ingressUrl;
    const open = await attemptSession(
      ingress,
      cluster.app.appId,
      await mintToken(node.url, cluster.app.apiKey),
    );
    if (open.outcome !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(open)}`);
    const socket = open.socket;
    const received: string[] = [];
    socket.on('message', (data: Buffer) => {
      const m = decodeMessage(data, { isBinary: true });
      if (m.data.case === 'serverResponseAnimation' && m.data.value.end) received.push('animation end');
      if (m.data.case === 'serverError') received.push(`error ${m.data.value.code}`);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // An utterance in progress: audio streaming in real time, input still open, so the node
    // must wait for it.
    const chunk = new Uint8Array(640);
    socket.send(encodeMessage(audioInputMessage({ reqId: 'req_drain', audio: chunk })));
    const streaming = setInterval(
      () => socket.send(encodeMessage(audioInputMessage({ reqId: 'req_drain', audio: chunk }))),
      20,
    );
    const token = await mintToken(node.url, cluster.app.apiKey);
    node.proc!.child.kill('SIGTERM');
    await until(async () => (await readyz(node.url)) === 503, '/readyz 503');
    // Refused, and the token not spent: it opens a session on another node.
    expect(await attemptSession(ingress, cluster.app.appId, token)).toEqual({
      outcome: 'closed',
      code: 4503,
    });
    const elsewhere = await attemptSession(cluster.nodes[1]!.ingressUrl, cluster.app.appId, token);
    expect(elsewhere.outcome).toBe('accepted');
    if (elsewhere.outcome === 'accepted') elsewhere.socket.close();
    // Still open well past the drain delay (1.5 s): its utterance has not ended.
    await sleep(2000);
    expect(received).toEqual([]);
    // The utterance ends: its animation completes, then the session is closed, retryable.
    clearInterval(streaming);
    socket.send(encodeMessage(audioInputMessage({ reqId: 'req_drain', audio: chunk, end: true })));
    expect(await closed).toBe(4503);
    expect(received).toEqual(['animation end', 'error 4503']);
    expect((await node.proc!.exited).code).toBe(0);
    await node.start();
    await allNodesReady();
  });

  it('rolling restart of all three nodes under 100 live sessions: only retryable closes, each followed by a reconnect', async () => {
    const speakers = await startSpeakers(100);
    await sleep(2000);
    for (const node of cluster.nodes) {
      await node.drain(); // SIGTERM, then wait for the process to exit
      await node.start();
      await allNodesReady();
    }
    await until(() => speakers.every((s) => s.session.state === 'connected'), 'every session connected');
    const restartedAt = Date.now();
    await until(
      () => speakers.every((s) => s.firstFramesAfter(restartedAt) !== undefined),
      'every session speaking after the restart',
    );
    const errors = speakers.flatMap((s) => s.errors);
    console.log(
      `rolling restart: ${speakers.filter((s) => s.dropped).length} of 100 sessions moved, ${errors.length} retryable closes`,
    );
    // Every session was on a restarted node at some point, so each moved at least once.
    expect(speakers.filter((s) => !s.dropped)).toEqual([]);
    for (const error of errors) {
      expect(error.error?.retryable).toBe(true);
      expect(error.error?.closeCode).toBe(4503);
    }
    for (const s of speakers) {
      // Every drop was followed by a reconnect: as many reconnecting→connected as connected→reconnecting.
      const states = s.events.filter((e) => e.kind === 'state').map((e) => e.detail);
      expect(states.filter((d) => d === 'reconnecting->connected').length).toBe(
        states.filter((d) => d === 'connected->reconnecting').length,
      );
      expect(states).not.toContain('reconnecting->closed');
    }
    await Promise.all(speakers.map((s) => s.stop()));
  }, 180_000);
});
