/**
 * feedAudio: speech into an AvatarController (SDK mode) from where a voice app has it — a
 * MediaStream (microphone, WebRTC, a `<audio>` element's capture) or an async stream of PCM
 * chunks (a streaming TTS: any rate, float or s16). Conversion and chunking are core's
 * `feedPcm`; this module adds the MediaStream capture and the SDK's configured rate.
 */

import { requireConfig } from '@avatar-drive/client-core';
import { AvatarError, type FeedPcmResult, feedPcm, type PcmInput } from '@avatar-drive/core';

/** What {@link feedAudio} sends to: an AvatarController in SDK mode has it. */
export interface AudioFeedTarget {
  send(pcm: Int16Array, end?: boolean): unknown;
}

/** Options of {@link feedAudio}. */
export interface FeedAudioOptions {
  /** Rate of the chunks of an async source, Hz (required for one; a MediaStream's is known). */
  sampleRate?: number;
  /** Chunk length sent, ms (default 100). */
  chunkMs?: number;
  /** Stops the feed (as `stop()` does). */
  signal?: AbortSignal;
}

/** A running feed. */
export interface AudioFeed {
  /**
   * Resolves when the source ended (or the feed stopped); rejects with a typed error. A
   * MediaStream feed resolves once its end chunk is sent: after `stop()` (at any moment), or once
   * every audio track ended, on its own or stopped by the app.
   */
  readonly done: Promise<FeedPcmResult>;
  /**
   * Stops feeding. A MediaStream capture ends its utterance (what was captured plays to its
   * end); an async source stops at once without an end chunk (call `controller.interrupt()` to
   * stop what is playing).
   */
  stop(): void;
}

/**
 * Feeds `source` into `target` as one utterance, converted to the rate the SDK was initialized
 * with (`audioFormat.sampleRate`) in ~100 ms s16 chunks, the last with `end = true`.
 *
 * @example
 * ```ts
 * await view.controller.start();
 * // a streaming TTS (24 kHz float32 chunks)…
 * await feedAudio(view.controller, tts.stream('Hello!'), { sampleRate: 24000 }).done;
 * // …or the microphone, until you stop it
 * const mic = feedAudio(view.controller, await navigator.mediaDevices.getUserMedia({ audio: true }));
 * stopButton.onclick = () => mic.stop();
 * ```
 * @throws AvatarError `notInitialized` before `AvatarSDK.initialize`; `invalidRequest` for an
 *   async source without `sampleRate` or a source that is neither.
 */
export function feedAudio(
  target: AudioFeedTarget,
  source: MediaStream | AsyncIterable<PcmInput> | Iterable<PcmInput>,
  options: FeedAudioOptions = {},
): AudioFeed {
  const outputRate = requireConfig('feedAudio()').sampleRate;
  if (typeof target?.send !== 'function') {
    throw new AvatarError(
      'invalidRequest',
      'feedAudio(target, …) needs a target with send(pcm, end): pass view.controller.',
    );
  }
  const stopper = new AbortController();
  if (options.signal?.aborted) stopper.abort();
  else options.signal?.addEventListener('abort', () => stopper.abort(), { once: true });
  const send = (pcm: Int16Array, end: boolean) => target.send(pcm, end);
  if (isMediaStream(source)) {
    const capture = captureMediaStream(source, stopper.signal);
    // However the feed settles (a send that throws included), the capture is released.
    const done = feedPcm(capture.chunks, send, {
      inputRate: capture.rate,
      outputRate,
      chunkMs: options.chunkMs,
    }).finally(() => stopper.abort());
    return { done, stop: () => stopper.abort() };
  }
  const iterable =
    source !== null &&
    typeof source === 'object' &&
    (Symbol.asyncIterator in source || Symbol.iterator in source);
  if (!iterable) {
    throw new AvatarError(
      'invalidRequest',
      'feedAudio() takes a MediaStream, or an (async) iterable of Float32Array / Int16Array chunks.',
    );
  }
  if (options.sampleRate === undefined) {
    throw new AvatarError(
      'invalidRequest',
      'feedAudio() needs { sampleRate } for a stream of PCM chunks: the rate your TTS produces (e.g. 24000).',
    );
  }
  const done = feedPcm(source, send, {
    inputRate: options.sampleRate,
    outputRate,
    chunkMs: options.chunkMs,
    signal: stopper.signal,
  });
  return { done, stop: () => stopper.abort() };
}

