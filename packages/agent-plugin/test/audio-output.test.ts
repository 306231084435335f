// AvatarDriveAudioOutput against a fake driving connection (the real service egress and LiveKit
// server are in apps/e2e): segments become requests, flush ends them, clearBuffer interrupts,
// playback is reported as the service reports it.
import { EventEmitter } from 'node:events';
import { AvatarError, CloseCode } from '@avatar-drive/core';
import { initializeLogger } from '@livekit/agents';
import { AudioFrame, RpcError } from '@livekit/rtc-node';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AvatarDriveAudioOutput,
  type ClearBufferResult,
  clearAvatarBuffer,
  type DrivingConnection,
  drivingConnectionFromAvatarSession,
  mintAvatarToken,
  PUBLISH_ON_BEHALF_ATTRIBUTE,
  parsePlaybackFinished,
  RPC_CLEAR_BUFFER,
  RPC_PLAYBACK_FINISHED,
  RPC_PLAYBACK_STARTED,
  type RtcAvatarSessionLike,
  registerPlaybackRpc,
} from '../src/index.js';

beforeAll(() => initializeLogger({ pretty: false, level: 'error' }));

class FakeConnection extends EventEmitter implements DrivingConnection {
  readonly audio: Array<{ reqId: string; samples: number; end: boolean; first: number | undefined }> = [];
  readonly interrupts: string[] = [];
  closed = false;
  sendAudio(pcm: Int16Array, reqId: string, end: boolean): void {
    this.audio.push({ reqId, samples: pcm.length, end, first: pcm[0] });
  }
  interrupt(reqId: string): void {
    this.interrupts.push(reqId);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function frame(rate: number, ms: number, channels = 1, value = 1000): AudioFrame {
  const n = (rate * ms) / 1000;
  return new AudioFrame(new Int16Array(n * channels).fill(value), rate, channels, n);
}

/** The claims of a JWT (no verification: the test only reads what was minted). */
function decodeJwt(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function setUp(sampleRate?: number, clearAvatarBuffer?: () => Promise<ClearBufferResult>) {
  const connection = new FakeConnection();
  const opened: number[] = [];
  const output = new AvatarDriveAudioOutput({
    open: async (rate) => {
      opened.push(rate);
      return connection;
    },
    sampleRate,
    interruptTimeoutMs: 50,
    rpcGraceMs: 50,
    clearAvatarBuffer,
  });
  const started: number[] = [];
  const finished: Array<{ playbackPosition: number; interrupted: boolean }> = [];
  output.on(AvatarDriveAudioOutput.EVENT_PLAYBACK_STARTED, (e: { createdAt: number }) =>
    started.push(e.createdAt),
  );
  output.on(
    AvatarDriveAudioOutput.EVENT_PLAYBACK_FINISHED,
    (e: { playbackPosition: number; interrupted: boolean }) => finished.push(e),
  );
  return { connection, opened, output, started, finished };
}

describe('AvatarDriveAudioOutput', () => {
  it('opens the session at the TTS rate up front and sends one request per segment', async () => {
    const { connection, opened, output, started, finished } = setUp(24000);
    await output.connect();
    expect(opened).toEqual([24000]);
    await output.captureFrame(frame(24000, 20));
    await output.captureFrame(frame(24000, 20));
    output.flush();
    await tick();
    const [a, b, end] = connection.audio;
    expect(a).toMatchObject({ samples: 480, end: false });
    expect(b!.reqId).toBe(a!.reqId);
    expect(end).toMatchObject({ reqId: a!.reqId, samples: 0, end: true });
    connection.emit('playing', { reqId: a!.reqId });
    connection.emit('ended', { reqId: a!.reqId, playedMs: 40 });
    expect(started).toHaveLength(1);
    expect(finished).toEqual([{ playbackPosition: 0.04, interrupted: false }]);
    await expect(output.waitForPlayout()).resolves.toMatchObject({ interrupted: false });

    await output.captureFrame(frame(24000, 10));
    output.flush();
    await tick();
    expect(connection.audio[3]!.reqId).not.toBe(a!.reqId);
    expect(opened).toEqual([24000]);
  });

  it('clearBuffer interrupts the request and reports it finished, interrupted, at the played position', async () => {
    const { connection, output, finished } = setUp(16000);
    await output.captureFrame(frame(16000, 100));
    const reqId = connection.audio[0]!.reqId;
    connection.emit('playing', { reqId });
    output.clearBuffer();
    await tick();
    expect(connection.interrupts).toEqual([reqId]);
    connection.emit('interrupted', { reqId, playedMs: 60 });
    expect(finished).toEqual([{ playbackPosition: 0.06, interrupted: true }]);
    // A late confirmation or the fallback timer must not report it twice.
    await new Promise((r) => setTimeout(r, 80));
    connection.emit('interrupted', { reqId, playedMs: 60 });
    expect(finished).toHaveLength(1);
  });

  it('reports an interrupt the service never confirms after the timeout', async () => {
    const { connection, output, finished } = setUp(16000);
    await output.captureFrame(frame(16000, 100));
    output.clearBuffer();
    await new Promise((r) => setTimeout(r, 100));
    expect(connection.interrupts).toHaveLength(1);
    expect(finished).toEqual([{ playbackPosition: 0, interrupted: true }]);
  });

  it('follows the first frame when no rate is given; downmixes and resamples other frames', async () => {
    const { connection, opened, output } = setUp(undefined);
    await output.captureFrame(frame(22050, 20, 1));
    expect(opened).toEqual([22050]);
    await output.captureFrame(frame(22050, 20, 2, 2000)); // stereo → mono
    expect(connection.audio[1]).toMatchObject({ samples: 441, first: 2000 });
    await output.captureFrame(frame(44100, 100)); // another rate: resampled to 22050
    output.flush();
    await tick();
    const resampled = connection.audio.slice(2).reduce((n, a) => n + a.samples, 0);
    expect(resampled).toBe(2205);
  });

  it('an unsupported TTS rate becomes the nearest supported one', async () => {
    const { opened, output } = setUp(11025);
    await output.connect();
    expect(opened).toHaveLength(1);
    expect([8000, 16000]).toContain(opened[0]);
  });

  it('close() reports unfinished segments interrupted and closes the session', async () => {
    const { connection, output, finished } = setUp(16000);
    await output.captureFrame(frame(16000, 10));
    await output.close();
    expect(finished).toEqual([{ playbackPosition: 0, interrupted: true }]);
    expect(connection.closed).toBe(true);
    await expect(output.captureFrame(frame(16000, 10))).rejects.toMatchObject({ code: 'invalidState' });
  });
});

describe('mintAvatarToken', () => {
  it('mints a kind-agent token acting for the agent, for the room only', async () => {
    const jwt = await mintAvatarToken({
      apiKey: 'devkey',
      apiSecret: 'a-secret-long-enough-for-hs256-signing',
      roomName: 'room-1',
      avatarIdentity: 'avatar-1',
      agentIdentity: 'agent-1',
      attributes: { style: 'x' },
    });
    const claims = decodeJwt(jwt) as Record<string, unknown>;
    expect(claims.sub).toBe('avatar-1');
    expect(claims.kind).toBe('agent');
    expect(claims.attributes).toEqual({ style: 'x', [PUBLISH_ON_BEHALF_ATTRIBUTE]: 'agent-1' });
    expect(claims.video).toMatchObject({
      room: 'room-1',
      roomJoin: true,
      canPublish: true,
      canSubscribe: false,
    });
    expect(jwt).not.toContain('a-secret');
  });

  it('refuses missing credentials with invalidEgressConfig', async () => {
    await expect(
      mintAvatarToken({ apiKey: '', apiSecret: 's', roomName: 'r', avatarIdentity: 'a', agentIdentity: 'g' }),
    ).rejects.toMatchObject({ code: 'invalidEgressConfig' });
  });
});

describe('drivingConnectionFromAvatarSession', () => {
  it("maps the plugin's segments onto the session's requests and its playback states back", async () => {
    const sent: Array<[number, boolean]> = [];
    let n = 0;
    let open: string | undefined;
    let interrupted = 0;
    const session = {
      sendAudio(pcm: Int16Array, end = false) {
        open ??= `req_${++n}`;
        const id = open;
        sent.push([pcm.length, end]);
        if (end) open = undefined;
        return id;
      },
      interrupt() {
        interrupted += 1;
        const id = open;
        open = undefined;
        return id;
      },
      close: async () => ({ code: CloseCode.Normal, reason: 'client closed' }),
    } as RtcAvatarSessionLike;
    const connection = drivingConnectionFromAvatarSession(session);
    const seen: string[] = [];
    connection.on('playing', (e) => seen.push(`playing:${e.reqId}`));
    connection.on('ended', (e) => seen.push(`ended:${e.reqId}:${e.playedMs}`));
    connection.on('interrupted', (e) => seen.push(`interrupted:${e.reqId}:${e.playedMs}`));
    connection.on('error', (e) => seen.push(`error:${e.code}`));
    connection.sendAudio(new Int16Array(10), 'a', false);
    connection.sendAudio(new Int16Array(0), 'a', true);
    connection.sendAudio(new Int16Array(5), 'b', false);
    session.onPlaybackState?.({ reqId: 'req_1', state: 'playing', playedMs: 0, reason: '' });
    session.onPlaybackState?.({ reqId: 'req_1', state: 'ended', playedMs: 400, reason: '' });
    session.onPlaybackState?.({ reqId: 'req_2', state: 'playing', playedMs: 0, reason: '' });
    connection.interrupt('b');
    connection.interrupt('unknown');
    session.onPlaybackState?.({ reqId: 'req_2', state: 'interrupted', playedMs: 120, reason: 'explicit' });
    session.onPlaybackState?.({ reqId: 'req_9', state: 'ended', playedMs: 1, reason: '' });
    session.onError?.(new AvatarError('connectionFailed', 'drop', { retryable: true }));
    session.onClose?.({ code: 4503, reason: 'x', error: new AvatarError('egressUnavailable', 'gone') });
    expect(sent).toEqual([
      [10, false],
      [0, true],
      [5, false],
    ]);
    expect(interrupted).toBe(1);
    expect(seen).toEqual([
      'playing:a',
      'ended:a:400',
      'playing:b',
      'interrupted:b:120',
      'error:egressUnavailable',
    ]);
  });

  it('starts a new turn for each segment, so the next reply after an interrupt is not dropped', () => {
    // server-sdk's rule: after interrupt() of an open turn, sendAudio drops input until startTurn().
    let n = 0;
    let open: string | undefined;
    let dropping: string | undefined;
    const sent: string[] = [];
    const session = {
      sendAudio(_pcm: Int16Array, end = false) {
        if (dropping !== undefined) {
          if (end) dropping = undefined;
          return dropping ?? `req_${n}`;
        }
        open ??= `req_${++n}`;
        const id = open;
        sent.push(`${id}${end ? ':end' : ''}`);
        if (end) open = undefined;
        return id;
      },
      interrupt() {
        dropping = open;
        open = undefined;
        return dropping;
      },
      startTurn() {
        dropping = undefined;
      },
      close: async () => ({ code: CloseCode.Normal, reason: 'client closed' }),
    } as RtcAvatarSessionLike;
    const connection = drivingConnectionFromAvatarSession(session);
    connection.sendAudio(new Int16Array(10), 'a', false);
    connection.interrupt('a');
    connection.sendAudio(new Int16Array(10), 'b', false);
    connection.sendAudio(new Int16Array(0), 'b', true);
    expect(sent).toEqual(['req_1', 'req_2', 'req_2:end']);
  });
});

describe('the LiveKit avatar contract (agent side)', () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("takes playout from the avatar's lk.playback_* RPCs, in segment order, and then ignores the session's states", async () => {
    const { connection, output, started, finished } = setUp(16000);
    await output.captureFrame(frame(16000, 100));
    output.flush();
    await output.captureFrame(frame(16000, 200));
    output.flush();
    await tick();
    const [first, second] = [...new Set(connection.audio.map((a) => a.reqId))];
    expect(output.playoutSource).toBe('session');
    output.onAvatarPlaybackStarted();
    expect(output.playoutSource).toBe('contract');
    expect(started).toHaveLength(1);
    // The session's state for the same segment is not reported a second time.
    connection.emit('playing', { reqId: first! });
    connection.emit('ended', { reqId: first!, playedMs: 100 });
    output.onAvatarPlaybackFinished({ playbackPosition: 0.1, interrupted: false });
    output.onAvatarPlaybackStarted();
    connection.emit('interrupted', { reqId: second!, playedMs: 10 });
    output.onAvatarPlaybackFinished({ playbackPosition: 0.15, interrupted: true });
    await wait(80); // past the grace: the session's late figures change nothing
    expect(started).toHaveLength(2);
    expect(finished).toEqual([
      { playbackPosition: 0.1, interrupted: false },
      { playbackPosition: 0.15, interrupted: true },
    ]);
  });

  it('an avatar that makes no RPCs: the session reports playout, and nothing is kept waiting for an RPC', async () => {
    const { connection, output, started, finished } = setUp(16000);
    for (let i = 0; i < 3; i++) {
      await output.captureFrame(frame(16000, 20));
      output.flush();
      await tick();
      const reqId = connection.audio.at(-1)!.reqId;
      connection.emit('playing', { reqId });
      connection.emit('ended', { reqId, playedMs: 20 });
      await expect(output.waitForPlayout()).resolves.toEqual({ playbackPosition: 0.02, interrupted: false });
    }
    expect(started).toHaveLength(3);
    expect(finished).toHaveLength(3);
    await wait(80);
    // An RPC now (an avatar that starts speaking the contract) has no old segment to land on.
    output.onAvatarPlaybackFinished({ playbackPosition: 9, interrupted: false });
    expect(finished).toHaveLength(3);
  });

  it("the first segment's RPC arriving after the session's state is matched to that segment, not the next", async () => {
    const { connection, output, finished } = setUp(16000);
    await output.captureFrame(frame(16000, 20));
    output.flush();
    await tick();
    const a = connection.audio.at(-1)!.reqId;
    connection.emit('ended', { reqId: a, playedMs: 20 }); // the WebSocket was quicker than the room
    await output.captureFrame(frame(16000, 40));
    output.flush();
    await tick();
    output.onAvatarPlaybackFinished({ playbackPosition: 0.02, interrupted: false }); // a's
    expect(finished).toHaveLength(1);
    output.onAvatarPlaybackFinished({ playbackPosition: 0.04, interrupted: false }); // b's
    expect(finished).toEqual([
      { playbackPosition: 0.02, interrupted: false },
      { playbackPosition: 0.04, interrupted: false },
    ]);
  });

  it('a segment the avatar never reports (cut before it was queued) is finished from the session; the next is not shifted', async () => {
    const { connection, output, finished } = setUp(16000);
    output.onAvatarPlaybackStarted(); // the avatar speaks the contract
    await output.captureFrame(frame(16000, 20));
    output.flush();
    await tick();
    const a = connection.audio.at(-1)!.reqId;
    connection.emit('interrupted', { reqId: a, playedMs: 0 });
    expect(finished).toEqual([]); // waits for the avatar's report…
    await wait(80);
    expect(finished).toEqual([{ playbackPosition: 0, interrupted: true }]); // …then the session's
    await wait(80); // and a grace more for a late RPC, then it leaves the report order
    await output.captureFrame(frame(16000, 40));
    output.flush();
    output.onAvatarPlaybackStarted();
    output.onAvatarPlaybackFinished({ playbackPosition: 0.04, interrupted: false });
    expect(finished.at(-1)).toEqual({ playbackPosition: 0.04, interrupted: false });
  });

  it("interrupts with lk.clear_buffer only, and reports the avatar's position once", async () => {
    const calls: string[] = [];
    const { connection, output, finished } = setUp(16000, async () => {
      calls.push('clear');
      return 'ok';
    });
    await output.captureFrame(frame(16000, 100));
    output.onAvatarPlaybackStarted();
    output.clearBuffer();
    output.clearBuffer(); // LiveKit Agents clears twice on an interrupt
    await tick();
    await tick();
    expect(calls).toEqual(['clear']);
    expect(connection.interrupts).toEqual([]);
    output.onAvatarPlaybackFinished({ playbackPosition: 0.04, interrupted: true });
    await wait(80);
    expect(finished).toEqual([{ playbackPosition: 0.04, interrupted: true }]);
  });

  it('an interrupt the avatar confirms after the timeout: reported once, and its late RPC does not land on the next segment', async () => {
    const { connection, output, finished } = setUp(16000, async () => 'ok');
    output.onAvatarPlaybackStarted();
    await output.captureFrame(frame(16000, 100));
    output.flush(); // as LiveKit Agents does when it stops forwarding, before clearing
    output.clearBuffer();
    await wait(70); // past interruptTimeoutMs (50): reported without the avatar's figures
    expect(finished).toEqual([{ playbackPosition: 0, interrupted: true }]);
    await output.captureFrame(frame(16000, 40));
    output.flush();
    await tick();
    output.onAvatarPlaybackFinished({ playbackPosition: 0.07, interrupted: true }); // the late one
    expect(finished).toHaveLength(1);
    output.onAvatarPlaybackStarted();
    output.onAvatarPlaybackFinished({ playbackPosition: 0.04, interrupted: false });
    expect(finished.at(-1)).toEqual({ playbackPosition: 0.04, interrupted: false });
    expect(connection.interrupts).toEqual([]);
  });

  it('an avatar without lk.clear_buffer is interrupted through the session, and not asked again', async () => {
    const calls: string[] = [];
    const { connection, output, finished } = setUp(16000, async () => {
      calls.push('clear');
      return 'unsupported';
    });
    await output.captureFrame(frame(16000, 100));
    const a = connection.audio.at(-1)!.reqId;
    output.clearBuffer();
    await wait(5);
    expect(calls).toEqual(['clear']);
    expect(connection.interrupts).toEqual([a]);
    connection.emit('interrupted', { reqId: a, playedMs: 30 });
    expect(finished).toEqual([{ playbackPosition: 0.03, interrupted: true }]);
    await output.captureFrame(frame(16000, 100));
    const b = connection.audio.at(-1)!.reqId;
    output.clearBuffer();
    await wait(5);
    expect(calls).toEqual(['clear']);
    expect(connection.interrupts).toEqual([a, b]);
  });

  it('clearAvatarBuffer tells "not registered" from other failures', async () => {
    const answer = (error: unknown) => ({
      performRpc: async (params: { method: string; destinationIdentity: string }) => {
        expect(params).toMatchObject({ method: RPC_CLEAR_BUFFER, destinationIdentity: 'avatar-1' });
        if (error) throw error;
        return 'ok';
      },
    });
    expect(await clearAvatarBuffer(answer(undefined) as never, 'avatar-1')).toBe('ok');
    const unsupported = RpcError.builtIn('UNSUPPORTED_METHOD');
    expect(await clearAvatarBuffer(answer(unsupported) as never, 'avatar-1')).toBe('unsupported');
    const timeout = RpcError.builtIn('RESPONSE_TIMEOUT');
    expect(await clearAvatarBuffer(answer(timeout) as never, 'avatar-1')).toBe('failed');
    expect(await clearAvatarBuffer(answer(new Error('gone')) as never, 'avatar-1')).toBe('failed');
  });

  it('reads lk.playback_finished payloads as livekit-agents writes them, and refuses others', () => {
    expect(
      parsePlaybackFinished(
        '{"playback_position": 1.25, "interrupted": false, "synchronized_transcript": null}',
      ),
    ).toEqual({
      playbackPosition: 1.25,
      interrupted: false,
    });
    expect(parsePlaybackFinished('{"playbackPosition": 2, "interrupted": true}')).toEqual({
      playbackPosition: 2,
      interrupted: true,
    });
    expect(parsePlaybackFinished('{"playback_position": "1", "interrupted": false}')).toBeUndefined();
    expect(parsePlaybackFinished('{"playback_position": 1}')).toBeUndefined();
    expect(parsePlaybackFinished('not json')).toBeUndefined();
    expect(parsePlaybackFinished('null')).toBeUndefined();
  });

  it('takes the RPCs only from its avatar', async () => {
    const handlers = new Map<
      string,
      (data: { callerIdentity: string; payload: string }) => Promise<string>
    >();
    const local = {
      registerRpcMethod: (method: string, handler: never) => handlers.set(method, handler),
      unregisterRpcMethod: (method: string) => handlers.delete(method),
    };
    const seen: string[] = [];
    const unregister = registerPlaybackRpc(local as never, 'avatar-1', {
      onAvatarPlaybackStarted: () => seen.push('started'),
      onAvatarPlaybackFinished: (e) => seen.push(`finished ${e.playbackPosition} ${e.interrupted}`),
    });
    const call = (method: string, callerIdentity: string, payload = '') =>
      handlers.get(method)!({ callerIdentity, payload });
    expect(await call(RPC_PLAYBACK_STARTED, 'intruder')).toBe('reject');
    expect(await call(RPC_PLAYBACK_STARTED, 'avatar-1')).toBe('ok');
    expect(
      await call(RPC_PLAYBACK_FINISHED, 'avatar-1', '{"playback_position":0.5,"interrupted":true}'),
    ).toBe('ok');
    expect(await call(RPC_PLAYBACK_FINISHED, 'avatar-1', '{}')).toBe('reject');
    expect(seen).toEqual(['started', 'finished 0.5 true']);
    unregister();
    expect(handlers.size).toBe(0);
  });
});
