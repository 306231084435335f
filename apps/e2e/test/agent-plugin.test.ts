/**
 * Framework-plugin mode end to end against the real LiveKit server: a minimal LiveKit Agents
 * (Node) agent with @avatar-drive/agent-plugin says an espeak-ng WAV; the plugin mints the
 * avatar's token (kind agent, lk.publish_on_behalf = the agent) and sends the speech through a
 * server-sdk AvatarSession in RTC mode to the real service, whose engine animates it and whose
 * LiveKit egress publishes the avatar; a Chromium page with AvatarPlayer hears the avatar and watches its mouth. Interrupting the
 * agent stops both, and the plugin reports playback finished, interrupted, with its position.
 */
import { randomUUID } from 'node:crypto';
import { ReadableStream } from 'node:stream/web';
import { initializeLogger, voice } from '@livekit/agents';
import { AudioFrame, Room } from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarSession } from '../../../packages/agent-plugin/src/index.js';
import {
  type DrivingService,
  drivingConnectionFactory,
  startDrivingService,
} from './support/driving-service.js';
import { joinToken, livekitServer, RtcViewer } from './support/rtc-viewer.js';
import { type Speech, synthesize } from './support/speech.js';
import {
  assertInStep,
  assertStopped,
  describeStop,
  measureSteady,
  measureStop,
} from './support/utterance-sync.js';

const lk = livekitServer();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wallNow = () => performance.timeOrigin + performance.now();

/** The WAV as the TTS node would yield it: 20 ms AudioFrames. */
function frames(speech: Speech): ReadableStream<AudioFrame> {
  const step = speech.sampleRate / 50;
  let at = 0;
  return new ReadableStream<AudioFrame>({
    pull(controller) {
      if (at >= speech.pcm.length) return controller.close();
      const chunk = speech.pcm.slice(at, Math.min(speech.pcm.length, at + Math.round(step)));
      at += chunk.length;
      controller.enqueue(new AudioFrame(chunk, speech.sampleRate, 1, chunk.length));
    },
  });
}