function isMediaStream(value: unknown): value is MediaStream {
  return typeof MediaStream !== 'undefined' && value instanceof MediaStream;
}

// Mono mix of every render quantum, posted to the main thread (a Blob module: no file to serve).
const TAP = `registerProcessor('avatar-drive-feed-tap', class extends AudioWorkletProcessor {
  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length) {
      const n = channels[0].length, mono = new Float32Array(n);
      for (const c of channels) for (let i = 0; i < n; i++) mono[i] += c[i] / channels.length;
      this.port.postMessage(mono, [mono.buffer]);
    }
    return true;
  }
});`;

/** How often a capture checks whether the app stopped every track (which fires no event), ms. */
const TRACK_POLL_MS = 100;

/**
 * The stream's audio as an async iterable of Float32Array chunks at its AudioContext's rate
 * (`rate`, known at once); ends when `signal` aborts or every audio track ended — on its own
 * (the `ended` event) or stopped by the app (`readyState`, polled). Ending at any moment, even
 * while the worklet is still loading, ends the iterable: never a rejection, so the utterance
 * always gets its end chunk. The context and tap are released then (the tracks are the caller's:
 * they are not stopped).
 */
function captureMediaStream(
  stream: MediaStream,
  signal: AbortSignal,
): { rate: number; chunks: AsyncIterable<Float32Array> } {
  if (stream.getAudioTracks().length === 0) {
    throw new AvatarError('invalidRequest', 'feedAudio() got a MediaStream without an audio track.');
  }
  const context = new AudioContext();
  const queue: Float32Array[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: AvatarError | undefined;
  let tap: AudioWorkletNode | undefined;
  let input: MediaStreamAudioSourceNode | undefined;
  const tracksEnded = () => stream.getAudioTracks().every((track) => track.readyState === 'ended');
  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(poll);
    signal.removeEventListener('abort', finish);
    if (tap) tap.port.onmessage = null;
    input?.disconnect();
    // Closing may reject a setup step still in flight; setup() below ignores that once ended.
    void context.close().catch(() => undefined);
    wake?.();
  };
  const poll = setInterval(() => {
    if (tracksEnded()) finish();
  }, TRACK_POLL_MS);
  signal.addEventListener('abort', finish, { once: true });
  for (const track of stream.getAudioTracks()) {
    track.addEventListener('ended', () => {
      if (tracksEnded()) finish();
    });
  }
  if (signal.aborted || tracksEnded()) finish();

  const setup = async () => {
    const url = URL.createObjectURL(new Blob([TAP], { type: 'text/javascript' }));
    try {
      await context.audioWorklet.addModule(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    if (ended) return;
    input = context.createMediaStreamSource(stream);
    tap = new AudioWorkletNode(context, 'avatar-drive-feed-tap');
    tap.port.onmessage = (event: MessageEvent<Float32Array>) => {
      if (ended) return;
      queue.push(event.data);
      wake?.();
    };
    input.connect(tap);
    await context.resume();
  };
  if (!ended) {
    setup().catch((cause: unknown) => {
      if (ended) return; // stopped while setting up: the closed context made a step fail
      failure = new AvatarError(
        'invalidAudio',
        `feedAudio() could not capture the MediaStream's audio (${String(cause)}); check that the page may use audio (a user gesture, the microphone permission) and that the track is live.`,
        { cause, phase: 'stream' },
      );
      finish();
    });
  }

  const chunks = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (failure) throw failure;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
  return { rate: context.sampleRate, chunks };
}
