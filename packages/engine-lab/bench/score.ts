/**
 * Accumulates per-utterance results of one engine into the figures of the benchmark table.
 */
import { VISEMES } from '@avatar-drive/core';
import {
  accuracy,
  bestLag,
  closureCounts,
  FIRST_WORD_LATE_MS,
  type FramePrediction,
  fineJawLag,
  firstWordLatency,
  GROUPS,
  laggedPearson,
  macroF1,
  median,
  onsetLatencies,
  type Phone,
  referenceJaw,
  referenceVisemes,
  SIL,
  silenceActivity,
  type TrackPair,
  visemeGroup,
  vowelShutCounts,
} from './metrics.js';

/** Largest lag searched for the best-lag jaw correlation: ±10 frames (±400 ms). */
export const MAX_LAG_FRAMES = 10;

/** The figures of one table row. */
export interface Summary {
  frames: number;
  utterances: number;
  acc15: number;
  acc7: number;
  macroF1: number;
  macroF1Groups: number;
  jawR0: number;
  jawRBest: number;
  jawBestLagMs: number;
  /** The jaw's lag in 10 ms steps (reference shifted, see fineJawLag) and r there. */
  jawFineLagMs: number;
  jawFineR: number;
  closureRecall: number;
  closureSegments: number;
  /** Share of vowel frames with the mouth shut (jawOpen ≤ 0.1 or mouthClose ≥ 0.5). */
  vowelShut: number;
  onsetMedianMs: number;
  onsets: number;
  /** Median first-word latency (ms) and the share of first words later than 80 ms. */
  firstWordMedianMs: number;
  firstWordLate: number;
  firstWords: number;
  falseActivity: number;
  silenceFrames: number;
  /** Audio seconds processed per CPU second. */
  xRealTime: number;
}

/** Scores one engine over many utterances. */
export class Scorer {
  private readonly ref15: number[] = [];
  private readonly pred15: number[] = [];
  private readonly jaw: TrackPair[] = [];
  private readonly jawByUtterance: { phones: readonly Phone[]; pred: number[] }[] = [];
  private closureSegments = 0;
  private closureHits = 0;
  private vowelFrames = 0;
  private vowelShut = 0;
  private readonly onsets: number[] = [];
  private readonly firstWords: number[] = [];
  private silenceFrames = 0;
  private silenceActive = 0;
  private utterances = 0;
  audioSeconds = 0;
  cpuSeconds = 0;

  /**
   * Adds one utterance. `preds` must hold one prediction per frame of the utterance (callers pad a short
   * output with neutral frames and drop extra ones).
   */
  add(phones: readonly Phone[], preds: readonly FramePrediction[]): void {
    const frames = preds.length;
    const ref = referenceVisemes(phones, frames);
    for (let k = 0; k < frames; k++) {
      this.ref15.push(ref[k]!);
      this.pred15.push(preds[k]!.viseme);
    }
    const jaw = preds.map((p) => p.jawOpen);
    this.jaw.push({ ref: referenceJaw(phones, frames), pred: jaw });
    this.jawByUtterance.push({ phones, pred: jaw });
    const c = closureCounts(phones, preds);
    this.closureSegments += c.segments;
    this.closureHits += c.closed;
    const v = vowelShutCounts(phones, preds);
    this.vowelFrames += v.frames;
    this.vowelShut += v.shut;
    this.onsets.push(...onsetLatencies(phones, preds));
    const first = firstWordLatency(phones, preds);
    if (first !== undefined) this.firstWords.push(first);
    const s = silenceActivity(phones, preds);
    this.silenceFrames += s.frames;
    this.silenceActive += s.active;
    this.utterances++;
  }

  private cached: { key: string; summary: Summary } | undefined;

  /** The figures so far, computed once per state (the jaw lag search is not cheap). */
  summary(): Summary {
    const key = `${this.utterances}/${this.audioSeconds}/${this.cpuSeconds}`;
    if (this.cached?.key !== key) this.cached = { key, summary: this.compute() };
    return this.cached.summary;
  }

  private compute(): Summary {
    const ref7 = this.ref15.map(visemeGroup);
    const pred7 = this.pred15.map(visemeGroup);
    const best = bestLag(this.jaw, MAX_LAG_FRAMES);
    const fine = fineJawLag(this.jawByUtterance);
    return {
      frames: this.ref15.length,
      utterances: this.utterances,
      acc15: accuracy(this.ref15, this.pred15),
      acc7: accuracy(ref7, pred7),
      macroF1: macroF1(this.ref15, this.pred15, VISEMES.length),
      macroF1Groups: macroF1(ref7, pred7, GROUPS.length),
      jawR0: laggedPearson(this.jaw, 0),
      jawRBest: best.r,
      jawBestLagMs: best.lag * 40,
      jawFineLagMs: fine.lagMs,
      jawFineR: fine.r,
      closureRecall: this.closureSegments === 0 ? Number.NaN : this.closureHits / this.closureSegments,
      closureSegments: this.closureSegments,
      vowelShut: this.vowelFrames === 0 ? Number.NaN : this.vowelShut / this.vowelFrames,
      onsetMedianMs: median(this.onsets),
      onsets: this.onsets.length,
      firstWordMedianMs: median(this.firstWords),
      firstWordLate:
        this.firstWords.length === 0
          ? Number.NaN
          : this.firstWords.filter((v) => v > FIRST_WORD_LATE_MS).length / this.firstWords.length,
      firstWords: this.firstWords.length,
      falseActivity: this.silenceFrames === 0 ? Number.NaN : this.silenceActive / this.silenceFrames,
      silenceFrames: this.silenceFrames,
      xRealTime: this.cpuSeconds > 0 ? this.audioSeconds / this.cpuSeconds : Number.NaN,
    };
  }
}

/** A neutral frame: silence, jaw and lips closed. */
export function neutralPrediction(): FramePrediction {
  return { viseme: SIL, jawOpen: 0, mouthClose: Number.NaN };
}
