/**
 * The LiveKit Agents avatar output contract against the real LiveKit server: the avatar calls
 * `lk.playback_started` / `lk.playback_finished` on the agent participant (an rtc-node Room here,
 * registering the handlers as livekit-agents' DataStreamAudioOutput does) and takes the agent's
 * `lk.clear_buffer`.
 */
import { randomUUID } from 'node:crypto';
import { wire } from '@avatar-drive/core';
import { Room, type RpcInvocationData } from '@livekit/rtc-node';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { LiveKitEgressProvider, PUBLISH_ON_BEHALF_ATTRIBUTE } from '../src/egress/index.js';
import { AGENT_IDENTITY_PARAM, PLAYBACK_RPC_PARAM } from '../src/egress/livekit-egress.js';
import {
  AGENT_IDENTITY_ATTRIBUTE,
  playbackFinishedPayload,
  RPC_CLEAR_BUFFER,
  RPC_PLAYBACK_FINISHED,
  RPC_PLAYBACK_STARTED,
} from '../src/egress/playback-rpc.js';
import type { EgressSession } from '../src/egress/types.js';
import type { RunningService } from '../src/service.js';
import { API_KEY, API_SECRET, joinToken, tone, wallNow } from './helpers/room-listener.js';
import { makeAvatarsDir, mintToken, startTestService, TestClient } from './support/harness.js';

const url = inject('livekitUrl');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Call {
  method: string;
  payload: string;
  caller: string;
  atMs: number;
}

/** A LiveKit agent participant that records the playback RPCs the avatar makes. */
class Agent {
  readonly room = new Room();
  readonly calls: Call[] = [];
  constructor(readonly identity: string) {}

  async join(roomName: string, register = true): Promise<void> {
    await this.room.connect(url, await joinToken(roomName, this.identity, { kind: 'agent' }), {
      autoSubscribe: false,
      dynacast: false,
    });
    if (!register) return;
    for (const method of [RPC_PLAYBACK_STARTED, RPC_PLAYBACK_FINISHED]) {
      this.room.localParticipant!.registerRpcMethod(method, async (data: RpcInvocationData) => {
        this.calls.push({ method, payload: data.payload, caller: data.callerIdentity, atMs: wallNow() });
        return 'ok';
      });
    }
  }

