/**
 * Turns the model's viseme posteriors plus frame acoustics into a {@link DriveFrame}: speech gating
 * against the noise floor, lag-free viseme smoothing, mouth blendshapes, jaw rotation, and the
 * expressive (head, eyes, brows) layer.
 */
import { ARKIT_INDEX, type DriveFrame, VISEMES } from '@avatar-drive/core';
import { ExpressiveMotion } from './expressive-motion.js';
import { mixMouth } from './mouth-shapes.js';

/** Jaw rotation (radians about x) at jawOpen = 1. */
const JAW_MAX_RAD = 0.3;
const V = VISEMES.length;
/** Visemes the lips anticipate (rounding, closure, lip-teeth contact, post-alveolar protrusion). */
const ANTICIPATED = ['PP', 'FF', 'CH', 'O', 'U'].map((v) => VISEMES.indexOf(v as (typeof VISEMES)[number]));
/** How far toward the next frame's lip shape the mouth already moves. */
const ANTICIPATION = 0.5;
const PP = VISEMES.indexOf('PP');
/** Share of the remaining gap a falling mouth-shape weight closes per frame. */
const RELEASE = 0.7;

/** What the animator needs to know about one frame's audio. */
export interface FrameAcoustics {
  /** Peak ln energy of the frame's hops. */
  energy: number;
  /** Speech level (ln) at the frame's end. */
  level: number;
  /** Noise floor (ln) at the frame's end. */
  noiseFloor: number;
  /** Pitch (Hz) at the frame's end, 0 when unvoiced. */
  f0: number;
}

/**
 * 0..1 confidence that a frame is speech: energy above the noise floor (fully open ≈ 4 dB above it),
 * so steady noise alone cannot move the mouth while the model (trained on noisy speech) decides
 * the rest.
 */
export function speechActivity(acoustics: FrameAcoustics): number {
  const snr = acoustics.energy - acoustics.noiseFloor;
  return Math.min(1, Math.max(0, (snr - 0.25) / 0.6));
}

export class FrameAnimator {
  private readonly smoothed = new Float32Array(V);
  private readonly anticipated = new Float32Array(V);
  /** The weights the mouth is mixed from this frame (smoothed, possibly anticipating). */
  private mouth: Float32Array = this.smoothed;
  private readonly gated = new Float32Array(V);
  private readonly expressive: ExpressiveMotion;

  constructor(seed: number) {
    this.expressive = new ExpressiveMotion(seed);
    this.reset();
  }

  /** Mixes part of the next frame's lip shapes into this frame's mouth weights. */
  private anticipate(next: Float32Array, activity: number): void {
    const a = this.anticipated;
    a.set(this.smoothed);
    let changed = false;
    for (const v of ANTICIPATED) {
      const w = ANTICIPATION * activity * next[v]!;
      if (w > a[v]!) {
        a[v] = w;
        changed = true;
      }
    }
    if (!changed) return;
    let sum = 0;
    for (let v = 0; v < V; v++) sum += a[v]!;
    for (let v = 0; v < V; v++) a[v] = a[v]! / sum;
    this.mouth = a;
  }

  reset(): void {
    this.smoothed.fill(0);
    this.smoothed[0] = 1;
    this.expressive.reset();
  }

  /**
   * Writes a frame from the model's posteriors (softmax over the 15 visemes) into `frame`, a
   * neutral frame (`createDriveFrame(index)`, or a recycled one cleared to the same zeros), and
   * returns it. `upcoming`, when the lookahead covers the next frame, lets the lips start toward
   * its shape (anticipation).
   */
  frame(
    frame: DriveFrame,
    posteriors: Float32Array,
    acoustics: FrameAcoustics,
    upcoming: { posteriors: Float32Array; acoustics: FrameAcoustics } | null = null,
  ): DriveFrame {
    const activity = speechActivity(acoustics);
    const gated = this.gated;
    let speech = 0;
    for (let v = 1; v < V; v++) {
      gated[v] = posteriors[v]! * activity;
      speech += gated[v]!;
    }
    gated[0] = 1 - speech;

    // Output visemes are the gated posteriors themselves (no lag). The mouth is driven by a copy
    // whose rising weights follow at once and falling ones keep a little of the previous frame,
    // so shapes blend instead of flickering without delaying any onset.
    const s = this.smoothed;
    this.mouth = s;
    for (let v = 0; v < V; v++) {
      const target = gated[v]!;
      const prev = s[v]!;
      s[v] = target >= prev ? target : prev + RELEASE * (target - prev);
      frame.visemes[v] = target;
    }
    let sum = 0;
    for (let v = 0; v < V; v++) sum += s[v]!;
    for (let v = 0; v < V; v++) s[v] = s[v]! / sum;
    if (upcoming) this.anticipate(upcoming.posteriors, speechActivity(upcoming.acoustics));

    const relativeEnergy = acoustics.energy - acoustics.level;
    const loudness = Math.min(1, Math.max(0, (relativeEnergy + 2.5) / 2.5));
    mixMouth(this.mouth, gated[PP]!, loudness, frame.expression);
    frame.jawPose[0] = JAW_MAX_RAD * frame.expression[ARKIT_INDEX.jawOpen]!;

    this.expressive.step({ activity, relativeEnergy, f0: acoustics.f0 }, frame);
    return frame;
  }
}
