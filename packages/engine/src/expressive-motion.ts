/**
 * Everything above the mouth, driven by prosody and a seeded PRNG: head nods on stressed
 * (energy-peak) syllables, slow head drift, blinks (more at pauses), brows on pitch accents,
 * small gaze shifts. One `step` per 25 fps frame; deterministic for a given seed and input.
 */
import { ARKIT_INDEX, type DriveFrame } from '@avatar-drive/core';
import { Prng } from './prng.js';

const DT = 0.04;
/** Blink closure over consecutive frames (≈ 200 ms). */
const BLINK_PROFILE = [0.55, 1, 0.75, 0.35, 0.1];
const NOD_PEAK_S = 0.12;

/** Per-frame prosodic input. */
export interface ProsodyInput {
  /** 0..1 how sure we are the frame is speech (above the noise floor). */
  activity: number;
  /** Frame energy relative to the speaker's running level, ln units (0 = at level, negative below). */
  relativeEnergy: number;
  /** Fundamental frequency in Hz (0 when unvoiced). */
  f0: number;
}

export class ExpressiveMotion {
  private rng: Prng;
  // Head drift: Ornstein–Uhlenbeck per axis (pitch, yaw, roll).
  private readonly drift = new Float64Array(3);
  private nodAge = Number.POSITIVE_INFINITY;
  private nodAmplitude = 0;
  private framesSinceNod = 1000;
  private olderEnergy = -20;
  private previousEnergy = -20;
  private blinkFrame = -1;
  private framesSinceBlink = 0;
  private nextBlinkIn = 0;
  private speechFrames = 0;
  private pauseFrames = 0;
  private pitchMean = 0;
  private pitchVar = 4;
  private voicedFrames = 0;
  private brow = 0;
  private readonly gaze = new Float64Array(2);
  private readonly gazeTarget = new Float64Array(2);
  private framesToSaccade = 0;

  constructor(private readonly seed: number) {
    this.rng = new Prng(seed);
    this.reset();
  }

  reset(): void {
    this.rng = new Prng(this.seed);
    this.drift.fill(0);
    this.nodAge = Number.POSITIVE_INFINITY;
    this.nodAmplitude = 0;
    this.framesSinceNod = 1000;
    this.olderEnergy = -20;
    this.previousEnergy = -20;
    this.blinkFrame = -1;
    this.framesSinceBlink = 0;
    this.nextBlinkIn = this.blinkInterval();
    this.speechFrames = 0;
    this.pauseFrames = 0;
    this.pitchMean = 0;
    this.pitchVar = 4;
    this.voicedFrames = 0;
    this.brow = 0;
    this.gaze.fill(0);
    this.gazeTarget.fill(0);
    this.framesToSaccade = 25 + Math.floor(this.rng.next() * 50);
  }

  /** Frames until the next spontaneous blink: 2–6 s, skewed short like human blink intervals. */
  private blinkInterval(): number {
    const u = this.rng.next();
    return Math.round((2 + 4 * u * u) / DT);
  }

  /** Writes head, eyes and brows of `frame`. */
  step(input: ProsodyInput, frame: DriveFrame): void {
    const speaking = input.activity > 0.5;
    this.updateNod(input, speaking);
    this.updateDrift(speaking);
    this.updateBlink(speaking);
    this.updateBrow(input, speaking);
    this.updateGaze();

    const nod =
      this.nodAge < 1
        ? this.nodAmplitude * (this.nodAge / NOD_PEAK_S) * Math.exp(1 - this.nodAge / NOD_PEAK_S)
        : 0;
    // Axis-angle head rotation: x pitch (positive nods down), y yaw, z roll.
    frame.rotation[0] = this.drift[0]! + nod;
    frame.rotation[1] = this.drift[1]!;
    frame.rotation[2] = this.drift[2]!;
    frame.translation[2] = 0.004 * nod;

    const blink = this.blinkFrame >= 0 ? (BLINK_PROFILE[this.blinkFrame] ?? 0) : 0;
    frame.eyeLid[0] = blink;
    frame.eyeLid[1] = blink;
    const e = frame.expression;
    e[ARKIT_INDEX.eyeBlinkLeft] = blink;
    e[ARKIT_INDEX.eyeBlinkRight] = blink;

    e[ARKIT_INDEX.browInnerUp] = 0.55 * this.brow;
    e[ARKIT_INDEX.browOuterUpLeft] = 0.4 * this.brow;
    e[ARKIT_INDEX.browOuterUpRight] = 0.4 * this.brow;
    e[ARKIT_INDEX.eyeWideLeft] = 0.15 * this.brow;
    e[ARKIT_INDEX.eyeWideRight] = 0.15 * this.brow;

    // Eyes: yaw/pitch of both eyes (axis-angle x = pitch, y = yaw), plus the matching ARKit looks.
    const gx = this.gaze[0]!;
    const gy = this.gaze[1]!;
    frame.eyePose[0] = gy;
    frame.eyePose[1] = gx;
    frame.eyePose[3] = gy;
    frame.eyePose[4] = gx;
    e[ARKIT_INDEX.eyeLookOutLeft] = look(gx);
    e[ARKIT_INDEX.eyeLookInRight] = look(gx);
    e[ARKIT_INDEX.eyeLookInLeft] = look(-gx);
    e[ARKIT_INDEX.eyeLookOutRight] = look(-gx);
    e[ARKIT_INDEX.eyeLookDownLeft] = look(gy);
    e[ARKIT_INDEX.eyeLookDownRight] = look(gy);
    e[ARKIT_INDEX.eyeLookUpLeft] = look(-gy);
    e[ARKIT_INDEX.eyeLookUpRight] = look(-gy);
  }

