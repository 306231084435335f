/**
 * Phone labels: from synthesiser output (espeak-ng phoneme events, Festival segment end times) to
 * contiguous intervals that cover the whole audio, each with its viseme.
 */
import { ESPEAK_MODIFIERS, ESPEAK_STOPS, type PhoneSet, type Viseme, visemeOf } from './visemes.js';

/** One labelled phone, times in seconds. The corpus JSON carries a list of these. */
export interface PhoneLabel {
  start: number;
  end: number;
  phone: string;
  viseme: Viseme;
}

/** A phone interval in samples: [start, end). */
export interface PhoneSpan {
  start: number;
  end: number;
  phone: string;
}

/** One espeak-ng phoneme event: where it starts, in samples. */
export interface PhoneEvent {
  sample: number;
  phone: string;
}

/** The pause phone used for unlabelled silence in each inventory. */
const PAUSE: Record<PhoneSet, string> = { espeak: '_', festival: 'pau', kokoro: '_' };

/**
 * Turns espeak-ng phoneme events into spans: each phone lasts until the next event, the last until
 * the end of the audio, and any audio before the first event is a pause. Modifier events (`;`)
 * extend the phone before them; zero-length phones are dropped.
 */
export function spansFromEspeakEvents(events: readonly PhoneEvent[], totalSamples: number): PhoneSpan[] {
  const spans: PhoneSpan[] = [];
  const sorted = [...events].sort((a, b) => a.sample - b.sample);
  let cursor = 0;
  for (let i = 0; i < sorted.length; i++) {
    const ev = sorted[i]!;
    const start = Math.min(Math.max(ev.sample, 0), totalSamples);
    if (ESPEAK_MODIFIERS.has(ev.phone)) continue; // the previous span simply runs on
    if (start > cursor) {
      const prev = spans[spans.length - 1];
      if (prev) prev.end = start;
      else spans.push({ start: 0, end: start, phone: PAUSE.espeak });
    }
    cursor = start;
    spans.push({ start, end: start, phone: ev.phone });
  }
  const last = spans[spans.length - 1];
  if (last) last.end = totalSamples;
  else if (totalSamples > 0) spans.push({ start: 0, end: totalSamples, phone: PAUSE.espeak });
  return spans.filter((s) => s.end > s.start);
}

/**
 * Parses Festival's `utt.save.segs` output (`<end seconds> <colour> <phone>` after a `#` line) into
 * spans at `sampleRate`, stretched or padded with a pause so they cover exactly `totalSamples`.
 */
export function spansFromFestivalSegs(text: string, sampleRate: number, totalSamples: number): PhoneSpan[] {
  const lines = text.split('\n');
  const body = lines.indexOf('#');
  const spans: PhoneSpan[] = [];
  let cursor = 0;
  for (const line of lines.slice(body + 1)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 3) continue;
    const endSec = Number(parts[0]);
    const phone = parts[2]!;
    if (!Number.isFinite(endSec)) throw new Error(`festival segs: bad end time in line "${line}"`);
    const end = Math.min(Math.round(endSec * sampleRate), totalSamples);
    if (end > cursor) spans.push({ start: cursor, end, phone });
    cursor = Math.max(cursor, end);
  }
  if (cursor < totalSamples) spans.push({ start: cursor, end: totalSamples, phone: PAUSE.festival });
  return spans;
}

/** Tuning of {@link findClosureStart}. */
export interface ClosureOptions {
  /** Longest closure accepted, seconds (also the cap after a pause, where silence is unbounded). */
  maxClosure?: number;
  /** Shortest silent stretch that counts as a closure, seconds. */
  minClosure?: number;
  /** How far before the release event the silence may end, seconds (burst jitter). */
  tolerance?: number;
}

/** RMS of samples [from, to). */
function rms(x: Float32Array, from: number, to: number): number {
  let acc = 0;
  const a = Math.max(0, from);
  const b = Math.min(x.length, to);
  for (let i = a; i < b; i++) acc += x[i]! * x[i]!;
  return b > a ? Math.sqrt(acc / (b - a)) : 0;
}

/**
 * The level below which a 1 ms window counts as closure silence: 25 dB under the loud frames of
 * the utterance (95th percentile of 10 ms RMS). espeak-ng writes digital silence in most closures;
 * breathy variants (f3, …) fill them with aspiration noise 25–35 dB down, which must still count,
 * while weak fricatives (f, θ, h) before a stop stay above it.
 */
export function closureThreshold(x: Float32Array, sampleRate: number): number {
  const hop = Math.max(1, Math.round(sampleRate * 0.01));
  const levels: number[] = [];
  for (let i = 0; i + hop <= x.length; i += hop) levels.push(rms(x, i, i + hop));
  if (levels.length === 0) return 1e-4;
  levels.sort((a, b) => a - b);
  const loud = levels[Math.floor(0.95 * (levels.length - 1))]!;
  return Math.max(1e-4, loud * 0.056);
}

/**
 * Where the closure before a stop release begins, in samples: walks back from `release` over 1 ms
 * windows quieter than `threshold`, no further than `earliest`. Returns `release` unchanged when
 * there is no silent stretch right before it (voiced stops after a vowel: there espeak-ng's event
 * already sits at the start of the voice bar, i.e. at the closure).
 */