describe('agent-plugin: a LiveKit agent speaking through the avatar (real LiveKit server, Chromium)', () => {
  const roomName = `agent-e2e-${randomUUID()}`;
  let viewer: RtcViewer;
  let agentRoom: Room;
  let session: voice.AgentSession;
  let avatar: AvatarSession;
  let speech: Speech;
  let driving: DrivingService;
  const playback: string[] = [];
  /** Wall-clock times of the plugin's playback finished events. */
  const finishedAt: number[] = [];
  /** `played_ms` of each request the service reported INTERRUPTED on the driving session. */
  const sessionInterrupts: number[] = [];

  /** Says `what` through the agent and waits until its playout finished. */
  const say = async (what: Speech) => {
    const handle = session.say('(prepared audio)', { audio: frames(what), addToChatCtx: false });
    await handle.waitForPlayout();
    return handle;
  };

  beforeAll(async () => {
    initializeLogger({ pretty: false, level: 'warn' });
    speech = synthesize('Good morning. I am your assistant, and this is how my voice sounds today.', 22050);
    driving = await startDrivingService();
    viewer = await RtcViewer.join(lk, roomName, 'user-e2e');
    agentRoom = new Room();
    await agentRoom.connect(lk.url, await joinToken(lk, roomName, 'agent-e2e', { agent: true }), {
      autoSubscribe: true,
      dynacast: false,
    });
    session = new voice.AgentSession({});
    avatar = new AvatarSession({
      // The service's own account of each request, as the driving session reports it: the
      // position the avatar reports through the contract is checked against it.
      connect: async (config) => {
        const connection = await drivingConnectionFactory(driving)(config);
        connection.on('interrupted', ({ playedMs }) => sessionInterrupts.push(playedMs));
        return connection;
      },
      avatarIdentity: 'avatar-agent-e2e',
      livekitUrl: lk.url,
      livekitApiKey: lk.apiKey,
      livekitApiSecret: lk.apiSecret,
      sampleRate: speech.sampleRate, // the "TTS" output rate: the WAV's
    });
    await avatar.start(session, agentRoom);
    await session.start({
      agent: new voice.Agent({ instructions: 'You speak prepared audio.' }),
      room: agentRoom,
      inputOptions: { audioEnabled: false, textEnabled: false },
      outputOptions: { transcriptionEnabled: false },
    });
    const output = avatar.audioOutput!;
    output.on('playbackStarted', () => playback.push('started'));
    output.on('playbackFinished', (e: { playbackPosition: number; interrupted: boolean }) => {
      playback.push(`finished:${e.interrupted}:${e.playbackPosition.toFixed(2)}`);
      finishedAt.push(wallNow());
    });
    await avatar.waitForJoin({ timeout: 30_000 });
    await viewer.waitForAvatarAudio('avatar-agent-e2e');
  });

  afterAll(async () => {
    await session?.close().catch(() => {});
    await avatar?.aclose().catch(() => {});
    await agentRoom?.disconnect().catch(() => {});
    await viewer?.close();
    await driving?.service.close();
  });

  it('the avatar joins as an agent acting for the agent, and the agent publishes no audio of its own', async () => {
    const avatarParticipant = agentRoom.remoteParticipants.get('avatar-agent-e2e');
    expect(avatarParticipant?.attributes['lk.publish_on_behalf']).toBe('agent-e2e');
    expect(agentRoom.localParticipant!.trackPublications.size).toBe(0);
    expect((await viewer.read()).subscribed).toEqual(['avatar-agent-e2e/avatar-drive.audio']);
  });

  it('says the WAV through the avatar: audio heard, mouth in step, playback reported', async () => {
    // The first utterance after subscribing lets the receiver's jitter buffer settle (docs/rtc.md).
    await say(synthesize('Warming up.', speech.sampleRate));
    await sleep(400);
    const sync = await measureSteady(
      async () => {
        playback.length = 0;
        const since = wallNow();
        await say(speech);
        await sleep(600);
        return { read: await viewer.read(since, 'agent-utterance') };
      },
      speech,
      (line) =>
        console.log(
          `[agent e2e] ${speech.durationMs.toFixed(0)} ms said; ${line}; playback ${playback.join(', ')}`,
        ),
    );
    assertInStep(sync, speech);
    expect(playback[0]).toBe('started');
    const finished = playback.find((p) => p.startsWith('finished:'))!;
    expect(finished.startsWith('finished:false:')).toBe(true);
    expect(Number(finished.split(':')[2])).toBeCloseTo(speech.durationMs / 1000, 1);
  });

  it('interrupting the agent stops the avatar audio and mouth and reports the position', async () => {
    playback.length = 0;
    const since = wallNow();
    sessionInterrupts.length = 0;
    const handle = session.say('(prepared audio)', { audio: frames(speech), addToChatCtx: false });
    while (!playback.includes('started')) await sleep(20);
    const startedAt = wallNow();
    await sleep(1500);
    const interruptAt = wallNow();
    await session.interrupt();
    await handle.waitForPlayout();
    await sleep(800);
    const r = await viewer.read(since);
    const stopped = measureStop(r, interruptAt);
    const finished = playback.find((p) => p.startsWith('finished:'))!;
    // When the agent heard the interrupt confirmed: the service's cut, as the agent learns it,
    // apart from what the viewer's jitter buffer still held.
    const confirmedMs = (finishedAt.at(-1) ?? Number.NaN) - interruptAt;
    console.log(
      `[agent e2e] interrupt: ${describeStop(stopped)}; confirmed to the agent ${confirmedMs.toFixed(0)} ms after it (via ${avatar.audioOutput!.playoutSource}); playback ${playback.join(', ')}`,
    );
    expect(handle.interrupted).toBe(true);
    expect(finished.startsWith('finished:true:')).toBe(true);
    // The position is the service's count of what left the avatar's track (on a loaded machine
    // the service's playout runs behind the wall clock, so it is not "1.5 s"): the same as the
    // session's `played_ms`, more than nothing, at most the time since it started, and short of
    // the whole utterance.
    const position = Number(finished.split(':')[2]);
    const elapsed = (interruptAt - startedAt) / 1000;
    console.log(
      `[agent e2e] position ${position.toFixed(2)} s; the session's ${((sessionInterrupts.at(-1) ?? Number.NaN) / 1000).toFixed(2)} s; ${elapsed.toFixed(2)} s between started and the interrupt`,
    );
    expect(position).toBeCloseTo((sessionInterrupts.at(-1) ?? Number.NaN) / 1000, 1);
    expect(position).toBeGreaterThan(0.2);
    expect(position).toBeLessThan(Math.min(elapsed + 1, speech.durationMs / 1000 - 1));
    assertStopped(stopped);
  });
});
