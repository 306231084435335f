/**
 * What a session does with the bytes of ClientAudioInput, chosen once at configure from
 * `audio_format`: PCM_S16LE is checked and viewed as samples; OGG_OPUS is demuxed and decoded
 * ({@link OggOpusStream}, one stream per req_id). Either way the session, its engine and its
 * output see mono s16 PCM at {@link SessionAudio.sampleRate}.
 */
import {
  assertPcmChunk,
  isOpusSampleRate,
  isSupportedSampleRate,
  OPUS_SAMPLE_RATES,
  wire,
} from '@avatar-drive/core';
import { OggOpusStream } from './ogg-opus-stream.js';
import { OpusPacketDecoder, type OpusRate } from './opus-decoder.js';

const { AudioFormat } = wire;

export interface SessionAudio {
  /** Rate of the PCM this input yields: the rate the engine and the output run at. */
  readonly sampleRate: number;
  /**
   * True when a chunk is checked on its own, before the session looks at its request (PCM);
   * false when it continues its request's stream, so only live requests' chunks may be decoded.
   */
  readonly standalone: boolean;
  /**
   * The PCM in one ClientAudioInput of `reqId` (`end` on its last). May be empty.
   * @throws AvatarError `invalidAudio` with what the client must change.
   */
  decode(reqId: string, audio: Uint8Array, end: boolean): Int16Array;
  /** Releases the decoder. */
  close(): void;
}

/**
 * The rate an Ogg Opus session decodes to. libopus decodes straight to any of its rates, so the
 * cheapest path that keeps everything the engine reads is chosen: the engine's features read the
 * spectrum up to 8 kHz, so 16 kHz keeps all of it with no resampling anywhere (8 kHz streams stay
 * at 8 kHz: they carry nothing above 4 kHz). With an RTC egress the PCM is also what the room
 * hears, so the stream's own rate is kept (12 kHz, not a rate the engine or the rooms take, is
 * decoded at 16 kHz).
 */
export function opusDecodeRate(configured: OpusRate, toRoom: boolean): OpusRate {
  if (configured === 8000) return 8000;
  if (!toRoom || configured === 12000) return 16000;
  return configured;
}

class PcmAudio implements SessionAudio {
  readonly standalone = true;
  constructor(readonly sampleRate: number) {}

  decode(_reqId: string, audio: Uint8Array): Int16Array {
    // Aligned bytes are viewed in place; unaligned ones are copied in one block (not per sample).
    return assertPcmChunk(
      audio.byteOffset % 2 === 0 || audio.byteLength % 2 !== 0 ? audio : new Uint8Array(audio),
    );
  }

  close(): void {}
}

class OggOpusAudio implements SessionAudio {
  readonly standalone = false;
  readonly sampleRate: number;
  readonly #decoder: OpusPacketDecoder;
  #reqId = '';
  #stream: OggOpusStream | undefined;

  constructor(rate: OpusRate) {
    this.#decoder = new OpusPacketDecoder(rate);
    this.sampleRate = rate;
  }

  decode(reqId: string, audio: Uint8Array, end: boolean): Int16Array {
    if (reqId !== this.#reqId || !this.#stream) {
      // A new request: its own stream from its first page.
      this.#reqId = reqId;
      this.#stream = new OggOpusStream(this.#decoder);
    }
    const stream = this.#stream;
    const pcm = stream.push(audio);
    if (end) {
      stream.finish();
      this.#stream = undefined;
      this.#reqId = '';
    }
    return pcm;
  }

  close(): void {
    this.#decoder.close();
  }
}

/** The input for a configuration that {@link audioFormatRefusal} accepted. */
export function createSessionAudio(config: wire.ClientConfigureSession, toRoom: boolean): SessionAudio {
  if (config.audioFormat === AudioFormat.OGG_OPUS) {
    return new OggOpusAudio(opusDecodeRate(config.sampleRate as OpusRate, toRoom));
  }
  return new PcmAudio(config.sampleRate);
}

/**
 * Why this server cannot take the configured audio, or undefined when it can. (Runs after the
 * sample_rate default was filled in.)
 */
export function audioFormatRefusal(
  config: wire.ClientConfigureSession,
): { code: 'invalidAudio' | 'unsupportedSampleRate'; message: string } | undefined {
  switch (config.audioFormat) {
    case AudioFormat.PCM_S16LE:
      if (isSupportedSampleRate(config.sampleRate)) return undefined;
      // "unsupported sample rate" is the phrase existing driveningress.v2 SDKs classify by.
      return {
        code: 'unsupportedSampleRate',
        message: `unsupported sample rate ${config.sampleRate} Hz. Use 8000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz, or leave sample_rate unset for 16000.`,
      };
    case AudioFormat.OGG_OPUS:
      if (isOpusSampleRate(config.sampleRate)) return undefined;
      return {
        code: 'unsupportedSampleRate',
        message: `unsupported sample rate ${config.sampleRate} Hz for OGG_OPUS. Opus streams are at ${OPUS_SAMPLE_RATES.join(', ')} Hz; leave sample_rate unset for 16000.`,
      };
    default:
      return {
        code: 'invalidAudio',
        message: `Audio format ${AudioFormat[config.audioFormat] ?? String(config.audioFormat)} is not supported by this server. Send mono PCM_S16LE or OGG_OPUS audio.`,
      };
  }
}
