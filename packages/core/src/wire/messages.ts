/**
 * Typed builders for every driveningress.v2 message. Each sets `Message.type` to match its
 * payload, so SDKs and the service never hand-assemble a `Message`.
 */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import {
  isOpusSampleRate,
  isSupportedSampleRate,
  OPUS_SAMPLE_RATES,
  SUPPORTED_SAMPLE_RATES,
} from '../audio-format.js';
import { AvatarError } from '../errors.js';
import {
  type AgoraEgressConfigSchema,
  AudioFormat,
  EgressType,
  type LiveKitEgressConfigSchema,
  type Message,
  MessageSchema,
  MessageType,
  PlaybackState,
  type ServerResponseAnimation,
  TransportCompression,
} from '../gen/driveningress/v2/driveningress_pb.js';
import {
  DRIVE_FRAME_FIELDS,
  type DriveFrame,
  type DriveFrameField,
  driveFrameToFlame,
  flameToDriveFrame,
} from '../rig.js';
import { toBytes } from './codec.js';

/** Capabilities a server may list in `ServerConfirmSession.capabilities`. */
export const SERVER_CAPABILITIES = ['playback_control', 'playback_state'] as const;
/** A capability name from {@link SERVER_CAPABILITIES}. */
export type ServerCapability = (typeof SERVER_CAPABILITIES)[number];

/** Reasons a `ServerPlaybackState` may give. */
export const PLAYBACK_STATE_REASONS = ['explicit', 'preempted', 'pause_timeout'] as const;
/** A reason from {@link PLAYBACK_STATE_REASONS}. */
export type PlaybackStateReason = (typeof PLAYBACK_STATE_REASONS)[number];

const INT32_MAX = 2 ** 31 - 1;

/** Fields of {@link configureSessionMessage}. */
export interface ConfigureSessionInit {
  /**
   * Sample rate of the audio that follows: one of {@link SUPPORTED_SAMPLE_RATES}, or of
   * {@link OPUS_SAMPLE_RATES} with `audioFormat` OGG_OPUS.
   */
  sampleRate: number;
  /** Encoder bitrate in bit/s (OGG_OPUS only); 0 = unset. */
  bitrate?: number;
  /** Default PCM_S16LE. */
  audioFormat?: AudioFormat;
  /** Default NONE (the only value defined). */
  transportCompression?: TransportCompression;
  /** RTC mode through LiveKit; sets `egress_type` LIVEKIT. */
  livekitEgress?: MessageInitShape<typeof LiveKitEgressConfigSchema>;
  /** RTC mode through Agora; sets `egress_type` AGORA. */
  agoraEgress?: MessageInitShape<typeof AgoraEgressConfigSchema>;
}

/**
 * `ClientConfigureSession`: the first message of every session.
 * @throws AvatarError `unsupportedSampleRate`, or `invalidRequest` for a bad bitrate or two egresses.
 */
export function configureSessionMessage(init: ConfigureSessionInit): Message {
  if (init.audioFormat === AudioFormat.OGG_OPUS) {
    if (!isOpusSampleRate(init.sampleRate)) {
      throw new AvatarError(
        'unsupportedSampleRate',
        `Sample rate ${String(init.sampleRate)} Hz is not an Opus rate; an OGG_OPUS stream is at one of ${OPUS_SAMPLE_RATES.join(', ')} Hz.`,
      );
    }
  } else if (!isSupportedSampleRate(init.sampleRate)) {
    throw new AvatarError(
      'unsupportedSampleRate',
      `Sample rate ${String(init.sampleRate)} Hz is not supported; use one of ${SUPPORTED_SAMPLE_RATES.join(', ')} Hz (resample first).`,
    );
  }
  const bitrate = init.bitrate ?? 0;
  if (!Number.isInteger(bitrate) || bitrate < 0 || bitrate > INT32_MAX) {
    throw new AvatarError(
      'invalidRequest',
      `bitrate must be a non-negative integer (bit/s), got ${bitrate}.`,
    );
  }
  if (init.livekitEgress && init.agoraEgress) {
    throw new AvatarError('invalidEgressConfig', 'Give either livekitEgress or agoraEgress, not both.');
  }
  const egressType = init.livekitEgress
    ? EgressType.LIVEKIT
    : init.agoraEgress
      ? EgressType.AGORA
      : EgressType.UNSPECIFIED;
  return create(MessageSchema, {
    type: MessageType.CLIENT_CONFIGURE_SESSION,
    data: {
      case: 'clientConfigureSession',
      value: {
        sampleRate: init.sampleRate,
        bitrate,
        audioFormat: init.audioFormat ?? AudioFormat.PCM_S16LE,
        transportCompression: init.transportCompression ?? TransportCompression.NONE,
        egressType,
        ...(init.livekitEgress && { livekitEgress: init.livekitEgress }),
        ...(init.agoraEgress && { agoraEgress: init.agoraEgress }),
      },
    },
  });
}

