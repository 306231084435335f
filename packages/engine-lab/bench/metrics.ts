/**
 * Lip-sync scoring: pure functions from labelled phones and per-frame predictions to figures.
 * Everything works on the 25 fps frame grid of the rig (frame k covers [40k, 40k+40) ms).
 */
import { FRAME_MS, VISEMES, type Viseme } from '@avatar-drive/core';

/** Seconds per drive frame. */
export const FRAME_S = FRAME_MS / 1000;
/** Index of `sil` in {@link VISEMES}. */
export const SIL = 0;
const VISEME_ID = new Map<string, number>(VISEMES.map((v, i) => [v, i]));

/** One labelled phone of an utterance; times in seconds. */
export interface Phone {
  start: number;
  end: number;
  phone: string;
  viseme: Viseme;
}

/** What a scored engine said about one frame. */
export interface FramePrediction {
  /** Predicted viseme class, index into {@link VISEMES}. */
  viseme: number;
  /** Jaw opening 0..1 (ARKit `jawOpen`, or the peer's nearest equivalent). */
  jawOpen: number;
  /** Lip closure 0..1 (ARKit `mouthClose`); NaN when the engine has no such output. */
  mouthClose: number;
}

/** Names of the 8 classes of the 7-group scheme plus silence, by group id. */
export const GROUPS = ['sil', 'PP', 'FF', 'aa', 'E', 'I', 'O+U', 'cons'] as const;

const GROUP_OF_VISEME: Readonly<Record<Viseme, number>> = {
  sil: 0,
  PP: 1,
  FF: 2,
  aa: 3,
  E: 4,
  I: 5,
  O: 6,
  U: 6,
  TH: 7,
  DD: 7,
  kk: 7,
  CH: 7,
  SS: 7,
  nn: 7,
  RR: 7,
};

/** Group id (index into {@link GROUPS}) of a viseme index. */
export function visemeGroup(viseme: number): number {
  const name = VISEMES[viseme];
  if (name === undefined) throw new RangeError(`viseme index ${viseme} is outside 0..${VISEMES.length - 1}`);
  return GROUP_OF_VISEME[name];
}

/** Viseme index of a viseme name; throws on an unknown name so a bad label file is caught early. */
export function visemeId(name: string): number {
  const id = VISEME_ID.get(name);
  if (id === undefined)
    throw new RangeError(`unknown viseme "${name}"; expected one of ${VISEMES.join(', ')}`);
  return id;
}

/**
 * Openness target per viseme (0 closed … 1 wide open) used to derive the jawOpen reference from labels,
 * and to turn viseme-only peers' outputs into a jaw track. Vowels by height (aa lowest jaw, I/U highest),
 * consonants by how far the jaw typically drops for them; bilabials and silence are closed.
 */
export const OPENNESS: Readonly<Record<Viseme, number>> = {
  sil: 0,
  PP: 0,
  FF: 0.1,
  TH: 0.2,
  DD: 0.25,
  kk: 0.3,
  CH: 0.2,
  SS: 0.1,
  nn: 0.2,
  RR: 0.3,
  aa: 1,
  E: 0.6,
  I: 0.35,
  O: 0.7,
  U: 0.35,
};

/** Number of frames covering `durationS` seconds of audio (the last one may be partial). */
export function frameCount(durationS: number): number {
  return Math.max(0, Math.ceil(durationS / FRAME_S - 1e-9));
}

/** The phone covering time `t`, or undefined (gaps between phones count as silence). */
function phoneAt(phones: readonly Phone[], t: number): Phone | undefined {
  for (const p of phones) if (t >= p.start && t < p.end) return p;
  return undefined;
}

/** Reference viseme index per frame: the label at the frame's centre; unlabelled time is `sil`. */
export function referenceVisemes(phones: readonly Phone[], frames: number): Int8Array {
  const out = new Int8Array(frames);
  for (let k = 0; k < frames; k++) {
    const p = phoneAt(phones, (k + 0.5) * FRAME_S);
    out[k] = p ? visemeId(p.viseme) : SIL;
  }
  return out;
}

/** Standard deviation (seconds) of the zero-phase Gaussian that smooths the openness target. */
export const JAW_SMOOTH_SIGMA_S = 0.03;
const JAW_GRID_S = 0.005;