export function findClosureStart(
  x: Float32Array,
  sampleRate: number,
  release: number,
  earliest: number,
  threshold: number,
  options: ClosureOptions = {},
): number {
  const win = Math.max(1, Math.round(sampleRate * 0.001));
  const maxBack = Math.round((options.maxClosure ?? 0.2) * sampleRate);
  const minLen = Math.round((options.minClosure ?? 0.005) * sampleRate);
  const tolerance = Math.round((options.tolerance ?? 0.004) * sampleRate);
  const floor = Math.max(0, earliest, release - maxBack);
  // Find the end of the silence: the latest quiet window ending within `tolerance` of the release.
  let end = -1;
  for (let e = release; e >= release - tolerance && e - win >= floor; e -= Math.max(1, win >> 2)) {
    if (rms(x, e - win, e) < threshold) {
      end = e;
      break;
    }
  }
  if (end < 0) return release;
  let start = end - win;
  while (start - win >= floor && rms(x, start - win, start) < threshold) start -= win;
  // Refine to the sample: the closure starts after the last loud sample before it.
  const lo = Math.max(floor, start - win);
  for (let i = start - 1; i >= lo; i--) {
    if (Math.abs(x[i]!) >= threshold * 2) break;
    start = i;
  }
  return end - start >= minLen ? start : release;
}

/**
 * Moves every espeak-ng stop (p b t d k g tʃ dʒ and their allophones) from its release event back to
 * the start of the silent closure before it, shortening the phone before. After a pause the closure
 * is capped at `maxClosure` (default 80 ms), since the silence there has no natural start.
 */
export function shiftStopOnsets(
  spans: readonly PhoneSpan[],
  x: Float32Array,
  sampleRate: number,
  options: ClosureOptions = {},
): PhoneSpan[] {
  const out = spans.map((s) => ({ ...s }));
  const threshold = closureThreshold(x, sampleRate);
  for (let i = 1; i < out.length; i++) {
    const span = out[i]!;
    if (!ESPEAK_STOPS.has(span.phone)) continue;
    const prev = out[i - 1]!;
    const prevIsPause = visemeOf('espeak', prev.phone) === 'sil';
    const maxClosure = prevIsPause ? Math.min(options.maxClosure ?? 0.08, 0.08) : (options.maxClosure ?? 0.2);
    // Keep at least 10 ms (or half) of a real phone before the closure.
    const keep = prevIsPause ? 0 : Math.min(Math.round(0.01 * sampleRate), (prev.end - prev.start) >> 1);
    const onset = findClosureStart(x, sampleRate, span.start, prev.start + keep, threshold, {
      ...options,
      maxClosure,
    });
    if (onset < span.start) {
      prev.end = onset;
      span.start = onset;
    }
  }
  return out.filter((s) => s.end > s.start);
}

/** Shifts spans right by `lead` samples and pads with pauses to cover `totalSamples`. */
export function padSpans(
  spans: readonly PhoneSpan[],
  phoneSet: PhoneSet,
  lead: number,
  totalSamples: number,
): PhoneSpan[] {
  const out: PhoneSpan[] = [];
  if (lead > 0) out.push({ start: 0, end: lead, phone: PAUSE[phoneSet] });
  for (const s of spans) out.push({ start: s.start + lead, end: s.end + lead, phone: s.phone });
  const tail = out[out.length - 1]?.end ?? 0;
  if (tail < totalSamples) out.push({ start: tail, end: totalSamples, phone: PAUSE[phoneSet] });
  return out
    .filter((s) => s.end > s.start && s.start < totalSamples)
    .map((s) => ({
      ...s,
      end: Math.min(s.end, totalSamples),
    }));
}

/**
 * Converts sample spans to labels in seconds with visemes, merging neighbouring pauses, so that the
 * first starts at 0 and the last ends at exactly `totalSamples / sampleRate`. Throws for an
 * unmapped phone.
 */
export function toLabels(
  spans: readonly PhoneSpan[],
  phoneSet: PhoneSet,
  sampleRate: number,
  totalSamples: number,
): PhoneLabel[] {
  const labels: PhoneLabel[] = [];
  for (const s of spans) {
    const viseme = visemeOf(phoneSet, s.phone);
    const prev = labels[labels.length - 1];
    if (prev && viseme === 'sil' && prev.viseme === 'sil') {
      prev.end = s.end;
      continue;
    }
    labels.push({ start: s.start, end: s.end, phone: viseme === 'sil' ? PAUSE[phoneSet] : s.phone, viseme });
  }
  // Contiguity in samples first, then exact seconds.
  if (labels.length === 0)
    return [{ start: 0, end: totalSamples / sampleRate, phone: PAUSE[phoneSet], viseme: 'sil' }];
  labels[0]!.start = 0;
  for (let i = 1; i < labels.length; i++) labels[i]!.start = labels[i - 1]!.end;
  labels[labels.length - 1]!.end = totalSamples;
  const round = (v: number) => Math.round((v / sampleRate) * 1e6) / 1e6;
  return labels.map((l, i) => ({
    ...l,
    start: round(l.start),
    end: i === labels.length - 1 ? totalSamples / sampleRate : round(l.end),
  }));
}