/** Fields of {@link confirmSessionMessage}. */
export interface ConfirmSessionInit {
  connectionId: string;
  capabilities?: readonly string[];
}

/** `ServerConfirmSession`: the server's answer to a valid configure. */
export function confirmSessionMessage(init: ConfirmSessionInit): Message {
  return create(MessageSchema, {
    type: MessageType.SERVER_CONFIRM_SESSION,
    data: {
      case: 'serverConfirmSession',
      value: { connectionId: init.connectionId, capabilities: [...(init.capabilities ?? [])] },
    },
  });
}

/** Fields of {@link audioInputMessage}. */
export interface AudioInputInit {
  /** Client-generated id shared by every chunk of one utterance. */
  reqId: string;
  /**
   * s16le mono PCM; with OGG_OPUS, the next bytes of the request's Ogg Opus stream (split
   * anywhere). May be empty on the last chunk.
   */
  audio?: Uint8Array | ArrayBuffer | ArrayBufferView;
  /** True on the utterance's last chunk. */
  end?: boolean;
}

/**
 * `ClientAudioInput`: one chunk of an utterance. A typed-array `audio` is sent as its bytes
 * in platform order (little-endian on every JS engine in use).
 * @throws AvatarError `invalidRequest` for an empty reqId or non-binary audio.
 */
export function audioInputMessage(init: AudioInputInit): Message {
  requireReqId(init.reqId, 'audio input');
  const audio = init.audio === undefined ? new Uint8Array(0) : toBytes(init.audio);
  return create(MessageSchema, {
    type: MessageType.CLIENT_AUDIO_INPUT,
    data: { case: 'clientAudioInput', value: { reqId: init.reqId, end: init.end ?? false, audio } },
  });
}

/** `ClientInterrupt`: stop the output of `reqId` (the latest request) at once. */
export function interruptMessage(reqId: string): Message {
  requireReqId(reqId, 'interrupt');
  return create(MessageSchema, {
    type: MessageType.CLIENT_INTERRUPT,
    data: { case: 'clientInterrupt', value: { reqId } },
  });
}

/** `ClientPause`: pause the output of `reqId`; answered by one `ServerPlaybackState`. */
export function pauseMessage(reqId: string): Message {
  requireReqId(reqId, 'pause');
  return create(MessageSchema, {
    type: MessageType.CLIENT_PAUSE,
    data: { case: 'clientPause', value: { reqId } },
  });
}

/** `ClientResume`: resume the output of `reqId`; answered by one `ServerPlaybackState`. */
export function resumeMessage(reqId: string): Message {
  requireReqId(reqId, 'resume');
  return create(MessageSchema, {
    type: MessageType.CLIENT_RESUME,
    data: { case: 'clientResume', value: { reqId } },
  });
}

/** Fields of {@link serverErrorMessage}. */
export interface ServerErrorInit {
  connectionId?: string;
  reqId?: string;
  /** A close code (4001, 4002, 4003, 4010, 4503) or another code of `SERVER_ERROR_CODES`. */
  code: number;
  /** What went wrong and what to do; never secrets. */
  message: string;
}

/** `ServerError`. To send an {@link AvatarError}, use `serverErrorMessageFromAvatarError`. */
export function serverErrorMessage(init: ServerErrorInit): Message {
  if (!Number.isInteger(init.code) || init.code < -INT32_MAX - 1 || init.code > INT32_MAX) {
    throw new AvatarError('invalidRequest', `ServerError code must be an int32, got ${init.code}.`);
  }
  return create(MessageSchema, {
    type: MessageType.SERVER_ERROR,
    data: {
      case: 'serverError',
      value: {
        connectionId: init.connectionId ?? '',
        reqId: init.reqId ?? '',
        code: init.code,
        message: init.message,
      },
    },
  });
}