/**
 * jawOpen reference per frame: the label's openness target ({@link OPENNESS}) as a step function on a
 * 5 ms grid, smoothed with a zero-phase Gaussian (σ = 30 ms, so it adds no lag), averaged over each frame.
 */
export function referenceJaw(phones: readonly Phone[], frames: number): Float64Array {
  const perFrame = Math.round(FRAME_S / JAW_GRID_S);
  const n = frames * perFrame;
  const raw = new Float64Array(n);
  // One sweep over the labels in time order (the grid rises): same answer as phoneAt per point.
  const sorted = [...phones].sort((a, b) => a.start - b.start);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) * JAW_GRID_S;
    while (j < sorted.length && sorted[j]!.end <= t) j++;
    const p = j < sorted.length && t >= sorted[j]!.start ? sorted[j] : phoneAt(phones, t);
    raw[i] = p ? OPENNESS[p.viseme] : 0;
  }
  const half = Math.ceil((3 * JAW_SMOOTH_SIGMA_S) / JAW_GRID_S);
  const kernel = new Float64Array(2 * half + 1);
  for (let j = -half; j <= half; j++) {
    const x = (j * JAW_GRID_S) / JAW_SMOOTH_SIGMA_S;
    kernel[j + half] = Math.exp(-0.5 * x * x);
  }
  const out = new Float64Array(frames);
  for (let k = 0; k < frames; k++) {
    let acc = 0;
    for (let s = k * perFrame; s < (k + 1) * perFrame; s++) {
      let num = 0;
      let den = 0;
      for (let j = -half; j <= half; j++) {
        const i = s + j;
        if (i < 0 || i >= n) continue; // outside the utterance: renormalise rather than assume silence
        num += kernel[j + half]! * raw[i]!;
        den += kernel[j + half]!;
      }
      acc += num / den;
    }
    out[k] = acc / perFrame;
  }
  return out;
}

/** Fraction of positions where `pred` equals `ref`; NaN for empty input. */
export function accuracy(ref: ArrayLike<number>, pred: ArrayLike<number>): number {
  checkSameLength(ref, pred);
  if (ref.length === 0) return Number.NaN;
  let hit = 0;
  for (let i = 0; i < ref.length; i++) if (ref[i] === pred[i]) hit++;
  return hit / ref.length;
}

/** Confusion counts `m[ref][pred]` over `classes` classes. */
export function confusion(ref: ArrayLike<number>, pred: ArrayLike<number>, classes: number): number[][] {
  checkSameLength(ref, pred);
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0));
  for (let i = 0; i < ref.length; i++) m[ref[i]!]![pred[i]!]!++;
  return m;
}

/**
 * Macro-averaged F1 over the classes that occur in the reference (a class never labelled has no
 * defined recall; a class predicted but never labelled still costs precision elsewhere).
 */
export function macroF1(ref: ArrayLike<number>, pred: ArrayLike<number>, classes: number): number {
  const m = confusion(ref, pred, classes);
  let sum = 0;
  let n = 0;
  for (let c = 0; c < classes; c++) {
    let support = 0;
    let predicted = 0;
    for (let j = 0; j < classes; j++) {
      support += m[c]![j]!;
      predicted += m[j]![c]!;
    }
    if (support === 0) continue;
    const tp = m[c]![c]!;
    const f1 = tp === 0 ? 0 : (2 * tp) / (support + predicted);
    sum += f1;
    n++;
  }
  return n === 0 ? Number.NaN : sum / n;
}

/** Pearson correlation; NaN when either side is constant or empty. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  checkSameLength(x, y);
  const n = x.length;
  if (n < 2) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/** A reference track and a predicted track of one utterance, frame-aligned. */
export interface TrackPair {
  ref: ArrayLike<number>;
  pred: ArrayLike<number>;
}

/**
 * Pearson r pooled over utterances with the prediction shifted by `lag` frames: pairs
 * (ref[t], pred[t + lag]) within each utterance. A positive best lag means the prediction runs late.
 */
export function laggedPearson(pairs: readonly TrackPair[], lag: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const { ref, pred } of pairs) {
    checkSameLength(ref, pred);
    for (let t = Math.max(0, -lag); t < ref.length && t + lag < pred.length; t++) {
      xs.push(ref[t]!);
      ys.push(pred[t + lag]!);
    }
  }
  return pearson(xs, ys);
}

