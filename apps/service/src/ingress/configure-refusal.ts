/**
 * What this server refuses in a ClientConfigureSession before anything is opened: audio it cannot
 * decode and sample rates outside the contract. (The egress type is checked when the output is
 * chosen, `session-output.ts`.)
 */
import { type AvatarErrorCode, isSupportedSampleRate, wire } from '@avatar-drive/core';

const { AudioFormat } = wire;

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
  if (config.audioFormat !== AudioFormat.PCM_S16LE) {
    const name = AudioFormat[config.audioFormat] ?? String(config.audioFormat);
    return {
      code: 'invalidAudio',
      message: `Audio format ${name} is not supported by this server yet. Send mono PCM_S16LE audio.`,
    };
  }
  if (!isSupportedSampleRate(config.sampleRate)) {
    // "unsupported sample rate" is the phrase existing driveningress.v2 SDKs classify by.
    return {
      code: 'unsupportedSampleRate',
      message: `unsupported sample rate ${config.sampleRate} Hz. Use 8000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz, or leave sample_rate unset for 16000.`,
    };
  }
  return undefined;
}
