/**
 * The client's own motion around speech: idle breathing and blinks, and the cross-fades into
 * speech (default 5 frames) and back to idle (default 40 frames). Pure: time in, frame out.
 */
import { ARKIT_INDEX, createDriveFrame, type DriveFrame, FRAME_MS, mulberry32 } from '@avatar-drive/core';
import { lerpFrame } from './playback-scheduler.js';

/** Tuning of {@link AnimationMixer}. */
export interface AnimationMixerOptions {
  /** Frames (40 ms each) to fade from idle into speech; default 5. */
  transitionInFrames?: number;
  /** Frames to fade from speech back to idle; default 40. */
  transitionOutFrames?: number;
  /** Seed of the blink timing (deterministic per view). */
  seed?: number;
  /** Idle breathing and blinks; default true. */
  idleMotion?: boolean;
}

const BLINK_L = ARKIT_INDEX.eyeBlinkLeft;
const BLINK_R = ARKIT_INDEX.eyeBlinkRight;
const BLINK_SECONDS = 0.16;

/** Blends idle motion with speech frames. */
export class AnimationMixer {
  readonly #inRate: number;
  readonly #outRate: number;
  readonly #idleMotion: boolean;
  #rng: () => number;
  #weight = 0;
  #lastTime: number | undefined;
  #lastSpeech: DriveFrame | undefined;
  #nextBlink: number | undefined;

  constructor(options: AnimationMixerOptions = {}) {
    const fin = Math.max(0, options.transitionInFrames ?? 5);
    const fout = Math.max(0, options.transitionOutFrames ?? 40);
    this.#inRate = fin === 0 ? Infinity : 1000 / (fin * FRAME_MS);
    this.#outRate = fout === 0 ? Infinity : 1000 / (fout * FRAME_MS);
    this.#idleMotion = options.idleMotion ?? true;
    this.#rng = mulberry32(options.seed ?? 1);
  }

  /** Weight of speech in the output, 0 (idle) … 1 (speech). */
  get speechWeight(): number {
    return this.#weight;
  }

  /** Drops speech at once (interrupt): the next frame is pure idle. */
  cut(): void {
    this.#weight = 0;
    this.#lastSpeech = undefined;
  }

  /**
   * The frame to show at wall-clock time `time` (seconds), given the speech frame for this
   * instant (`undefined` when not speaking).
   */
  update(time: number, speech: DriveFrame | undefined): DriveFrame {
    const dt = this.#lastTime === undefined ? 0 : Math.max(0, time - this.#lastTime);
    this.#lastTime = time;
    if (speech) {
      this.#lastSpeech = speech;
      this.#weight = Math.min(1, this.#weight + dt * this.#inRate);
      if (this.#inRate === Infinity) this.#weight = 1;
    } else {
      this.#weight = Math.max(0, this.#weight - dt * this.#outRate);
      if (this.#outRate === Infinity || this.#weight === 0) this.#weight = 0;
    }
    const idle = this.#idle(time);
    const held = speech ?? this.#lastSpeech;
    const out = held && this.#weight > 0 ? lerpFrame(idle, held, easeInOut(this.#weight)) : idle;
    // Idle blinks go on during speech unless the speech frame blinks harder.
    const blink = idle.expression[BLINK_L]!;
    out.expression[BLINK_L] = Math.max(out.expression[BLINK_L]!, blink);
    out.expression[BLINK_R] = Math.max(out.expression[BLINK_R]!, blink);
    out.eyeLid[0] = Math.max(out.eyeLid[0]!, blink);
    out.eyeLid[1] = Math.max(out.eyeLid[1]!, blink);
    return out;
  }

  #idle(time: number): DriveFrame {
    const frame = createDriveFrame();
    if (!this.#idleMotion) return frame;
    // Breathing: ~15 breaths a minute, a slight nod and rise of the head.
    const breath = Math.sin(time * 2 * Math.PI * 0.25);
    frame.rotation[0] = 0.012 * breath;
    frame.rotation[1] = 0.02 * Math.sin(time * 2 * Math.PI * 0.07);
    frame.translation[1] = 0.0025 * breath;
    if (this.#nextBlink === undefined) this.#nextBlink = time + 1 + this.#rng() * 3;
    if (time > this.#nextBlink + BLINK_SECONDS) this.#nextBlink = time + 2 + this.#rng() * 4;
    const phase = (time - this.#nextBlink) / BLINK_SECONDS;
    const blink = phase >= 0 && phase <= 1 ? Math.sin(phase * Math.PI) : 0;
    frame.expression[BLINK_L] = blink;
    frame.expression[BLINK_R] = blink;
    frame.eyeLid[0] = blink;
    frame.eyeLid[1] = blink;
    return frame;
  }
}

function easeInOut(t: number): number {
  return t * t * (3 - 2 * t);
}

let mixers = 0;

/** A blink seed per view: the avatar id's hash plus a per-process count (two views of one avatar blink apart). */
export function mixerSeed(avatarId: string): number {
  let h = 2166136261;
  for (let i = 0; i < avatarId.length; i++) h = Math.imul(h ^ avatarId.charCodeAt(i), 16777619);
  return (h >>> 0) + mixers++;
}
