/**
 * LiveKit egress: the service joins the room as the avatar participant with
 * @livekit/rtc-node, publishes the avatar's speech as a microphone-source audio track paced in
 * real time, and sends the drive frames alongside as data packets stamped with the time
 * their audio leaves the track (docs/rtc.md).
 */
import { EventEmitter } from 'node:events';
import {
  AVATAR_AUDIO_TRACK_NAME,
  AvatarError,
  CONTROL_TOPIC,
  type ControlMessage,
  type DriveFrame,
  encodeControlMessage,
  encodeFramePacket,
  FRAMES_TOPIC,
  type FramePacket,
  isAvatarError,
  isSupportedSampleRate,
  Resampler,
} from '@avatar-drive/core';
import {
  AudioFrame,
  AudioSource,
  ConnectionState,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackPublishOptions,
  TrackSource,
} from '@livekit/rtc-node';
import type { Logger } from 'pino';
import {
  PUBLISH_ON_BEHALF_ATTRIBUTE,
  type ResolvedLiveKitConfig,
  resolveLiveKitConfig,
} from './livekit-config.js';
import { type AllowedHost, hostNotAllowed, isAllowedHost, parseAllowedHosts } from './livekit-hosts.js';
import { AGENT_IDENTITY_ATTRIBUTE, PlaybackRpc } from './playback-rpc.js';
import { PlayoutScheduler, type PlayoutSink } from './playout.js';
import type {
  EgressEventName,
  EgressEvents,
  EgressOpenConfig,
  EgressProvider,
  EgressSession,
  PlaybackSnapshot,
} from './types.js';

/** Name of the avatar's audio track in the room (defined next to the packet codec in core). */
export { AVATAR_AUDIO_TRACK_NAME };

export interface LiveKitEgressOptions {
  /** Idle timeout (seconds) when a config gives 0. Default 300. */
  defaultIdleTimeoutS?: number;
  /** Lifetime (seconds) of tokens the service mints from api_key/api_secret. Default 6 h. */
  tokenTtlS?: number;
  /** Give up joining after this long (egressUnavailable). Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * How far audio runs ahead of the wall clock in the audio source: the margin against event
   * loop stalls (interrupt and pause clear it, so it adds no latency to them). Default 200 ms.
   */
  maxLeadMs?: number;
  /** How long audio waits for the frame that animates it. Default 300 ms. */
  frameHoldMs?: number;
  /**
   * Leave when the agent named by `lk.publish_on_behalf` leaves the room, as LiveKit's avatar
   * plugins do (reported as error `connectionClosed`). Default true.
   */
  leaveWithAgent?: boolean;
  /**
   * The LiveKit servers sessions may join (see livekit-hosts.ts for the entry forms). Default:
   * none — every LiveKit egress is refused with `invalidEgressConfig` until the operator lists
   * its servers.
   */
  allowedHosts?: readonly string[];
  /** Where failures with upstream detail go (that detail never reaches the client). */
  logger?: Logger;
}

type ProviderOptions = Required<Omit<LiveKitEgressOptions, 'allowedHosts' | 'logger'>> & {
  logger: Logger | undefined;
};

/** Opens {@link LiveKitEgressSession}s. */
export class LiveKitEgressProvider implements EgressProvider {
  readonly kind = 'livekit' as const;
  readonly #options: ProviderOptions;
  readonly #allowedHosts: AllowedHost[];

