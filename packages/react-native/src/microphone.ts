/**
 * The microphone into an AvatarController (SDK mode) on iOS and Android: react-native-audio-api's
 * AudioRecorder delivers float buffers at the device's rate; core's `feedPcm` converts them to the
 * rate the SDK was initialized with and sends ~100 ms s16 chunks as one utterance, the last with
 * `end = true` when the microphone is stopped.
 */

import { requireConfig } from '@avatar-drive/client-core';
import { AvatarError, type FeedPcmResult, feedPcm } from '@avatar-drive/core';
import * as audioApi from 'react-native-audio-api';

/** What {@link startMicrophone} sends to: `view.controller` in SDK mode. */
export interface MicrophoneTarget {
  send(pcm: Int16Array, end?: boolean): unknown;
}

/** Options of {@link startMicrophone}. */
export interface MicrophoneOptions {
  /** Rate asked of the recorder, Hz; default the SDK's audio rate (the device may deliver another; it is converted). */
  recordRate?: number;
  /** Chunk length sent, ms; default 100. */
  chunkMs?: number;
  /**
   * Sets the iOS audio session to play and record through the speaker (`playAndRecord`,
   * `voiceChat`, `defaultToSpeaker`); default true. Pass false when the app manages the session.
   */
  configureAudioSession?: boolean;
}

/** A running microphone feed. */
export interface MicrophoneFeed {
  /** Resolves when the feed ended (after {@link MicrophoneFeed.stop}); rejects with a typed error. */
  readonly done: Promise<FeedPcmResult>;
  /** Stops recording; what was captured is sent with `end = true` and plays to its end. */
  stop(): Promise<void>;
}

/**
 * Asks for the microphone permission, starts recording, and streams it into `target` as one
 * utterance until `stop()`.
 *
 * @example
 * ```tsx
 * await ref.current.controller.start();
 * const mic = await startMicrophone(ref.current.controller);
 * // … later, e.g. when the user releases the talk button:
 * await mic.stop();
 * ```
 * @throws AvatarError `notInitialized` before `AvatarSDK.initialize`; `invalidState` when the
 *   user refuses the microphone or the recorder cannot start (the message says which).
 */
export async function startMicrophone(
  target: MicrophoneTarget,
  options: MicrophoneOptions = {},
): Promise<MicrophoneFeed> {
  const outputRate = requireConfig('startMicrophone()').sampleRate;
  if (typeof target?.send !== 'function') {
    throw new AvatarError('invalidRequest', 'startMicrophone(target) needs view.controller (in SDK mode).');
  }
  // The recorder is native only: react-native-audio-api's web build has none.
  const Recorder = (audioApi as Partial<typeof audioApi>).AudioRecorder;
  if (!Recorder) {
    throw new AvatarError(
      'invalidState',
      "startMicrophone() records through react-native-audio-api's AudioRecorder, which exists on iOS and Android only (not under react-native-web).",
    );
  }
  const { AudioManager } = audioApi;
  const permission = await AudioManager.requestRecordingPermissions();
  if (permission !== 'Granted') {
    throw new AvatarError(
      'invalidState',
      'The microphone permission was not granted: ask the user to allow it in the system settings (and declare it: NSMicrophoneUsageDescription on iOS, RECORD_AUDIO on Android).',
    );
  }
  if (options.configureAudioSession ?? true) {
    AudioManager.setAudioSessionOptions({
      iosCategory: 'playAndRecord',
      iosMode: 'voiceChat',
      iosOptions: ['defaultToSpeaker', 'allowBluetoothHFP'],
    });
  }
  const recordRate = options.recordRate ?? outputRate;
  const queue: Float32Array[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let deliveredRate: number | undefined;
  const recorder = new Recorder();
  const ready = recorder.onAudioReady(
    { sampleRate: recordRate, bufferLength: Math.round(recordRate / 10), channelCount: 1 },
    (event) => {
      if (ended) return;
      deliveredRate ??= event.buffer.sampleRate;
      // Copied: the native buffer is reused for the next callback.
      queue.push(event.buffer.getChannelData(0).slice());
      wake?.();
    },
  );
  if (ready.status !== 'success') {
    throw new AvatarError('invalidState', `The microphone recorder refused its settings: ${ready.message}.`);
  }
  const started = await recorder.start();
  if (started.status !== 'success') {
    recorder.clearOnAudioReady();
    throw new AvatarError('invalidState', `The microphone could not start: ${started.message}.`);
  }
  const chunks = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
  // The recorder reports its real rate with the first buffer; the feed starts converting from it.
  const firstBuffer = new Promise<number>((resolve) => {
    const check = () =>
      deliveredRate !== undefined || ended ? resolve(deliveredRate ?? recordRate) : setTimeout(check, 10);
    check();
  });
  const done = firstBuffer.then((inputRate) =>
    feedPcm(chunks, (pcm, end) => target.send(pcm, end), { inputRate, outputRate, chunkMs: options.chunkMs }),
  );
  return {
    done,
    stop: async () => {
      if (ended) return;
      ended = true;
      wake?.();
      recorder.clearOnAudioReady();
      await recorder.stop();
    },
  };
}
