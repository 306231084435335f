/**
 * The Avatar Drive avatar for a LiveKit Agents session, following LiveKit's avatar plugins:
 * `start()` runs the base class's start first, mints the avatar's join token (kind agent,
 * `lk.publish_on_behalf` = the agent), opens an RTC-mode driving session whose egress joins
 * the room as that avatar, and replaces the agent's audio output with one that sends the TTS
 * audio to the service. Playout is reported by the avatar's `lk.playback_started` /
 * `lk.playback_finished` RPCs and interrupts go out as `lk.clear_buffer` (the LiveKit Agents
 * avatar contract, playback-rpc.ts).
 */
import { AvatarError } from '@avatar-drive/core';
import { voice } from '@livekit/agents';
import { type RemoteParticipant, type Room, RoomEvent, TrackKind } from '@livekit/rtc-node';
import { AvatarDriveAudioOutput } from './audio-output.js';
import type { DrivingConnectionFactory } from './connection.js';
import { clearAvatarBuffer, registerPlaybackRpc } from './playback-rpc.js';
import { mintAvatarToken } from './token.js';

/** The avatar's audio track, as the service publishes it. */
export const AVATAR_AUDIO_TRACK = 'avatar-drive.audio';

/** Options of {@link AvatarSession}. */
export interface AvatarSessionOptions {
  /**
   * Opens the RTC-mode driving session: with `@avatar-drive/server-sdk`, an AvatarSession
   * configured with these LiveKit egress options.
   */
  connect: DrivingConnectionFactory;
  /** The avatar participant's identity; default `avatar-drive-avatar`. */
  avatarIdentity?: string;
  /** LiveKit server URL for the service to join; default `LIVEKIT_URL`. */
  livekitUrl?: string;
  /** For the avatar's token; default `LIVEKIT_API_KEY`. Never sent anywhere but into the signature. */
  livekitApiKey?: string;
  /** Default `LIVEKIT_API_SECRET`. */
  livekitApiSecret?: string;
  /** PCM rate of the session; default the agent's TTS output rate (else the first frame's). */
  sampleRate?: number;
  /** Extra attributes of the avatar participant. */
  extraAttributes?: Record<string, string>;
}

/** An Avatar Drive avatar speaking for a LiveKit agent. */
export class AvatarSession extends voice.AvatarSession {
  readonly #options: AvatarSessionOptions;
  readonly #identity: string;
  #output: AvatarDriveAudioOutput | undefined;
  #room: Room | undefined;
  #unregisterRpc: (() => void) | undefined;

  constructor(options: AvatarSessionOptions) {
    super();
    if (!options || typeof options.connect !== 'function') {
      throw new AvatarError(
        'invalidRequest',
        'new AvatarSession({ connect }) needs a driving-session factory (e.g. from @avatar-drive/server-sdk).',
      );
    }
    this.#options = options;
    this.#identity = options.avatarIdentity ?? 'avatar-drive-avatar';
  }

  override get avatarIdentity(): string {
    return this.#identity;
  }

  override get provider(): string {
    return 'avatar-drive';
  }

  /** The audio output that replaced the agent's (after {@link start}). */
  get audioOutput(): AvatarDriveAudioOutput | undefined {
    return this.#output;
  }

  /**
   * Starts the avatar: call before (or after) `agentSession.start()`, with the job's connected room.
   * @throws AvatarError `invalidState` when the room is not connected; `invalidEgressConfig`
   *   without LiveKit URL/credentials; whatever the driving session's open rejects with.
   */
  override async start(agentSession: voice.AgentSession, room: Room): Promise<void> {
    await super.start(agentSession, room);
    const agentIdentity = room.localParticipant?.identity;
    if (!room.isConnected || !agentIdentity || !room.name) {
      throw new AvatarError(
        'invalidState',
        'AvatarSession.start() needs the connected room: await ctx.connect() first.',
      );
    }
    const o = this.#options;
    const url = o.livekitUrl ?? process.env.LIVEKIT_URL ?? '';
    if (!/^wss?:\/\//.test(url)) {
      throw new AvatarError(
        'invalidEgressConfig',
        'The avatar needs the LiveKit URL (ws:// or wss://): pass livekitUrl or set LIVEKIT_URL.',
      );
    }
    const apiToken = await mintAvatarToken({
      apiKey: o.livekitApiKey ?? process.env.LIVEKIT_API_KEY ?? '',
      apiSecret: o.livekitApiSecret ?? process.env.LIVEKIT_API_SECRET ?? '',
      roomName: room.name,
      avatarIdentity: this.#identity,
      agentIdentity,
      ...(o.extraAttributes && { attributes: o.extraAttributes }),
    });
    const livekit = {
      url,
      apiToken,
      roomName: room.name,
      publisherId: this.#identity,
      extraAttributes: { ...o.extraAttributes },
    };
    const ttsRate = (agentSession as unknown as { tts?: { sampleRate?: unknown } }).tts?.sampleRate;
    const local = room.localParticipant!;
    const output = new AvatarDriveAudioOutput({
      open: (sampleRate) => o.connect({ sampleRate, livekit }),
      sampleRate: o.sampleRate ?? (typeof ttsRate === 'number' ? ttsRate : undefined),
      clearAvatarBuffer: () => clearAvatarBuffer(local, this.#identity),
    });
    this.#output = output;
    this.#room = room;
    // The avatar reports playout with the LiveKit avatar RPCs; registered before it can speak.
    this.#unregisterRpc = registerPlaybackRpc(local, this.#identity, output);
    agentSession.output.audio = output;
    await output.connect();
  }

  /** Waits until the avatar participant is in the room and publishes its audio track. */
  override async waitForJoin({ timeout = 30_000 }: { timeout?: number | null } = {}): Promise<void> {
    const room = this.#room;
    if (!room) throw new AvatarError('invalidState', 'waitForJoin() after start().');
    const joined = (p: RemoteParticipant | undefined) =>
      !!p &&
      [...p.trackPublications.values()].some(
        (t) => t.kind === TrackKind.KIND_AUDIO && t.name === AVATAR_AUDIO_TRACK,
      );
    if (joined(room.remoteParticipants.get(this.#identity))) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!joined(room.remoteParticipants.get(this.#identity))) return;
        cleanup();
        resolve();
      };
      const timer =
        timeout === null
          ? undefined
          : setTimeout(() => {
              cleanup();
              reject(new AvatarError('egressUnavailable', `The avatar did not join within ${timeout} ms.`));
            }, timeout);
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        room.off(RoomEvent.TrackPublished, check);
        room.off(RoomEvent.ParticipantConnected, check);
      };
      room.on(RoomEvent.TrackPublished, check);
      room.on(RoomEvent.ParticipantConnected, check);
    });
  }

  /** Closes the driving session (the avatar leaves) and releases the base session. */
  override async aclose(): Promise<void> {
    this.#unregisterRpc?.();
    this.#unregisterRpc = undefined;
    await this.#output?.close();
    await super.aclose();
  }
}