  constructor(options: LiveKitEgressOptions = {}) {
    this.#allowedHosts = parseAllowedHosts(options.allowedHosts ?? []);
    this.#options = {
      logger: options.logger,
      defaultIdleTimeoutS: options.defaultIdleTimeoutS ?? 300,
      tokenTtlS: options.tokenTtlS ?? 6 * 3600,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      maxLeadMs: options.maxLeadMs ?? 200,
      frameHoldMs: options.frameHoldMs ?? 300,
      leaveWithAgent: options.leaveWithAgent ?? true,
    };
  }

  async open(config: EgressOpenConfig): Promise<EgressSession> {
    if (!config.livekit) {
      throw new AvatarError(
        'invalidEgressConfig',
        'livekit_egress is missing: send a LiveKitEgressConfig with the room to join.',
        { phase: 'configure' },
      );
    }
    if (!isSupportedSampleRate(config.sampleRate)) {
      throw new AvatarError(
        'unsupportedSampleRate',
        `unsupported sample rate ${config.sampleRate} Hz; use 8000, 16000, 22050, 24000, 32000, 44100 or 48000.`,
        { phase: 'configure' },
      );
    }
    const resolved = await resolveLiveKitConfig(config.livekit, this.#options);
    const target = new URL(resolved.url);
    if (!isAllowedHost(this.#allowedHosts, target)) {
      this.#options.logger?.warn(
        { connectionId: config.connectionId, host: target.host },
        'LiveKit egress refused: host not in the allowed list',
      );
      throw hostNotAllowed(target);
    }
    const session = new LiveKitEgressSession(config, resolved, this.#options);
    await session.connect();
    return session;
  }
}

type Listener = (...args: unknown[]) => void;

/** One avatar presence in a LiveKit room. Create through {@link LiveKitEgressProvider.open}. */
export class LiveKitEgressSession implements EgressSession {
  readonly kind = 'livekit' as const;
  readonly #config: EgressOpenConfig;
  readonly #resolved: ResolvedLiveKitConfig;
  readonly #options: ProviderOptions;
  readonly #emitter = new EventEmitter();
  readonly #room = new Room();
  /** Rate of the published track: the session's, or twice it when 10 ms is not whole samples. */
  readonly #trackRate: number;
  #resampler: Resampler | undefined;
  /** Request being resampled; a new request flushes the resampler first. */
  #resamplingReq = '';
  #source: AudioSource | undefined;
  #track: LocalAudioTrack | undefined;
  #playout: PlayoutScheduler | undefined;
  /** The LiveKit Agents playback RPCs to the agent (none without an agent to call). */
  #rpc: PlaybackRpc | undefined;
  #open = false;
  #closing: Promise<void> | undefined;

  constructor(config: EgressOpenConfig, resolved: ResolvedLiveKitConfig, options: ProviderOptions) {
    this.#config = config;
    this.#resolved = resolved;
    this.#options = options;
    // libwebrtc takes audio in 10 ms frames; 22050 Hz has no whole 10 ms, so it is doubled.
    this.#trackRate = config.sampleRate % 100 === 0 ? config.sampleRate : config.sampleRate * 2;
    // An 'error' without listeners must not crash the process.
    this.#emitter.on('error', () => {});
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** The avatar's identity in the room. */
  get identity(): string {
    return this.#resolved.identity;
  }

  /** The room the avatar joined. */
  get roomName(): string {
    return this.#resolved.roomName;
  }

  /** The agent the playback RPCs go to; '' when the avatar makes none. */
  get rpcAgentIdentity(): string {
    return this.#rpcAgentIdentity();
  }

  /** Sample rate of the published track. */
  get trackSampleRate(): number {
    return this.#trackRate;
  }

  /** Joins, applies attributes, publishes the track and starts playout. */
  async connect(): Promise<void> {
    const { url, token } = this.#resolved;
    const connecting = this.#room.connect(url, token, { autoSubscribe: false, dynacast: false });
    try {
      await withTimeout(connecting, this.#options.connectTimeoutMs);
    } catch (cause) {
      // A join that completes after the timeout must not leave the avatar in the room.
      connecting.then(
        () => this.#room.disconnect(),
        () => {},
      );
      this.#logUpstream('LiveKit join failed', cause);
      throw connectError(cause, url, this.#options.connectTimeoutMs);
    }
    try {
      const local = this.#room.localParticipant!;
      const missing = Object.entries(this.#resolved.attributes).filter(([k, v]) => local.attributes[k] !== v);
      if (missing.length > 0) {
        try {
          await local.setAttributes(Object.fromEntries(missing));
        } catch (cause) {
          throw new AvatarError(
            'invalidEgressConfig',
            'The avatar could not set its extra_attributes: mint api_token with canUpdateOwnMetadata, or put the attributes into the token.',
            { phase: 'configure', cause },
          );
        }
      }
      // The native queue must hold the whole lead, or capture would block before the lead is reached.
      this.#source = new AudioSource(this.#trackRate, 1, this.#options.maxLeadMs + 200);
      this.#track = LocalAudioTrack.createAudioTrack(AVATAR_AUDIO_TRACK_NAME, this.#source);
      await local.publishTrack(
        this.#track,
        new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
      );
    } catch (error) {
      await this.#release();
      if (isAvatarError(error)) throw error;
      this.#logUpstream('LiveKit track publish failed', error);
      throw new AvatarError(
        'egressUnavailable',
        `The avatar joined room "${this.#resolved.roomName}" but could not publish its audio track. Retry; check that the token grants canPublish.`,
        { phase: 'configure', cause: error },
      );
    }
    this.#room.on(RoomEvent.Disconnected, (reason) => {
      if (!this.#open) return;
      this.#fail(
        new AvatarError(
          'egressUnavailable',
          `The avatar was disconnected from LiveKit room "${this.#resolved.roomName}" (reason ${reason}). Start a new session to rejoin.`,
          { phase: 'stream' },
        ),
      );
    });
    const agent = this.#resolved.attributes[PUBLISH_ON_BEHALF_ATTRIBUTE];
    if (agent && this.#options.leaveWithAgent) {
      this.#room.on(RoomEvent.ParticipantDisconnected, (participant) => {
        if (participant.identity !== agent || !this.#open) return;
        this.#fail(
          new AvatarError(
            'connectionClosed',
            `Agent "${agent}" left LiveKit room "${this.#resolved.roomName}", so the avatar left too. Open a new session when the agent is back.`,
            { phase: 'stream', retryable: false },
          ),
        );
      });
    }
    this.#playout = new PlayoutScheduler(this.#sink(), this.#playoutEvents(), {
      trackRate: this.#trackRate,
      connectionId: this.#config.connectionId,
      avatarId: this.#config.avatarId,
      idleTimeoutMs: this.#resolved.idleTimeoutMs,
      maxLeadMs: this.#options.maxLeadMs,
      frameHoldMs: this.#options.frameHoldMs,
    });
    const rpcAgent = this.#rpcAgentIdentity();
    if (rpcAgent) {
      this.#rpc = new PlaybackRpc({
        local: this.#room.localParticipant!,
        agentIdentity: rpcAgent,
        onClearBuffer: () => this.#emit('clear-buffer'),
        onCallFailed: (method, error) => this.#logUpstream(`LiveKit RPC ${method} failed`, error),
      });
    }
    this.#open = true;
    this.#playout.start();
  }

  pushAudio(pcm: Int16Array, sampleRate: number, reqId: string, end = false): void {
    const playout = this.#requireOpen();
    if (sampleRate !== this.#config.sampleRate) {
      throw new AvatarError(
        'invalidAudio',
        `Audio at ${sampleRate} Hz was pushed into a ${this.#config.sampleRate} Hz session; resample it or configure the session at ${sampleRate} Hz.`,
      );
    }
    if (!reqId)
      throw new AvatarError('invalidRequest', 'Audio without a req_id; give every request a req_id.');
    playout.pushAudio(reqId, this.#toTrackRate(pcm, reqId, end), end);
  }

  pushFrames(frames: readonly DriveFrame[], reqId: string, end: boolean): void {
    const playout = this.#requireOpen();
    if (!reqId)
      throw new AvatarError('invalidRequest', 'Frames without a req_id; give every request a req_id.');
    playout.pushFrames(reqId, frames, end);
  }

  interrupt(reqId?: string): PlaybackSnapshot {
    return this.#playout && this.#open ? this.#playout.interrupt(reqId) : idleSnapshot();
  }

  pause(): PlaybackSnapshot {
    return this.#playout && this.#open ? this.#playout.pause() : idleSnapshot();
  }

  resume(): PlaybackSnapshot {
    return this.#playout && this.#open ? this.#playout.resume() : idleSnapshot();
  }

  snapshot(): PlaybackSnapshot {
    return this.#playout && this.#open ? this.#playout.snapshot() : idleSnapshot();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const wasOpen = this.#open;
      this.#open = false;
      await this.#release();
      if (wasOpen) this.#emit('closed');
    })();
    return this.#closing;
  }

  on<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this {
    this.#emitter.on(event, listener as unknown as Listener);
    return this;
  }

  once<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this {
    this.#emitter.once(event, listener as unknown as Listener);
    return this;
  }

  off<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this {
    this.#emitter.off(event, listener as unknown as Listener);
    return this;
  }

  // ---- internals ----

  #emit<E extends EgressEventName>(event: E, ...args: Parameters<EgressEvents[E]>): void {
    this.#emitter.emit(event, ...args);
  }

  #requireOpen(): PlayoutScheduler {
    if (!this.#open || !this.#playout) {
      throw new AvatarError(
        'invalidState',
        'The LiveKit egress is closed; open a new session to publish again.',
      );
    }
    return this.#playout;
  }

  /**
   * PCM at the track rate; only 22050 Hz sessions resample (to 44100 Hz), with core's streaming
   * resampler (aligned: output sample 2n is input sample n, so frame stamps stay exact). One
   * stream per request; a request that never got its end leaves its tail behind.
   */
  #toTrackRate(pcm: Int16Array, reqId: string, end: boolean): Int16Array {
    if (this.#trackRate === this.#config.sampleRate) return pcm;
    if (this.#resamplingReq !== reqId) this.#resampler = undefined;
    this.#resamplingReq = reqId;
    this.#resampler ??= new Resampler(this.#config.sampleRate, this.#trackRate);
    const out = this.#resampler.pushInt16(pcm);
    if (!end) return out;
    const tail = this.#resampler.flushInt16();
    this.#resampler = undefined;
    this.#resamplingReq = '';
    const joined = new Int16Array(out.length + tail.length);
    joined.set(out);
    joined.set(tail, out.length);
    return joined;
  }

  #sink(): PlayoutSink {
    return {
      capture: async (pcm) => {
        const source = this.#source;
        if (!source || !this.#open) return;
        await source.captureFrame(new AudioFrame(pcm, this.#trackRate, 1, pcm.length));
      },
      clear: () => {
        this.#source?.clearQueue();
      },
      sendFrames: (packet: FramePacket) => {
        this.#publish(encodeFramePacket(packet), FRAMES_TOPIC);
      },
      sendControl: (message: ControlMessage) => {
        this.#publish(encodeControlMessage(message), CONTROL_TOPIC);
      },
    };
  }

  #publish(bytes: Uint8Array, topic: string): void {
    const local = this.#room.localParticipant;
    if (!this.#open || !local || this.#room.connectionState === ConnectionState.CONN_DISCONNECTED) return;
    local.publishData(bytes, { reliable: true, topic }).catch((error: unknown) => {
      if (!this.#open) return;
      this.#logUpstream(`LiveKit publishData (${topic}) failed`, error);
      this.#fail(
        new AvatarError(
          'egressUnavailable',
          `Publishing ${topic} into room "${this.#resolved.roomName}" failed. Start a new session.`,
          { phase: 'stream', cause: error },
        ),
      );
    });
  }

  #playoutEvents() {
    return {
      onPlaying: (reqId: string) => {
        this.#rpc?.started();
        this.#emit('playing', { reqId });
      },
      onEnded: (reqId: string, playedMs: number) => {
        this.#rpc?.finished(playedMs, false);
        this.#emit('ended', { reqId, playedMs });
      },
      onInterrupted: (reqId: string, playedMs: number) => {
        this.#rpc?.finished(playedMs, true);
        this.#emit('interrupted', { reqId, playedMs });
      },
      onIdle: (idleMs: number) => {
        if (!this.#open) return;
        this.#emit('idle-timeout', { idleMs });
        void this.close();
      },
      onError: (error: unknown) => {
        this.#logUpstream('LiveKit audio capture failed', error);
        this.#fail(
          new AvatarError(
            'egressUnavailable',
            "The avatar's audio track stopped taking audio. Start a new session.",
            { phase: 'stream', cause: error },
          ),
        );
      },
    };
  }

  /** Upstream detail (LiveKit's answers, SDK errors) goes to the operator's log, never to the client. */
  #logUpstream(what: string, error: unknown): void {
    this.#options.logger?.warn(
      { connectionId: this.#config.connectionId, url: this.#resolved.url, err: errorText(error) },
      what,
    );
  }

  #fail(error: AvatarError): void {
    if (!this.#open) return;
    this.#emit('error', error);
    void this.close();
  }

  /**
   * Who the playback RPCs go to: extra_params `livekit.agent_identity`, else the avatar's
   * `livekit_agent_identity` attribute, else `lk.publish_on_behalf`; none with
   * `livekit.playback_rpc` = `off`.
   */
  #rpcAgentIdentity(): string {
    const params = this.#config.extraParams ?? {};
    if (params[PLAYBACK_RPC_PARAM] === 'off') return '';
    const attributes = this.#resolved.attributes;
    return (
      params[AGENT_IDENTITY_PARAM] ||
      attributes[AGENT_IDENTITY_ATTRIBUTE] ||
      attributes[PUBLISH_ON_BEHALF_ATTRIBUTE] ||
      ''
    );
  }

  async #release(): Promise<void> {
    if (this.#rpc && this.#playout) this.#rpc.finishOpenSegment(this.#playout.snapshot().playedMs);
    await this.#playout?.stop();
    // Interrupted/ended reports of the stop go out before the avatar leaves; an agent that does
    // not answer holds the leave up for at most a second.
    if (this.#rpc) await withTimeout(this.#rpc.settled(), 1000).catch(() => undefined);
    this.#rpc?.close();
    this.#resampler = undefined;
    try {
      await this.#room.disconnect();
    } catch {
      // Already gone: nothing left to release on the server side.
    }
    await this.#track?.close().catch(() => {});
    await this.#source?.close().catch(() => {});
  }
}

