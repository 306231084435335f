/**
 * Reading a labelled corpus (packages/engine-lab/corpus/README.md): per utterance `<id>.wav` (mono
 * s16) and `<id>.json` with `phones: [{ start, end, phone, viseme }]` in seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VISEMES } from '@avatar-drive/core';

export interface PhoneSpan {
  start: number;
  end: number;
  /** Index into VISEMES. */
  viseme: number;
  phone: string;
}

export interface Utterance {
  id: string;
  sampleRate: number;
  samples: Float32Array;
  phones: PhoneSpan[];
  /** Free-form metadata from the label file (voice, text, condition…). */
  meta: Record<string, unknown>;
}

const VISEME_INDEX = new Map<string, number>(VISEMES.map((v, i) => [v, i]));

/** Decodes a PCM s16 WAV (any channel count, mixed down). */
export function decodeWavS16(
  bytes: Uint8Array,
  source: string,
): { sampleRate: number; samples: Float32Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE')
    throw new Error(`${source}: not a RIFF/WAVE file`);
  let at = 12;
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (bits !== 16 || channels < 1) throw new Error(`${source}: expected 16-bit PCM`);
      const frames = Math.floor(Math.min(size, bytes.length - body) / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += view.getInt16(body + 2 * (i * channels + c), true);
        samples[i] = sum / channels / 32768;
      }
      return { sampleRate, samples };
    }
    at = body + size + (size & 1);
  }
  throw new Error(`${source}: no data chunk`);
}

/** Ids of the utterances in a corpus directory (every `<id>.wav` with a `<id>.json`). */
export function listUtterances(dir: string): string[] {
  const names = new Set(readdirSync(dir));
  return [...names]
    .filter((n) => n.endsWith('.wav') && names.has(`${n.slice(0, -4)}.json`))
    .map((n) => n.slice(0, -4))
    .sort();
}

export function readUtterance(dir: string, id: string): Utterance {
  const { sampleRate, samples } = decodeWavS16(readFileSync(join(dir, `${id}.wav`)), `${id}.wav`);
  const label = JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as {
    phones: { start: number; end: number; phone: string; viseme: string }[];
  } & Record<string, unknown>;
  const phones: PhoneSpan[] = [];
  for (const p of label.phones) {
    const viseme = VISEME_INDEX.get(p.viseme);
    if (viseme === undefined) throw new Error(`${id}.json: unknown viseme ${p.viseme}`);
    phones.push({ start: p.start, end: p.end, viseme, phone: p.phone });
  }
  const { phones: _, ...meta } = label;
  return { id, sampleRate, samples, phones, meta };
}

/**
 * Soft viseme label of the window `[t0, t0 + duration)` seconds: the fraction of it each viseme
 * covers (unlabelled time counts as silence).
 */
export function softLabel(
  phones: readonly PhoneSpan[],
  t0: number,
  duration: number,
  out: Float32Array,
): void {
  out.fill(0);
  const t1 = t0 + duration;
  let covered = 0;
  for (const p of phones) {
    if (p.end <= t0) continue;
    if (p.start >= t1) break;
    const overlap = Math.min(p.end, t1) - Math.max(p.start, t0);
    if (overlap > 0) {
      out[p.viseme] = out[p.viseme]! + overlap / duration;
      covered += overlap / duration;
    }
  }
  if (covered < 1) out[0] = out[0]! + (1 - covered);
}

/** The viseme at time t (seconds), silence outside the labels. */
export function visemeAt(phones: readonly PhoneSpan[], t: number): number {
  for (const p of phones) if (t >= p.start && t < p.end) return p.viseme;
  return 0;
}