/** Shifts (ms) of the jaw reference tried by {@link fineJawLag}: ±40 ms in 10 ms steps. */
export const FINE_LAG_STEPS_MS = [-40, -30, -20, -10, 0, 10, 20, 30, 40] as const;

/**
 * The engine's jaw lag in ms, finer than a frame: the shift of the *reference* (its labels moved
 * later by that much, then smoothed and averaged per frame as usual) that gives the highest pooled r
 * with the prediction. Positive: the jaw runs late. Ties go to the smallest shift.
 */
export function fineJawLag(utterances: readonly { phones: readonly Phone[]; pred: ArrayLike<number> }[]): {
  lagMs: number;
  r: number;
} {
  let best = { lagMs: 0, r: Number.NaN };
  const order = [...FINE_LAG_STEPS_MS].sort((a, b) => Math.abs(a) - Math.abs(b));
  for (const shift of order) {
    const pairs = utterances.map(({ phones, pred }) => {
      const moved = phones.map((p) => ({ ...p, start: p.start + shift / 1000, end: p.end + shift / 1000 }));
      return { ref: referenceJaw(moved, pred.length), pred };
    });
    const r = laggedPearson(pairs, 0);
    if (!Number.isNaN(r) && (Number.isNaN(best.r) || r > best.r + 1e-12)) best = { lagMs: shift, r };
  }
  return best;
}

/** The lag (frames, within ±maxLag) with the highest pooled r; ties go to the smallest |lag|. */
export function bestLag(pairs: readonly TrackPair[], maxLag: number): { lag: number; r: number } {
  let best = { lag: 0, r: laggedPearson(pairs, 0) };
  for (let d = 1; d <= maxLag; d++) {
    for (const lag of [-d, d]) {
      const r = laggedPearson(pairs, lag);
      if (!Number.isNaN(r) && (Number.isNaN(best.r) || r > best.r + 1e-12)) best = { lag, r };
    }
  }
  return best;
}

/** Minimum duration of a bilabial (PP) segment that counts for closure recall. */
export const CLOSURE_MIN_S = 0.04;
/** mouthClose at or above this closes the lips. */
export const CLOSURE_MOUTH_CLOSE = 0.5;
/** jawOpen at or below this closes the lips (engines without mouthClose). */
export const CLOSURE_JAW = 0.1;

/** Frames whose centre lies in [start, end] (at least the frame holding the midpoint). */
function framesOf(start: number, end: number, frames: number): number[] {
  const out: number[] = [];
  for (let k = Math.max(0, Math.floor(start / FRAME_S) - 1); k < frames; k++) {
    const c = (k + 0.5) * FRAME_S;
    if (c > end) break;
    if (c >= start) out.push(k);
  }
  if (out.length === 0) {
    const k = Math.min(frames - 1, Math.floor((start + end) / 2 / FRAME_S));
    if (k >= 0) out.push(k);
  }
  return out;
}

/** True when a frame shows closed lips. */
export function isClosed(p: FramePrediction): boolean {
  return p.mouthClose >= CLOSURE_MOUTH_CLOSE || p.jawOpen <= CLOSURE_JAW;
}

/** Closure counts: p/b/m segments ≥ 40 ms, and those with closed lips in some frame. */
export function closureCounts(
  phones: readonly Phone[],
  preds: readonly FramePrediction[],
): { segments: number; closed: number } {
  let segments = 0;
  let closed = 0;
  for (const p of phones) {
    if (p.viseme !== 'PP' || p.end - p.start < CLOSURE_MIN_S - 1e-9) continue;
    segments++;
    if (framesOf(p.start, p.end, preds.length).some((k) => isClosed(preds[k]!))) closed++;
  }
  return { segments, closed };
}

/** Vowel visemes: the jaw should be open throughout them. */
const VOWELS = new Set(['aa', 'E', 'I', 'O', 'U']);

/**
 * Frames inside vowels (frame centre within an aa/E/I/O/U segment) and those among them whose
 * mouth is shut ({@link isClosed}): a mouth closing in the middle of a vowel.
 */
