/**
 * What a platform gives an {@link AvatarController}: its audio output (an audio clock it plays
 * on) and its render target (the view that takes drive frames each displayed frame), and what
 * the controller reports back about their alignment.
 */
import type { AudioSink } from './playback-scheduler.js';

/**
 * The audio output a platform gives the controller: an {@link AudioSink} (clock + scheduled
 * playback) it can pause and set the volume of.
 */
export interface PlaybackOutput extends AudioSink {
  /** The audio-clock time being heard now (after output latency). */
  audibleTime(): number;
  setVolume(volume: number): void;
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
  /**
   * Called when playback is about to start (not while paused): an output that the platform
   * keeps suspended until a user gesture (browsers' autoplay policy) resumes itself here.
   */
  wake?(): void;
}

/** Audio-to-animation alignment at the last rendered instant (see `AvatarController.getSyncStats`). */
export interface SyncStats {
  /** Seconds of the current utterance's audio being heard. */
  audioPosition: number;
  /** Frame position shown (frames; `audioPosition · 25` when frames are on time). */
  framePosition: number | undefined;
  /**
   * (framePosition / 25 − audioPosition) in ms: positive when the animation leads the audio. The
   * frame shown is chosen by the audio clock, so this stays 0 while animation is there to show and
   * goes negative only when it runs out (the newest frame is held).
   */
  offsetMs: number | undefined;
  /**
   * Animation received beyond what is being heard, in ms (frames received / 25 − audioPosition):
   * the margin before the mouth would have to hold. Negative while it holds.
   */
  bufferedAheadMs: number | undefined;
  /** How far behind the audio clock what is heard is (output latency), in ms. */
  outputLatencyMs: number;
  /** Times late audio pushed playback back. */
  stalls: number;
}

/**
 * The render target a platform's view gives its controller: the avatar id and a hook to cut
 * speech at once. The view takes drive frames by calling `controller.frameForRender()` once per
 * displayed frame (the frame for the audio being heard then) and blends them over its idle motion.
 */
export interface ControllerHost {
  readonly avatarId: string;
  /** Drops speech animation at once (interrupt). */
  cutSpeech(): void;
}

/** The render target of a controller (another name of {@link ControllerHost}). */
export type RenderTarget = ControllerHost;
