/**
 * Audio into the provider's avatar from React: {@link useAudioFeed} feeds a PCM stream (a
 * streaming TTS) or a MediaStream through client-web's `feedAudio`, {@link useMicrophone} owns a
 * microphone capture. Each keeps at most one feed running, replaces it when a new one starts, and
 * stops it when the component unmounts (the microphone's tracks are stopped too).
 */
import { type AudioFeed, type FeedAudioOptions, feedAudio } from '@avatar-drive/client-web';
import { AvatarError, type PcmInput } from '@avatar-drive/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useProviderStore } from './avatar-provider.js';

/** What `feedAudio` takes: a MediaStream, or (async) iterable PCM chunks of any rate. */
export type AudioFeedSource = MediaStream | AsyncIterable<PcmInput> | Iterable<PcmInput>;

/** What {@link useAudioFeed} returns. */
export interface AudioFeeder {
  /**
   * Feeds `source` into the view's controller as one utterance (see client-web's `feedAudio`;
   * `sampleRate` is required for PCM chunks), stopping the feed running before. The session must
   * be open (`connect()`).
   * @throws AvatarError `invalidState` before the view is mounted; `feedAudio`'s errors.
   */
  feed(source: AudioFeedSource, options?: FeedAudioOptions): AudioFeed;
  /** Stops the running feed, if any (a MediaStream's utterance ends and plays out). */
  stop(): void;
  /** True while a feed runs. */
  readonly active: boolean;
}

/**
 * Feeds audio streams into the provider's avatar; the running feed stops when the component unmounts.
 *
 * @example
 * ```tsx
 * const { connect } = useAvatarController();
 * const audio = useAudioFeed();
 * const say = async (text: string) => {
 *   await connect();
 *   await audio.feed(myTts.stream(text), { sampleRate: 24000 }).done;
 * };
 * ```
 */
export function useAudioFeed(): AudioFeeder {
  const store = useProviderStore('useAudioFeed()');
  const current = useRef<AudioFeed | undefined>(undefined);
  const [active, setActive] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      current.current?.stop();
      current.current = undefined;
    };
  }, []);

  const stop = useCallback(() => current.current?.stop(), []);
  const feed = useCallback(
    (source: AudioFeedSource, options?: FeedAudioOptions): AudioFeed => {
      const controller = store.getSnapshot().controller;
      if (!controller) {
        throw new AvatarError(
          'invalidState',
          'useAudioFeed().feed() needs a mounted <AvatarView> whose avatar has loaded, connected with connect().',
        );
      }
      current.current?.stop();
      const running = feedAudio(controller, source, options);
      current.current = running;
      setActive(true);
      const settle = () => {
        if (current.current !== running) return;
        current.current = undefined;
        if (mounted.current) setActive(false);
      };
      running.done.then(settle, (error: unknown) => {
        settle();
        store.reportError(error);
      });
      return running;
    },
    [store],
  );
  return useMemo(() => ({ feed, stop, active }), [feed, stop, active]);
}

/** Options of {@link useMicrophone}. */
export interface MicrophoneOptions {
  /** Audio constraints for `getUserMedia` (default: echo cancellation and noise suppression on). */
  constraints?: MediaTrackConstraints;
}

/** What {@link useMicrophone} returns. */
export interface Microphone {
  /**
   * Connects (if needed), asks for the microphone and feeds it into the avatar until
   * {@link Microphone.stop}. Call it from a user gesture. Rejects with a typed error
   * (`invalidAudio` when the microphone is refused), also shown by `useAvatarError`.
   */
  start(): Promise<void>;
  /** Ends the utterance (what was captured plays out) and releases the microphone. */
  stop(): void;
  /** True while the microphone is captured. */
  readonly active: boolean;
}

/**
 * The microphone as the avatar's voice (SDK or local mode): what you say, the avatar says.
 *
 * @example
 * ```tsx
 * function Mic() {
 *   const mic = useMicrophone();
 *   return <button onClick={() => (mic.active ? mic.stop() : mic.start())}>{mic.active ? 'Stop' : 'Talk'}</button>;
 * }
 * ```
 */
export function useMicrophone(options: MicrophoneOptions = {}): Microphone {
  const store = useProviderStore('useMicrophone()');
  const audio = useAudioFeed();
  const stream = useRef<MediaStream | undefined>(undefined);
  const constraints = useRef(options.constraints);
  constraints.current = options.constraints;

  const release = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = undefined;
  }, []);
  useEffect(() => release, [release]);

  const { feed, stop: stopFeed, active } = audio;
  const stop = useCallback(() => {
    stopFeed();
    release();
  }, [stopFeed, release]);

  const start = useCallback(async () => {
    if (stream.current) return;
    await store.connect();
    if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
      throw store.reportError(
        new AvatarError(
          'invalidAudio',
          'This browser offers no microphone (navigator.mediaDevices); serve the page over HTTPS or localhost.',
        ),
      );
    }
    let captured: MediaStream;
    try {
      captured = await navigator.mediaDevices.getUserMedia({
        audio: constraints.current ?? { echoCancellation: true, noiseSuppression: true },
      });
    } catch (cause) {
      throw store.reportError(
        new AvatarError(
          'invalidAudio',
          `The microphone could not be opened (${String(cause)}): allow the page to use it and try again.`,
          {
            cause,
            phase: 'stream',
          },
        ),
      );
    }
    stream.current = captured;
    const running = feed(captured);
    // However the feed ends (stop(), the tracks ending, a dropped session), the microphone is released.
    running.done
      .finally(() => {
        if (stream.current === captured) release();
      })
      .catch(() => undefined);
  }, [store, feed, release]);

  return useMemo(() => ({ start, stop, active }), [start, stop, active]);
}