/** extra_params key: `off` stops the avatar's `lk.playback_*` RPCs to the agent. */
export const PLAYBACK_RPC_PARAM = 'livekit.playback_rpc';
/** extra_params key: the identity of the agent the playback RPCs go to. */
export const AGENT_IDENTITY_PARAM = 'livekit.agent_identity';

function idleSnapshot(): PlaybackSnapshot {
  return { state: 'idle', reqId: '', playedMs: 0 };
}

/** An error's text with anything token-like removed (SDK messages may echo the signal URL). */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/access_token=[^&\s"']*/gi, 'access_token=[redacted]')
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[redacted-token]');
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends Error {}

/** Maps a failed join to the error a client can act on. */
function connectError(cause: unknown, url: string, timeoutMs: number): AvatarError {
  if (cause instanceof TimeoutError) {
    return new AvatarError(
      'egressUnavailable',
      `The LiveKit server at ${url} did not accept the avatar within ${timeoutMs} ms; check livekit_egress.url and retry.`,
      { phase: 'configure', cause },
    );
  }
  const text = errorText(cause);
  if (/401|403|unauthori[sz]ed|forbidden|invalid token|token is expired|signature/i.test(text)) {
    return new AvatarError(
      'invalidEgressConfig',
      `The LiveKit server at ${url} rejected the avatar's credentials; check api_key/api_secret or mint a fresh api_token.`,
      { phase: 'configure', cause, retryable: false },
    );
  }
  // The SDK's text can carry the body of whatever answered at that URL: it is logged, not returned.
  return new AvatarError(
    'egressUnavailable',
    `Could not join the LiveKit server at ${url}. Check livekit_egress.url; retry with backoff.`,
    { phase: 'configure', cause },
  );
}