export function vowelShutCounts(
  phones: readonly Phone[],
  preds: readonly FramePrediction[],
): { frames: number; shut: number } {
  let frames = 0;
  let shut = 0;
  for (const p of phones) {
    if (!VOWELS.has(p.viseme)) continue;
    for (let k = Math.max(0, Math.floor(p.start / FRAME_S)); k < preds.length; k++) {
      const c = (k + 0.5) * FRAME_S;
      if (c >= p.end) break;
      if (c < p.start) continue;
      frames++;
      if (isClosed(preds[k]!)) shut++;
    }
  }
  return { frames, shut };
}

/** jawOpen above this makes a frame count as mouth activity. */
export const ACTIVITY_JAW = 0.1;

/** A frame is active when it predicts a non-silence viseme or opens the jaw. */
export function isActive(p: FramePrediction): boolean {
  return p.viseme !== SIL || p.jawOpen > ACTIVITY_JAW;
}

/** Silence before an onset must last this long for the onset to count. */
export const ONSET_MIN_SILENCE_S = 0.3;
/** Onsets with no activity within this window count as this late. */
export const ONSET_WINDOW_S = 0.5;

/** Speech onsets (seconds) that follow at least {@link ONSET_MIN_SILENCE_S} of silence (or start-of-file silence). */
export function speechOnsets(phones: readonly Phone[]): number[] {
  const speech = phones.filter((p) => p.viseme !== 'sil').sort((a, b) => a.start - b.start);
  const out: number[] = [];
  let lastEnd = 0;
  for (const p of speech) {
    if (p.start - lastEnd >= ONSET_MIN_SILENCE_S - 1e-9) out.push(p.start);
    lastEnd = Math.max(lastEnd, p.end);
  }
  return out;
}

/**
 * Onset latencies in ms: for each onset t0, the start time of the first active frame among those ending
 * after t0, minus t0 (negative when the mouth moves in the frame that holds the onset). Misses count as
 * {@link ONSET_WINDOW_S}.
 */
export function onsetLatencies(phones: readonly Phone[], preds: readonly FramePrediction[]): number[] {
  return speechOnsets(phones).map((t0) => latencyFrom(t0, preds));
}

/** ms from `t0` to the start of the first active frame ending after it ({@link ONSET_WINDOW_S} if none). */
function latencyFrom(t0: number, preds: readonly FramePrediction[]): number {
  for (let k = Math.floor(t0 / FRAME_S); k < preds.length; k++) {
    const start = k * FRAME_S;
    if (start - t0 > ONSET_WINDOW_S) break;
    if (isActive(preds[k]!)) return (start - t0) * 1000;
  }
  return ONSET_WINDOW_S * 1000;
}

/** A first word later than this (ms) counts as late: the cold-start budget. */
export const FIRST_WORD_LATE_MS = 80;

/**
 * First-word latency in ms: like {@link onsetLatencies} for the utterance's first speech onset,
 * whatever precedes it — speech at sample 0 included. The bench runs every utterance from a fresh
 * state, so this is a session's first word (the cold start). Undefined when there is no speech.
 */
export function firstWordLatency(
  phones: readonly Phone[],
  preds: readonly FramePrediction[],
): number | undefined {
  let t0 = Number.POSITIVE_INFINITY;
  for (const p of phones) if (p.viseme !== 'sil' && p.start < t0) t0 = p.start;
  return Number.isFinite(t0) ? latencyFrom(t0, preds) : undefined;
}

/** Silence frames closer than this to speech are not scored for false activity (coarticulation ramps). */
export const SILENCE_GUARD_S = 0.1;

/** Silence frames (centre ≥ {@link SILENCE_GUARD_S} away from any speech label) and how many are active. */
export function silenceActivity(
  phones: readonly Phone[],
  preds: readonly FramePrediction[],
): { frames: number; active: number } {
  const speech = phones.filter((p) => p.viseme !== 'sil');
  let frames = 0;
  let active = 0;
  for (let k = 0; k < preds.length; k++) {
    const c = (k + 0.5) * FRAME_S;
    const near = speech.some((p) => c > p.start - SILENCE_GUARD_S && c < p.end + SILENCE_GUARD_S);
    if (near) continue;
    frames++;
    if (isActive(preds[k]!)) active++;
  }
  return { frames, active };
}

/** Median; NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function checkSameLength(a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) throw new RangeError(`length mismatch: ${a.length} vs ${b.length}`);
}