/** Fields of {@link responseAnimationMessage}. */
export interface ResponseAnimationInit {
  connectionId?: string;
  reqId: string;
  /** True on the request's last animation message. */
  end?: boolean;
  /** Keyframes in order; packed with `driveFrameToFlame`. */
  frames: readonly DriveFrame[];
  avatarId?: string;
}

/**
 * `ServerResponseAnimation` carrying `frames` as `Flame` keyframes.
 * @throws AvatarError `invalidRequest` for an empty reqId or a NaN/infinite value in a frame.
 */
export function responseAnimationMessage(init: ResponseAnimationInit): Message {
  requireReqId(init.reqId, 'response animation');
  init.frames.forEach((frame, i) => {
    const field = nonFiniteField(frame);
    if (field !== undefined) {
      throw new AvatarError(
        'invalidRequest',
        `Frame ${i} (index ${frame.index}) has a NaN or infinite value in ${field}; send only finite rig values.`,
      );
    }
  });
  return create(MessageSchema, {
    type: MessageType.SERVER_RESPONSE_ANIMATION,
    data: {
      case: 'serverResponseAnimation',
      value: {
        connectionId: init.connectionId ?? '',
        reqId: init.reqId,
        end: init.end ?? false,
        // No keyframes, no animation field: the bytes the service's fast encoder writes.
        ...(init.frames.length > 0 && { animation: { keyframes: init.frames.map(driveFrameToFlame) } }),
        avatarId: init.avatarId ?? '',
      },
    },
  });
}

/**
 * Unpacks the keyframes of a `ServerResponseAnimation`, numbering them from `firstIndex`
 * (the count of frames already received for the request).
 * @throws AvatarError `protocolError` when a keyframe does not fit rig arkit-52 or holds NaN/∞.
 */
export function animationToDriveFrames(animation: ServerResponseAnimation, firstIndex = 0): DriveFrame[] {
  return (animation.animation?.keyframes ?? []).map((flame, i) => {
    const frame = flameToDriveFrame(flame, firstIndex + i);
    const field = nonFiniteField(frame);
    if (field !== undefined) {
      throw new AvatarError(
        'protocolError',
        `Keyframe ${i} has a NaN or infinite value in ${field}; the sender produced an invalid animation.`,
      );
    }
    return frame;
  });
}

/** The first field of `frame` holding a NaN or infinity, if any. */
function nonFiniteField(frame: DriveFrame): DriveFrameField | undefined {
  return DRIVE_FRAME_FIELDS.find((name) => frame[name].some((v) => !Number.isFinite(v)));
}

/** Fields of {@link playbackStateMessage}. */
export interface PlaybackStateInit {
  connectionId?: string;
  reqId: string;
  state: PlaybackState;
  /** Milliseconds of the request's audio played so far. */
  playedMs: number | bigint;
  reason?: PlaybackStateReason | '';
}

/** `ServerPlaybackState`: the state after a pause or resume (exactly one per operation). */
export function playbackStateMessage(init: PlaybackStateInit): Message {
  if (init.state === PlaybackState.UNSPECIFIED || PlaybackState[init.state] === undefined) {
    throw new AvatarError('invalidRequest', `Playback state must be PLAYING, PAUSED, ENDED or INTERRUPTED.`);
  }
  const playedMs = typeof init.playedMs === 'bigint' ? init.playedMs : toBigInt(init.playedMs);
  if (playedMs < 0n || playedMs > 0x7fffffffffffffffn) {
    throw new AvatarError('invalidRequest', `playedMs must be a non-negative int64, got ${playedMs}.`);
  }
  return create(MessageSchema, {
    type: MessageType.SERVER_PLAYBACK_STATE,
    data: {
      case: 'serverPlaybackState',
      value: {
        connectionId: init.connectionId ?? '',
        reqId: init.reqId,
        state: init.state,
        playedMs,
        reason: init.reason ?? '',
      },
    },
  });
}

function toBigInt(ms: number): bigint {
  if (!Number.isSafeInteger(ms)) {
    throw new AvatarError('invalidRequest', `playedMs must be a whole number of milliseconds, got ${ms}.`);
  }
  return BigInt(ms);
}

function requireReqId(reqId: unknown, what: string): void {
  if (typeof reqId !== 'string' || reqId.length === 0) {
    throw new AvatarError('invalidRequest', `A ${what} message needs a non-empty reqId string.`);
  }
}
