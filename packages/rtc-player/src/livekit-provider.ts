/**
 * LiveKitProvider: joins a LiveKit room with livekit-client 2.16.1, subscribes to the avatar
 * participant's `avatar-drive.audio` track only (never to anything else, so the user never hears
 * their own microphone echoed back), plays it through a native `<audio>` element, and hands the
 * avatar's frame packets and control messages to the player.
 */
import { AVATAR_AUDIO_TRACK_NAME, AvatarError, CONTROL_TOPIC, FRAMES_TOPIC } from '@avatar-drive/core';
import {
  ConnectionError,
  ConnectionErrorReason,
  DisconnectReason,
  type LocalTrackPublication,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  type RoomOptions,
  Track,
} from 'livekit-client';
import { TypedEmitter } from './emitter.js';
import type { RtcConnectConfig, RtcConnectionState, RtcProvider, RtcProviderEvents } from './provider.js';

/** Options of {@link LiveKitProvider}. */
export interface LiveKitProviderOptions {
  /**
   * Identity of the avatar participant to follow. Default: whichever participant publishes an
   * `avatar-drive.audio` track (one avatar per room).
   */
  avatarIdentity?: string;
  /** Where the hidden `<audio>` element of the avatar's track goes; default `document.body`. */
  audioContainer?: HTMLElement;
  /** Extra livekit-client room options (subscription, WebAudio mixing and adaptive stream stay off). */
  roomOptions?: Partial<RoomOptions>;
}

/** LiveKit as the room of {@link AvatarPlayer}. */
export class LiveKitProvider extends TypedEmitter<RtcProviderEvents> implements RtcProvider {
  readonly #options: LiveKitProviderOptions;
  #room: Room | undefined;
  #state: RtcConnectionState = 'disconnected';
  #lastConfig: RtcConnectConfig | undefined;
  #avatarIdentity: string | undefined;
  #avatarTrack: RemoteTrack | undefined;
  #audioElements: HTMLMediaElement[] = [];
  #published: MediaStreamTrack | undefined;
  #leaving = false;

  constructor(options: LiveKitProviderOptions = {}) {
    super();
    this.#options = options;
    this.#avatarIdentity = options.avatarIdentity;
  }

  /** True while connected (also while reconnecting media, not while disconnected). */
  get isConnected(): boolean {
    return this.#state === 'connected';
  }

  /** The livekit-client `Room` while connected (for your own tracks and UI), else `undefined`. */
  get room(): Room | undefined {
    return this.#room;
  }

  /** The identity of the avatar participant being followed, once known. */
  get avatarIdentity(): string | undefined {
    return this.#avatarIdentity;
  }

  getConnectionState(): RtcConnectionState {
    return this.#state;
  }

  /**
   * Joins the room. Rejects with `invalidRequest` for a bad config, `invalidState` when already
   * connected, `sessionTokenInvalid` when the server refuses the token, `connectionFailed`
   * (retryable) when the server cannot be reached.
   */
  async connect(config: RtcConnectConfig): Promise<void> {
    validateConfig(config);
    if (this.#state !== 'disconnected' && this.#state !== 'failed') {
      throw new AvatarError(
        'invalidState',
        `connect() while ${this.#state}; call disconnect() first, or reconnect() to rejoin.`,
        { phase: 'connect' },
      );
    }
    this.#lastConfig = { ...config };
    const room = new Room({
      ...this.#options.roomOptions,
      adaptiveStream: false,
      dynacast: false,
      webAudioMix: false,
    });
    this.#room = room;
    this.#listen(room);
    this.#setState('connecting');
    try {
      await room.connect(config.url, config.token, { autoSubscribe: false });
    } catch (cause) {
      this.#room = undefined;
      room.removeAllListeners();
      const error = connectError(cause);
      // A cancelled connect (disconnect() while connecting) is not a failure.
      this.#setState(error.code === 'connectionClosed' ? 'disconnected' : 'failed');
      throw error;
    }
    if (config.roomName !== undefined && room.name !== config.roomName) {
      await this.disconnect();
      throw new AvatarError(
        'invalidRequest',
        `The token joined room "${room.name}" but connect() asked for "${config.roomName}"; mint the token for that room.`,
        { phase: 'connect' },
      );
    }
    for (const participant of room.remoteParticipants.values()) {
      for (const publication of participant.trackPublications.values())
        this.#consider(publication, participant);
    }
    this.#setState('connected');
    this.emit('connected');
  }

  /** Leaves the room and stops playing the avatar's audio. */
  async disconnect(): Promise<void> {
    const room = this.#room;
    if (!room) return;
    this.#leaving = true;
    try {
      await room.disconnect(true);
    } finally {
      this.#leaving = false;
      this.#teardown(room, 'CLIENT_INITIATED');
    }
  }

