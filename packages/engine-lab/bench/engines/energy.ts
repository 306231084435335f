/**
 * Energy-envelope baseline: what a lip-sync with no phonetics does. Per 40 ms frame, RMS level in dBFS
 * against a causally tracked noise floor; the jaw opens with the level above the speech threshold, and
 * the class is `aa` when the level clears the threshold, otherwise silence.
 */
import { type FramePrediction, SIL, visemeId } from '../metrics.js';
import type { BenchEngine, BenchStream } from './types.js';

/** Speech threshold above the noise floor, dB. */
const THRESHOLD_DB = 10;
/** Lowest speech threshold, dBFS (digital silence has no floor to speak of). */
const MIN_THRESHOLD_DBFS = -55;
/** Level above threshold at which the jaw is fully open, dB. */
const RANGE_DB = 25;
/** How fast the floor estimate may rise, dB per second (it falls at once). */
const FLOOR_RISE_DB_PER_S = 6;
const AA = visemeId('aa');

export function createEnergyEngine(): BenchEngine {
  return {
    name: 'energy baseline',
    note: 'RMS per 40 ms frame vs causal noise floor: jawOpen = (dB − threshold)/25, class aa above threshold else sil',
    async open(sampleRate) {
      return new EnergyStream(sampleRate);
    },
  };
}

class EnergyStream implements BenchStream {
  private readonly samplesPerFrame: number;
  private sumSquares = 0;
  private count = 0;
  private floorDb = Number.NaN;

  constructor(sampleRate: number) {
    this.samplesPerFrame = sampleRate / 25;
  }

  push(pcm: Int16Array): FramePrediction[] {
    const out: FramePrediction[] = [];
    for (let i = 0; i < pcm.length; i++) {
      const v = pcm[i]! / 32768;
      this.sumSquares += v * v;
      if (++this.count === this.samplesPerFrame) out.push(this.frame());
    }
    return out;
  }

  end(): FramePrediction[] {
    return this.count > 0 ? [this.frame()] : [];
  }

  private frame(): FramePrediction {
    const db = 10 * Math.log10(this.sumSquares / this.count + 1e-12);
    this.sumSquares = 0;
    this.count = 0;
    this.floorDb = Number.isNaN(this.floorDb) ? db : Math.min(db, this.floorDb + FLOOR_RISE_DB_PER_S / 25);
    const threshold = Math.max(MIN_THRESHOLD_DBFS, this.floorDb + THRESHOLD_DB);
    const above = db - threshold;
    return {
      viseme: above > 0 ? AA : SIL,
      jawOpen: Math.min(1, Math.max(0, above / RANGE_DB)),
      mouthClose: Number.NaN,
    };
  }
}
