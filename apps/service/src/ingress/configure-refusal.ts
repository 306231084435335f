/**
 * What this server refuses in a ClientConfigureSession before anything is opened: audio it cannot
 * decode and sample rates outside the contract. (The egress type is checked when the output is
 * chosen, `session-output.ts`.)
 */
import { type AvatarErrorCode, isSupportedSampleRate, wire } from '@avatar-drive/core';

const { AudioFormat } = wire;

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
    return {
      code: 'unsupportedSampleRate',
      message: `Sample rate ${config.sampleRate} Hz is not supported. Use 8000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz.`,
    };
  }
  return undefined;
}