  /** A nod starts on a local energy peak that stands out from the speaker's level. */
  private updateNod(input: ProsodyInput, speaking: boolean): void {
    const older = this.olderEnergy;
    const previous = this.previousEnergy;
    const current = speaking ? input.relativeEnergy : -20;
    // The previous frame is a peak once the current one falls below it (one frame late, causal).
    if (previous > older && previous >= current && previous > -0.4 && this.framesSinceNod > 12) {
      this.nodAge = 0;
      this.nodAmplitude = (0.025 + 0.02 * Math.min(1, previous + 0.4)) * (0.8 + 0.4 * this.rng.next());
      this.framesSinceNod = 0;
    } else {
      this.nodAge += DT;
      this.framesSinceNod++;
    }
    this.olderEnergy = previous;
    this.previousEnergy = current;
  }

  private updateDrift(speaking: boolean): void {
    // More head motion while speaking; always some.
    const sigma = speaking ? 0.02 : 0.01;
    const theta = 0.6;
    for (let axis = 0; axis < 3; axis++) {
      const scale = axis === 2 ? 0.5 : 1;
      this.drift[axis] =
        this.drift[axis]! * (1 - theta * DT) +
        scale * sigma * Math.sqrt(2 * theta * DT) * this.rng.gaussian();
    }
  }

  private updateBlink(speaking: boolean): void {
    if (speaking) {
      this.speechFrames++;
      this.pauseFrames = 0;
    } else {
      this.pauseFrames++;
    }
    this.framesSinceBlink++;
    if (this.blinkFrame >= 0) {
      this.blinkFrame++;
      if (this.blinkFrame >= BLINK_PROFILE.length) this.blinkFrame = -1;
      return;
    }
    // People blink at the start of pauses, after a phrase.
    const pauseStart = this.pauseFrames === 3 && this.speechFrames > 12;
    if (pauseStart) this.speechFrames = 0;
    const due = this.framesSinceBlink >= this.nextBlinkIn;
    const atPause = pauseStart && this.framesSinceBlink > 25 && this.rng.next() < 0.7;
    if (due || atPause) {
      this.blinkFrame = 0;
      this.framesSinceBlink = 0;
      this.nextBlinkIn = this.blinkInterval();
    }
  }

  /** Brows rise on pitch accents: voiced frames well above the speaker's running pitch. */
  private updateBrow(input: ProsodyInput, speaking: boolean): void {
    let target = 0;
    if (speaking && input.f0 > 0) {
      const semitones = 12 * Math.log2(input.f0 / 100);
      if (this.voicedFrames === 0) this.pitchMean = semitones;
      this.voicedFrames++;
      const rate = Math.max(1 / this.voicedFrames, 0.03);
      const d = semitones - this.pitchMean;
      this.pitchMean += rate * d;
      this.pitchVar += rate * (d * d - this.pitchVar);
      const z = d / Math.sqrt(Math.max(this.pitchVar, 1));
      if (this.voicedFrames > 8) target = Math.min(1, Math.max(0, (z - 1.5) / 1.0));
    }
    this.brow += (target > this.brow ? 0.45 : 0.2) * (target - this.brow);
  }

  private updateGaze(): void {
    if (--this.framesToSaccade <= 0) {
      this.gazeTarget[0] = 0.08 * this.rng.gaussian();
      this.gazeTarget[1] = 0.04 * this.rng.gaussian();
      this.framesToSaccade = 30 + Math.floor(this.rng.next() * 70);
    }
    // Saccades are fast: most of the way in one frame.
    for (let i = 0; i < 2; i++) this.gaze[i] = this.gaze[i]! + 0.7 * (this.gazeTarget[i]! - this.gaze[i]!);
  }
}

/** Gaze angle (radians) → ARKit eyeLook coefficient; 0.25 rad is a full look. */
function look(angle: number): number {
  return Math.min(1, Math.max(0, angle / 0.25));
}
