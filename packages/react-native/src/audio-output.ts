/**
 * The controller's audio output on React Native: a react-native-audio-api AudioContext (a Web
 * Audio graph in native code on iOS and Android; the browser's Web Audio under react-native-web),
 * a gain node for the volume, one buffer source per scheduled chunk.
 */

import type { PlaybackOutput } from '@avatar-drive/client-core';
import { AvatarError } from '@avatar-drive/core';
import { AudioContext, type GainNode } from 'react-native-audio-api';

/** A client-core {@link PlaybackOutput} over react-native-audio-api. */
export class NativeAudioOutput implements PlaybackOutput {
  /** The react-native-audio-api context this output plays through (one per view). */
  readonly context: AudioContext;
  /** The voice after the volume, for meters (connect an `AnalyserNode` of the same context). */
  readonly output: GainNode;

  constructor(context?: AudioContext) {
    try {
      this.context = context ?? new AudioContext();
    } catch (cause) {
      throw new AvatarError(
        'invalidState',
        'react-native-audio-api could not create an AudioContext: rebuild the app after installing it (npx expo prebuild / pod install), it is a native module.',
        { cause, phase: 'playback' },
      );
    }
    this.output = this.context.createGain();
    this.output.connect(this.context.destination);
  }

  get currentTime(): number {
    return this.context.currentTime;
  }

  /**
   * The audio-clock time being heard. react-native-audio-api reports no output timestamp or
   * latency, so this is the clock itself: what the native graph has rendered is what plays.
   */
  audibleTime(): number {
    return this.context.currentTime;
  }

  play(samples: Float32Array, sampleRate: number, when: number): () => void {
    const ctx = this.context;
    const buffer = ctx.createBuffer(1, samples.length, sampleRate);
    buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.output);
    let stopped = false;
    source.onEnded = () => {
      stopped = true;
      source.disconnect();
    };
    source.start(when);
    return () => {
      if (stopped) return;
      stopped = true;
      try {
        source.stop();
      } catch {
        // Already ended.
      }
      source.disconnect();
    };
  }

  /** Sets the output volume, 0 … 1. */
  setVolume(volume: number): void {
    this.output.gain.value = volume;
  }

  /** Suspends the audio clock (pauses audio and, through it, animation). */
  suspend(): Promise<void> {
    return this.context.suspend();
  }

  /** Resumes the audio clock. */
  resume(): Promise<void> {
    return this.context.resume();
  }

  /** A context left suspended (e.g. after an audio-session interruption) resumes when playback starts. */
  wake(): void {
    if (this.context.state === 'suspended') void this.context.resume();
  }

  /** Releases the native audio context. */
  close(): Promise<void> {
    return this.context.state === 'closed' ? Promise.resolve() : this.context.close();
  }
}