  async until(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.calls.length < count) {
      if (Date.now() > deadline)
        throw new Error(`waited for ${count} RPCs, got ${JSON.stringify(this.calls)}`);
      await sleep(20);
    }
  }

  clearBuffer(avatar: string): Promise<string> {
    return this.room.localParticipant!.performRpc({
      destinationIdentity: avatar,
      method: RPC_CLEAR_BUFFER,
      payload: '',
    });
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(options: {
  attributes: Record<string, string>;
  extraParams?: Record<string, string>;
  agent: string;
  register?: boolean;
}) {
  const roomName = `rpc-${randomUUID()}`;
  const agent = new Agent(options.agent);
  await agent.join(roomName, options.register ?? true);
  cleanups.push(() => agent.room.disconnect());
  const session = await new LiveKitEgressProvider({ allowedHosts: [url] }).open({
    connectionId: 'conn-rpc',
    avatarId: 'avatar-test',
    sampleRate: 16000,
    livekit: {
      url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      roomName,
      publisherId: 'avatar-rpc',
      extraAttributes: options.attributes,
      idleTimeout: 0,
      apiToken: '',
    },
    extraParams: options.extraParams,
  });
  cleanups.push(() => session.close());
  return { agent, session };
}

function waitFor(session: EgressSession, event: 'ended' | 'interrupted', reqId: string) {
  return new Promise<{ playedMs: number; atMs: number }>((resolve) => {
    const listener = (e: { reqId: string; playedMs: number }) => {
      if (e.reqId !== reqId) return;
      session.off(event, listener);
      resolve({ playedMs: e.playedMs, atMs: wallNow() });
    };
    session.on(event, listener);
  });
}

describe('LiveKit avatar playback RPCs (real server)', () => {
  it('calls lk.playback_started, then lk.playback_finished with the played position, per segment', async () => {
    const { agent, session } = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-a' },
      agent: 'agent-a',
    });
    const playingAt: number[] = [];
    session.on('playing', () => playingAt.push(wallNow()));
    const ended1 = waitFor(session, 'ended', 'r1');
    session.pushAudio(tone(16000, 0.6), 16000, 'r1', true);
    session.pushAudio(tone(16000, 0.4), 16000, 'r2', true);
    const ended = await ended1;
    await agent.until(4);
    expect(agent.calls.map((c) => c.method)).toEqual([
      RPC_PLAYBACK_STARTED,
      RPC_PLAYBACK_FINISHED,
      RPC_PLAYBACK_STARTED,
      RPC_PLAYBACK_FINISHED,
    ]);
    expect(agent.calls.every((c) => c.caller === 'avatar-rpc')).toBe(true);
    expect(agent.calls[0]!.payload).toBe('');
    expect(JSON.parse(agent.calls[1]!.payload)).toEqual({ playback_position: 0.6, interrupted: false });
    expect(JSON.parse(agent.calls[3]!.payload)).toEqual({ playback_position: 0.4, interrupted: false });
    // The finish reaches the agent right after the audio left the track (one RPC round trip).
    console.log(
      `[rpc] playing → lk.playback_started at the agent: ${(agent.calls[0]!.atMs - playingAt[0]!).toFixed(1)} ms, ${(agent.calls[2]!.atMs - playingAt[1]!).toFixed(1)} ms; ended → lk.playback_finished: ${(agent.calls[1]!.atMs - ended.atMs).toFixed(1)} ms`,
    );
    expect(agent.calls[1]!.atMs - ended.atMs).toBeLessThan(1000);
  });

  it("honours the agent's lk.clear_buffer and reports the interrupted position", async () => {
    const { agent, session } = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-b' },
      agent: 'agent-b',
    });
    // The session's part (EgressOutput): a clear-buffer interrupts whatever plays.
    session.on('clear-buffer', () => session.interrupt());
    const interrupted = waitFor(session, 'interrupted', 'long');
    session.pushAudio(tone(16000, 3), 16000, 'long', true);
    await agent.until(1);
    await sleep(500);
    expect(await agent.clearBuffer('avatar-rpc')).toBe('ok');
    const { playedMs } = await interrupted;
    await agent.until(2);
    const finished = JSON.parse(agent.calls[1]!.payload);
    expect(finished.interrupted).toBe(true);
    expect(finished.playback_position).toBeCloseTo(playedMs / 1000, 3);
    expect(playedMs).toBeGreaterThan(300);
    expect(playedMs).toBeLessThan(2500);
  });

  it('takes lk.clear_buffer only from its agent', async () => {
    const { session } = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-c' },
      agent: 'agent-c',
    });
    let cleared = 0;
    session.on('clear-buffer', () => cleared++);
    const roomName = (session as unknown as { roomName: string }).roomName;
    const stranger = new Agent('someone-else');
    await stranger.join(roomName, false);
    cleanups.push(() => stranger.room.disconnect());
    expect(await stranger.clearBuffer('avatar-rpc')).toBe('reject');
    expect(cleared).toBe(0);
  });

  it('keeps playing for an agent that registers no handlers (method not registered)', async () => {
    const { session } = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-d' },
      agent: 'agent-d',
      register: false,
    });
    let failed = false;
    session.on('error', () => {
      failed = true;
    });
    const first = waitFor(session, 'ended', 'a');
    session.pushAudio(tone(16000, 0.3), 16000, 'a', true);
    expect((await first).playedMs).toBe(300);
    const second = waitFor(session, 'ended', 'b');
    session.pushAudio(tone(16000, 0.3), 16000, 'b', true);
    expect((await second).playedMs).toBe(300);
    expect(failed).toBe(false);
    expect(session.isOpen).toBe(true);
  });

  it('sends the RPCs to livekit_agent_identity or extra_params, and none with playback_rpc off', async () => {
    const viaAttribute = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-x', [AGENT_IDENTITY_ATTRIBUTE]: 'agent-e' },
      agent: 'agent-e',
    });
    viaAttribute.session.pushAudio(tone(16000, 0.2), 16000, 'p', true);
    await viaAttribute.agent.until(2);
    expect(viaAttribute.agent.calls.map((c) => c.method)).toEqual([
      RPC_PLAYBACK_STARTED,
      RPC_PLAYBACK_FINISHED,
    ]);
    const viaParams = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-y' },
      extraParams: { [AGENT_IDENTITY_PARAM]: 'agent-f' },
      agent: 'agent-f',
    });
    viaParams.session.pushAudio(tone(16000, 0.2), 16000, 'p', true);
    await viaParams.agent.until(2);
    expect(JSON.parse(viaParams.agent.calls[1]!.payload)).toEqual({
      playback_position: 0.2,
      interrupted: false,
    });
    const off = await setUp({
      attributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-g' },
      extraParams: { [PLAYBACK_RPC_PARAM]: 'off' },
      agent: 'agent-g',
    });
    const ended = waitFor(off.session, 'ended', 'q');
    off.session.pushAudio(tone(16000, 0.2), 16000, 'q', true);
    await ended;
    await sleep(300);
    expect(off.agent.calls).toEqual([]);
  });

  it('serialises the payload as livekit-agents reads it', () => {
    expect(JSON.parse(playbackFinishedPayload(1234, true))).toEqual({
      playback_position: 1.234,
      interrupted: true,
    });
    expect(JSON.parse(playbackFinishedPayload(-5, false))).toEqual({
      playback_position: 0,
      interrupted: false,
    });
  });
});