  /** Leaves and joins again with the config of the last {@link connect}. */
  async reconnect(): Promise<void> {
    const config = this.#lastConfig;
    if (!config) {
      throw new AvatarError('invalidState', 'reconnect() needs an earlier connect({ url, token }).', {
        phase: 'connect',
      });
    }
    await this.disconnect();
    await this.connect(config);
  }

  /**
   * Publishes the user's microphone (the browser asks for permission).
   * @throws AvatarError `invalidState` when not connected; `invalidRequest` when the microphone is refused.
   */
  async startPublishing(): Promise<void> {
    const room = this.#connectedRoom('startPublishing()');
    try {
      await room.localParticipant.setMicrophoneEnabled(true);
    } catch (cause) {
      throw new AvatarError(
        'invalidRequest',
        'The microphone could not be opened; allow microphone access and retry.',
        {
          cause,
          phase: 'stream',
        },
      );
    }
  }

  /** Stops publishing the microphone. */
  async stopPublishing(): Promise<void> {
    const room = this.#room;
    if (!room || this.#state === 'disconnected') return;
    await room.localParticipant.setMicrophoneEnabled(false);
  }

  /**
   * Publishes `track` (an audio `MediaStreamTrack` of your own) as the user's microphone.
   * @throws AvatarError `invalidState` when not connected or a track is already published;
   *   `invalidRequest` for anything but a live audio track.
   */
  async publishAudio(track: MediaStreamTrack): Promise<void> {
    const room = this.#connectedRoom('publishAudio()');
    if (
      typeof MediaStreamTrack === 'undefined' ||
      !(track instanceof MediaStreamTrack) ||
      track.kind !== 'audio'
    ) {
      throw new AvatarError('invalidRequest', 'publishAudio(track) needs an audio MediaStreamTrack.', {
        phase: 'stream',
      });
    }
    if (track.readyState !== 'live') {
      throw new AvatarError(
        'invalidRequest',
        'publishAudio(track) got a track that has ended; pass a live one.',
        {
          phase: 'stream',
        },
      );
    }
    if (this.#published) {
      throw new AvatarError(
        'invalidState',
        'An audio track is already published; call unpublishAudio() first.',
        {
          phase: 'stream',
        },
      );
    }
    let publication: LocalTrackPublication;
    try {
      publication = await room.localParticipant.publishTrack(track, { source: Track.Source.Microphone });
    } catch (cause) {
      throw new AvatarError(
        'connectionFailed',
        'Publishing the audio track failed; check the connection and retry.',
        {
          cause,
          retryable: true,
          phase: 'stream',
        },
      );
    }
    if (publication) this.#published = track;
  }

  /** Unpublishes the track given to {@link publishAudio} (the track itself is not stopped). */
  async unpublishAudio(): Promise<void> {
    const track = this.#published;
    this.#published = undefined;
    if (!track || !this.#room) return;
    await this.#room.localParticipant.unpublishTrack(track, false);
  }

  /**
   * Starts audio playback after the browser blocked autoplay: call from a click handler when
   * `room.canPlaybackAudio` is false.
   */
  async startAudio(): Promise<void> {
    await this.#room?.startAudio();
  }

  #connectedRoom(what: string): Room {
    if (!this.#room || this.#state === 'disconnected' || this.#state === 'connecting') {
      throw new AvatarError('invalidState', `${what} needs a connected room; await connect() first.`, {
        phase: 'stream',
      });
    }
    return this.#room;
  }

  #listen(room: Room): void {
    room
      .on(RoomEvent.TrackPublished, (publication, participant) => this.#consider(publication, participant))
      .on(RoomEvent.TrackSubscribed, (track, publication, participant) =>
        this.#subscribed(track, publication, participant),
      )
      .on(RoomEvent.TrackUnsubscribed, (track) => {
        if (track === this.#avatarTrack) this.#dropAvatarTrack();
      })
      .on(RoomEvent.ParticipantDisconnected, (participant) => this.#avatarLeft(room, participant))
      .on(RoomEvent.DataReceived, (payload, participant, _kind, topic) => {
        if (topic !== FRAMES_TOPIC && topic !== CONTROL_TOPIC) return;
        if (this.#avatarIdentity !== undefined && participant?.identity !== this.#avatarIdentity) return;
        if (topic === FRAMES_TOPIC)
          this.emit('framePacket', payload, performance.timeOrigin + performance.now());
        else this.emit('controlMessage', payload);
      })
      .on(RoomEvent.Reconnecting, () => this.#setState('reconnecting'))
      .on(RoomEvent.Reconnected, () => {
        this.#setState('connected');
        this.emit('connected');
      })
      .on(RoomEvent.Disconnected, (reason) => {
        // While connecting, connect()'s own rejection decides the state (failed).
        if (this.#leaving || this.#state === 'connecting') return;
        this.#teardown(room, reason === undefined ? 'UNKNOWN_REASON' : DisconnectReason[reason]);
      });
  }

  /** Subscribes to `publication` when it is the avatar's audio. */
  #consider(publication: RemoteTrackPublication, participant: RemoteParticipant): void {
    if (publication.kind !== Track.Kind.Audio || publication.trackName !== AVATAR_AUDIO_TRACK_NAME) return;
    if (this.#avatarIdentity !== undefined && participant.identity !== this.#avatarIdentity) return;
    this.#avatarIdentity ??= participant.identity;
    publication.setSubscribed(true);
  }

  /**
   * The avatar participant left (its session ended, or it restarts under another identity): an
   * identity that was picked automatically is released, so the next avatar to publish — or one
   * already in the room — is heard without reconnecting.
   */
  #avatarLeft(room: Room, participant: RemoteParticipant): void {
    if (participant.identity !== this.#avatarIdentity) return;
    if (this.#avatarTrack) this.#dropAvatarTrack();
    if (this.#options.avatarIdentity !== undefined) return;
    this.#avatarIdentity = undefined;
    for (const other of room.remoteParticipants.values()) {
      if (other.identity === participant.identity) continue;
      for (const publication of other.trackPublications.values()) this.#consider(publication, other);
    }
  }

  #subscribed(track: RemoteTrack, publication: RemoteTrackPublication, participant: RemoteParticipant): void {
    if (publication.trackName !== AVATAR_AUDIO_TRACK_NAME || participant.identity !== this.#avatarIdentity)
      return;
    if (this.#avatarTrack) this.#dropAvatarTrack();
    this.#avatarTrack = track;
    const element = track.attach();
    element.style.display = 'none';
    (this.#options.audioContainer ?? document.body).appendChild(element);
    this.#audioElements.push(element);
    const receiver = track.receiver;
    this.emit('avatarAudio', {
      participantId: participant.identity,
      getStats: () =>
        receiver ? receiver.getStats() : Promise.resolve(new Map() as unknown as RTCStatsReport),
    });
  }

  #dropAvatarTrack(): void {
    const track = this.#avatarTrack;
    this.#avatarTrack = undefined;
    track?.detach();
    for (const element of this.#audioElements) element.remove();
    this.#audioElements = [];
    this.emit('avatarAudio', undefined);
  }

  #teardown(room: Room, reason: string): void {
    if (this.#room !== room) return;
    if (this.#avatarTrack) this.#dropAvatarTrack();
    room.removeAllListeners();
    this.#room = undefined;
    this.#published = undefined;
    if (this.#options.avatarIdentity === undefined) this.#avatarIdentity = undefined;
    const wasConnected = this.#state !== 'disconnected' && this.#state !== 'failed';
    // Dropped while the room was reconnecting on its own: that reconnection failed.
    const failed = this.#state === 'reconnecting' && reason !== 'CLIENT_INITIATED';
    this.#setState(failed ? 'failed' : 'disconnected');
    if (wasConnected) this.emit('disconnected', reason);
  }

  #setState(state: RtcConnectionState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.emit('connectionStateChanged', state);
  }
}

function validateConfig(config: RtcConnectConfig): void {
  const c = config as Partial<RtcConnectConfig> | null;
  if (typeof c !== 'object' || c === null) {
    throw new AvatarError('invalidRequest', 'connect() needs { url, token, roomName? }.', {
      phase: 'connect',
    });
  }
  if (typeof c.url !== 'string' || !/^wss?:\/\/[^\s]+$/i.test(c.url)) {
    throw new AvatarError('invalidRequest', 'connect() needs the LiveKit server URL as ws:// or wss://.', {
      phase: 'connect',
    });
  }
  if (typeof c.token !== 'string' || c.token.split('.').length !== 3) {
    throw new AvatarError(
      'invalidRequest',
      'connect() needs a LiveKit join token (a JWT) minted by your server for this user.',
      { phase: 'connect' },
    );
  }
  if (c.roomName !== undefined && (typeof c.roomName !== 'string' || c.roomName === '')) {
    throw new AvatarError('invalidRequest', 'roomName must be a non-empty string when given.', {
      phase: 'connect',
    });
  }
}

function connectError(cause: unknown): AvatarError {
  if (cause instanceof AvatarError) return cause;
  if (cause instanceof ConnectionError) {
    if (cause.reason === ConnectionErrorReason.NotAllowed) {
      return new AvatarError(
        'sessionTokenInvalid',
        'The LiveKit server refused the token (invalid, expired or for another room); mint a fresh one.',
        { cause, phase: 'connect', retryable: false },
      );
    }
    if (cause.reason === ConnectionErrorReason.Cancelled) {
      return new AvatarError('connectionClosed', 'connect() was cancelled by disconnect().', {
        cause,
        phase: 'connect',
      });
    }
  }
  return new AvatarError('connectionFailed', 'Could not reach the LiveKit server; check the URL and retry.', {
    cause,
    phase: 'connect',
    retryable: true,
  });
}
