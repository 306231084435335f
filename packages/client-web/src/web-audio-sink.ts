/**
 * WebAudio output of one controller: its own AudioContext (so views pause independently), a
 * gain for the volume, one AudioBufferSourceNode per scheduled chunk.
 */

import { type AudioSink, logger, type PlaybackOutput } from '@avatar-drive/client-core';
import { AvatarError } from '@avatar-drive/core';

/** {@link AudioSink} (a controller's {@link PlaybackOutput}) over an AudioContext. */
export class WebAudioSink implements AudioSink, PlaybackOutput {
  readonly context: AudioContext;
  readonly #gain: GainNode;
  /** The audible time last computed while the context ran (held while it is suspended). */
  #lastAudible: number | undefined;
  /** Taps the output (after the volume) for level meters and sync measurements. */
  readonly output: AudioNode;

  constructor(context?: AudioContext) {
    const Ctor =
      (globalThis as { AudioContext?: typeof AudioContext }).AudioContext ??
      (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!context && !Ctor) {
      throw new AvatarError(
        'invalidState',
        'This browser has no Web Audio API; Avatar Drive needs AudioContext.',
        {
          phase: 'playback',
        },
      );
    }
    this.context = context ?? new Ctor!({ latencyHint: 'interactive' });
    this.#gain = this.context.createGain();
    this.#gain.connect(this.context.destination);
    this.output = this.#gain;
  }

  get currentTime(): number {
    return this.context.currentTime;
  }

  /**
   * The audio-clock time being heard now: the output timestamp extrapolated to this instant
   * when the browser provides it, else `currentTime` less the output latency.
   */
  audibleTime(): number {
    const ctx = this.context;
    const ts = typeof ctx.getOutputTimestamp === 'function' ? ctx.getOutputTimestamp() : undefined;
    const valid = ts?.contextTime !== undefined && ts.performanceTime !== undefined && ts.contextTime > 0;
    if (ctx.state !== 'running') {
      // Suspended: what was heard last stands still, so a paused pose is the one on screen at the
      // pause. The output timestamp is no guide here: some outputs stop updating it well before
      // the suspension, and holding that older instant would jump the pose back (often to a
      // closed mouth).
      if (this.#lastAudible !== undefined && this.#lastAudible <= ctx.currentTime) return this.#lastAudible;
      return valid && ts.contextTime! <= ctx.currentTime && ctx.currentTime - ts.contextTime! < 0.5
        ? ts.contextTime!
        : Math.max(0, ctx.currentTime - (ctx.outputLatency || 0));
    }
    let t = Math.max(0, ctx.currentTime - (ctx.outputLatency || 0));
    if (valid) {
      const extrapolated = ts.contextTime! + (performance.now() - ts.performanceTime!) / 1000;
      // Never ahead of what has been rendered, never implausibly far behind.
      if (extrapolated <= ctx.currentTime && ctx.currentTime - extrapolated < 0.5) t = extrapolated;
    }
    this.#lastAudible = t;
    return t;
  }

  play(samples: Float32Array, sampleRate: number, when: number): () => void {
    const ctx = this.context;
    const buffer = ctx.createBuffer(1, samples.length, sampleRate);
    buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#gain);
    source.start(when);
    let stopped = false;
    source.onended = () => {
      stopped = true;
      source.disconnect();
    };
    return () => {
      if (stopped) return;
      stopped = true;
      try {
        source.stop();
      } catch {
        // Not started or already stopped.
      }
      source.disconnect();
    };
  }

  /** Sets the output volume, 0 … 1. */
  setVolume(volume: number): void {
    this.#gain.gain.value = volume;
  }

  /** Suspends the audio clock (pauses audio and, through it, animation). */
  suspend(): Promise<void> {
    return this.context.suspend();
  }

  /** Resumes the audio clock. */
  resume(): Promise<void> {
    return this.context.resume();
  }

  /** Browsers start an AudioContext made outside a user gesture suspended: resume it and say so. */
  wake(): void {
    if (this.context.state !== 'suspended') return;
    logger.warn(
      'The AudioContext is suspended: call controller.initializeAudioContext() from a user gesture.',
    );
    void this.context.resume();
  }

  /** Releases the AudioContext. */
  close(): Promise<void> {
    return this.context.state === 'closed' ? Promise.resolve() : this.context.close();
  }
}
