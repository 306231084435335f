/**
 * `audioFormat: 'ogg_opus'`: the session encodes each turn's PCM to one Ogg Opus stream before it
 * goes to the service (about a tenth of the bytes at 24 kbit/s), with libopus from the optional
 * peer dependency `@evan/opus`, loaded on `start()` only when this format is chosen.
 */
import { randomBytes } from 'node:crypto';
import { AvatarError } from '@avatar-drive/core';
import { OggOpusWriter, type OpusFrameEncoder } from './ogg-opus-writer.js';

/** What `sendAudio` sends: PCM as given (default), or Ogg Opus encoded by the SDK. */
export type SendAudioFormat = 'pcm_s16le' | 'ogg_opus';

/** Default Opus bitrate, bit/s: wideband speech with margin. */
export const DEFAULT_OPUS_BITRATE = 24000;

/**
 * Rates the SDK sends Ogg Opus at: the Opus rates that are also PCM rates, since a Host-mode
 * relay still carries the PCM to the browser (12 kHz is an Opus rate only).
 */
export const OPUS_SEND_RATES: readonly number[] = [8000, 16000, 24000, 48000];

/** Checks the options; the bitrate to use, or undefined for PCM. */
export function opusSendOptions(
  format: SendAudioFormat | undefined,
  bitrate: number | undefined,
  sampleRate: number,
): number | undefined {
  if (format === undefined || format === 'pcm_s16le') {
    if (bitrate !== undefined) {
      throw new AvatarError('invalidRequest', "opusBitrate is for audioFormat: 'ogg_opus'.", {
        phase: 'initialize',
      });
    }
    return undefined;
  }
  if (format !== 'ogg_opus') {
    throw new AvatarError(
      'invalidRequest',
      `audioFormat must be 'pcm_s16le' or 'ogg_opus', got ${String(format)}.`,
      {
        phase: 'initialize',
      },
    );
  }
  if (!OPUS_SEND_RATES.includes(sampleRate)) {
    throw new AvatarError(
      'unsupportedSampleRate',
      `audioFormat 'ogg_opus' sends at ${OPUS_SEND_RATES.join(', ')} Hz, not ${sampleRate} Hz: pass one of them as sampleRate, or resample: { to: 16000 }.`,
      { phase: 'initialize' },
    );
  }
  const rate = bitrate ?? DEFAULT_OPUS_BITRATE;
  if (!Number.isInteger(rate) || rate < 6000 || rate > 510000) {
    throw new AvatarError(
      'invalidRequest',
      `opusBitrate must be a whole number of bit/s from 6000 to 510000, got ${String(bitrate)}.`,
      {
        phase: 'initialize',
      },
    );
  }
  return rate;
}

/** One libopus encoder for a session; each turn gets a fresh stream from it. */
export class OpusSender {
  readonly #encoder: OpusFrameEncoder;
  readonly #rate: number;

  private constructor(encoder: OpusFrameEncoder, rate: number) {
    this.#encoder = encoder;
    this.#rate = rate;
  }

  /**
   * Loads `@evan/opus` and makes the encoder.
   * @throws AvatarError `invalidRequest` when the package is not installed.
   */
  static async load(rate: number, bitrate: number): Promise<OpusSender> {
    let opus: typeof import('@evan/opus');
    try {
      opus = await import('@evan/opus');
    } catch (error) {
      throw new AvatarError(
        'invalidRequest',
        `audioFormat 'ogg_opus' needs the optional peer dependency @evan/opus (npm install @evan/opus@1.0.3): ${(error as Error).message}`,
        { phase: 'initialize' },
      );
    }
    const encoder = new opus.Encoder({ channels: 1, sample_rate: rate as 16000, application: 'voip' });
    encoder.bitrate = bitrate;
    return new OpusSender(encoder as unknown as OpusFrameEncoder, rate);
  }

  /** A writer for the next turn's stream (a new random serial number). */
  newTurn(): OggOpusWriter {
    return new OggOpusWriter(this.#encoder, this.#rate, randomBytes(4).readUInt32LE(0));
  }
}