describe("the agent's lk.clear_buffer through the service (real LiveKit server)", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({
      avatarsDir: await makeAvatarsDir(),
      standIn: true,
      extra: { liveKitEgress: { allowedHosts: [url] } },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('interrupts what plays and what is queued, reported on the WebSocket and to the agent', async () => {
    const roomName = `rpc-svc-${randomUUID()}`;
    const agent = new Agent('agent-svc');
    await agent.join(roomName);
    cleanups.push(() => agent.room.disconnect());
    const client = await TestClient.open(service, await mintToken(service));
    cleanups.push(async () => client.close());
    client.configure(16000, {
      egressType: wire.EgressType.LIVEKIT,
      livekitEgress: {
        url,
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        roomName,
        publisherId: 'avatar-svc',
        extraAttributes: { [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-svc' },
      },
    });
    await client.confirmed();
    const isState =
      (reqId: string, state: wire.PlaybackState) => (m: { data: { case?: string; value?: unknown } }) =>
        m.data.case === 'serverPlaybackState' &&
        (m.data.value as wire.ServerPlaybackState).reqId === reqId &&
        (m.data.value as wire.ServerPlaybackState).state === state;
    const pcm = tone(16000, 3);
    for (let at = 0; at < pcm.length; at += 1600)
      client.audio('long', pcm.subarray(at, at + 1600), at + 1600 >= pcm.length);
    client.audio('queued', tone(16000, 1), true);
    await client.waitFor(isState('long', wire.PlaybackState.PLAYING), 10_000);
    await sleep(600);
    expect(await agent.clearBuffer('avatar-svc')).toBe('ok');
    const cut = await client.waitFor(isState('long', wire.PlaybackState.INTERRUPTED), 5000);
    await client.waitFor(isState('queued', wire.PlaybackState.INTERRUPTED), 5000);
    const playedMs = Number((cut.data.value as wire.ServerPlaybackState).playedMs);
    expect(playedMs).toBeGreaterThan(300);
    expect(playedMs).toBeLessThan(2500);
    // Every segment gets its finish (the agent counts them); only the one that played was started.
    await agent.until(3);
    expect(agent.calls.map((c) => c.method)).toEqual([
      RPC_PLAYBACK_STARTED,
      RPC_PLAYBACK_FINISHED,
      RPC_PLAYBACK_FINISHED,
    ]);
    const finished = JSON.parse(agent.calls[1]!.payload);
    expect(finished.interrupted).toBe(true);
    // played_ms on the WebSocket is whole milliseconds.
    expect(Math.abs(finished.playback_position * 1000 - playedMs)).toBeLessThanOrEqual(1);
    expect(JSON.parse(agent.calls[2]!.payload)).toEqual({ playback_position: 0, interrupted: true });
    // The session goes on: a new request plays to its end.
    client.audio('after', tone(16000, 0.3), true);
    await client.waitFor(isState('after', wire.PlaybackState.ENDED), 10_000);
  });
});
