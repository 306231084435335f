/**
 * AvatarSession's options checked and resolved once, at construction: where to connect, the
 * retry policy, the rate sent to the service (after resampling), Host or RTC mode, and the
 * configure message. A bad option throws here, before anything connects.
 */
import {
  AudioFormat,
  AvatarError,
  configureSessionMessage,
  isSupportedSampleRate,
  type Message,
  nearestSupportedSampleRate,
  type ResolvedEndpoint,
  resolveReconnectPolicy,
  SUPPORTED_SAMPLE_RATES,
  validateAudioFormat,
} from '@avatar-drive/core';
import { DEFAULT_RECONNECT, type ReconnectOptions } from './backoff.js';
import { egressConfigure } from './egress.js';
import { endpointsFor } from './endpoints.js';
import { opusSendOptions } from './opus-sending.js';
import type { AvatarSessionOptions } from './session-types.js';
import { checkTokenOptions } from './token-source.js';

/** What a session runs with. */
export interface ResolvedSessionOptions {
  endpoints: ResolvedEndpoint[];
  reconnect: Required<ReconnectOptions>;
  /** The rate `sendAudio` takes. */
  inputRate: number;
  /** The rate sent to the service (after resampling). */
  sampleRate: number;
  /** No egress: the audio and animation come back as relay messages. */
  hostMode: boolean;
  /** The bitrate when sending Ogg Opus. */
  opusBitrate: number | undefined;
  /** The ClientConfigureSession every connection sends. */
  configure: Message;
}

/** @throws AvatarError `invalidRequest`, `unsupportedSampleRate`, `invalidEgressConfig` for bad options. */
export function resolveSessionOptions(options: AvatarSessionOptions): ResolvedSessionOptions {
  if (typeof options !== 'object' || options === null) {
    throw new AvatarError(
      'invalidRequest',
      'new AvatarSession() takes an options object: { avatarId, appId, apiKey, sampleRate }.',
    );
  }
  for (const field of ['avatarId', 'appId'] as const) {
    if (typeof options[field] !== 'string' || options[field].trim() === '') {
      throw new AvatarError('invalidRequest', `${field} is required: pass it as a non-empty string.`, {
        phase: 'initialize',
      });
    }
  }
  checkTokenOptions(options);
  const endpoints = endpointsFor(options);
  const retry: ReconnectOptions =
    options.reconnect === false ? { maxAttempts: 1, afterDrop: false } : { ...options.reconnect };
  const reconnect = {
    ...resolveReconnectPolicy(retry),
    afterDrop: retry.afterDrop ?? DEFAULT_RECONNECT.afterDrop,
  };
  const sampleRate = sentSampleRate(options);
  const opusBitrate = opusSendOptions(options.audioFormat, options.opusBitrate, sampleRate);
  const configure = configureSessionMessage({
    sampleRate,
    ...(opusBitrate !== undefined && { audioFormat: AudioFormat.OGG_OPUS, bitrate: opusBitrate }),
    ...egressConfigure(options.egress),
  });
  return {
    endpoints,
    reconnect,
    inputRate: options.sampleRate,
    sampleRate,
    hostMode: options.egress === undefined,
    opusBitrate,
    configure,
  };
}

/** The rate sent to the service: `sampleRate`, or what `resample` asks for. */
function sentSampleRate(options: AvatarSessionOptions): number {
  if (options.resample) {
    if (
      typeof options.sampleRate !== 'number' ||
      !Number.isInteger(options.sampleRate) ||
      options.sampleRate <= 0
    ) {
      throw new AvatarError(
        'invalidRequest',
        `sampleRate must be a positive whole number of Hz, got ${String(options.sampleRate)}.`,
      );
    }
    const target =
      options.resample === true ? nearestSupportedSampleRate(options.sampleRate) : options.resample.to;
    return validateAudioFormat({ sampleRate: target });
  }
  if (!isSupportedSampleRate(options.sampleRate)) {
    throw new AvatarError(
      'unsupportedSampleRate',
      `sampleRate ${String(options.sampleRate)} Hz is not supported by the service (${SUPPORTED_SAMPLE_RATES.join(', ')}). Pass resample: true to have the SDK resample, or resample yourself.`,
      { phase: 'initialize' },
    );
  }
  return options.sampleRate;
}
