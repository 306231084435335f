/**
 * feedPcm: a stream of PCM chunks as a TTS or a microphone gives them (any rate, float in -1..1
 * or s16, any chunk size) turned into what the driving service takes (mono s16 at a supported
 * rate, in steady chunks), handed to a `send(pcm, end)` — client-web's `controller.send` in SDK
 * mode, server-sdk's `session.sendAudio` in Host mode. Works in browsers and Node.
 */
import { AvatarError } from '../errors.js';
import { float32ToInt16 } from './convert.js';
import { Resampler } from './resample.js';
import { validateAudioFormat } from './validate.js';

/** One chunk of mono PCM: floats in -1..1, or s16 samples. */
export type PcmInput = Float32Array | Int16Array;

/** Options of {@link feedPcm}. */
export interface FeedPcmOptions {
  /** Rate of the chunks the source yields, Hz (any positive whole number). */
  inputRate: number;
  /** Rate to send, Hz: one of the supported rates (the rate the session was configured with). */
  outputRate: number;
  /** Length of each chunk handed to `send`, ms (default 100; the last one may be shorter). */
  chunkMs?: number;
  /**
   * Stops feeding once aborted (an `AbortSignal`): nothing more is sent, not even the end chunk
   * (interrupt the playback yourself).
   */
  signal?: { readonly aborted: boolean };
}

/** What {@link feedPcm} resolves with. */
export interface FeedPcmResult {
  /** Samples sent, at `outputRate`. */
  samples: number;
  /** True when `signal` stopped the feed before the source ended. */
  aborted: boolean;
}

/**
 * Reads `source` to its end, converting and re-chunking, and calls `send(pcm, false)` for each
 * chunk and finally `send(rest, true)` (one utterance). A `send` returning a promise is awaited
 * (backpressure for a slow transport).
 *
 * @example
 * ```ts
 * // a TTS streaming 24 kHz float32 → a session configured for 16 kHz
 * await feedPcm(tts.stream('Hello!'), (pcm, end) => session.sendAudio(pcm, end), {
 *   inputRate: 24000,
 *   outputRate: 16000,
 * });
 * ```
 * @throws AvatarError `invalidAudio` for a chunk that is neither a Float32Array nor an Int16Array
 *   or a bad `inputRate`; `unsupportedSampleRate` for an `outputRate` the service does not take.
 */
export async function feedPcm(
  source: AsyncIterable<PcmInput> | Iterable<PcmInput>,
  send: (pcm: Int16Array, end: boolean) => unknown,
  options: FeedPcmOptions,
): Promise<FeedPcmResult> {
  const outputRate = validateAudioFormat({ sampleRate: options.outputRate });
  const chunkMs = options.chunkMs ?? 100;
  if (!(chunkMs > 0)) {
    throw new AvatarError(
      'invalidRequest',
      `chunkMs must be a positive number of ms, got ${String(chunkMs)}.`,
    );
  }
  const resampler = new Resampler(options.inputRate, outputRate); // checks inputRate
  const chunkSamples = Math.max(1, Math.round((outputRate * chunkMs) / 1000));
  let pending = new Float32Array(chunkSamples * 2);
  let pendingLength = 0;
  let samples = 0;
  const signal = options.signal;

  const append = (output: Float32Array) => {
    if (pendingLength + output.length > pending.length) {
      const grown = new Float32Array(Math.max(pending.length * 2, pendingLength + output.length));
      grown.set(pending.subarray(0, pendingLength));
      pending = grown;
    }
    pending.set(output, pendingLength);
    pendingLength += output.length;
  };
  const sendChunks = async (all: boolean) => {
    let at = 0;
    while (pendingLength - at >= chunkSamples || (all && at < pendingLength)) {
      const take = Math.min(chunkSamples, pendingLength - at);
      const last = all && at + take >= pendingLength;
      const pcm = float32ToInt16(pending.subarray(at, at + take));
      at += take;
      if (signal?.aborted) return;
      samples += pcm.length;
      await send(pcm, last);
      if (last) return;
    }
    pending.copyWithin(0, at, pendingLength);
    pendingLength -= at;
  };

  for await (const chunk of source as AsyncIterable<PcmInput>) {
    if (signal?.aborted) return { samples, aborted: true };
    if (!(chunk instanceof Float32Array) && !(chunk instanceof Int16Array)) {
      throw new AvatarError(
        'invalidAudio',
        'feedPcm() takes chunks of mono PCM as Float32Array (-1..1) or Int16Array; convert other formats first.',
      );
    }
    append(resampler.push(chunk));
    await sendChunks(false);
  }
  if (signal?.aborted) return { samples, aborted: true };
  append(resampler.flush());
  if (pendingLength === 0) {
    await send(new Int16Array(0), true);
    return { samples, aborted: false };
  }
  await sendChunks(true);
  return { samples, aborted: signal?.aborted ?? false };
}
