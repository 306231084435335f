/**
 * What this server refuses in a ClientConfigureSession before anything is opened: audio it cannot
 * decode, sample rates outside the contract (`audio/session-audio.ts` knows the formats), oversized
 * extra_params and an egress type nobody defined. (Whether this server runs the egress asked for is
 * checked when the output is chosen, `session-output.ts`.)
 */
import { AvatarError, type AvatarErrorCode, type wire } from '@avatar-drive/core';
import { audioFormatRefusal } from '../audio/session-audio.js';
import { egressKindOf } from '../egress/registry.js';
import { extraParamsRefusal } from './extra-params.js';

/** The rate of a ClientConfigureSession without sample_rate (the audio contract's default). */
export const DEFAULT_SAMPLE_RATE = 16000;

/** Fills in what an unset field means: sample_rate 0 (proto3 "not set") is 16000 Hz. */
export function configureDefaults(config: wire.ClientConfigureSession): wire.ClientConfigureSession {
  if (config.sampleRate === 0) config.sampleRate = DEFAULT_SAMPLE_RATE;
  return config;
}

/** The error to end the session with, or undefined when the configuration is acceptable. */
export function configureRefusal(
  config: wire.ClientConfigureSession,
): { code: AvatarErrorCode; message: string } | undefined {
  // An unknown egress_type is the client's mistake (4008), refused as data here: everything
  // after this reads the type as known, so nothing later throws on it as an internal error.
  try {
    egressKindOf(config.egressType);
  } catch (error) {
    if (error instanceof AvatarError) return { code: error.code, message: error.message };
    throw error;
  }
  // The audio format decides which sample rates are valid (PCM: the contract's 7; Opus: its 5).
  return audioFormatRefusal(config) ?? extraParamsRefusal(config.extraParams);
}
