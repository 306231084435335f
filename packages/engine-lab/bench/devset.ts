/**
 * Loads a labelled dev set: per utterance `<id>.wav` (mono s16le) and `<id>.json`
 * `{ id, sampleRate, voice, text, condition, split, phones: [{ start, end, phone, viseme }] }`
 * (seconds), listed by `index.json` when present.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWav, VISEMES, wavToMonoInt16 } from '@avatar-drive/core';
import type { Phone } from './metrics.js';

/** One labelled utterance with its audio. */
export interface Utterance {
  id: string;
  sampleRate: number;
  voice: string;
  condition: string;
  text: string;
  phones: Phone[];
  pcm: Int16Array;
}

interface LabelFile {
  id?: string;
  sampleRate?: number;
  voice?: string;
  condition?: string;
  text?: string;
  phones?: Phone[];
}

/**
 * Utterance ids of a dev set directory: from index.json (an array, or `ids` / `utterances` / `items`, of ids
 * or objects with `id`), else every label file that has its WAV.
 */
export function listUtterances(dir: string): string[] {
  const index = join(dir, 'index.json');
  if (existsSync(index)) {
    const raw = JSON.parse(readFileSync(index, 'utf8')) as unknown;
    const obj = raw as { ids?: unknown[]; utterances?: unknown[]; items?: unknown[] };
    const list = Array.isArray(raw) ? raw : (obj.ids ?? obj.utterances ?? obj.items);
    if (Array.isArray(list)) {
      return list.map((e) => (typeof e === 'string' ? e : String((e as { id: unknown }).id)));
    }
  }
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .map((f) => f.slice(0, -5))
    .filter((id) => existsSync(join(dir, `${id}.wav`)))
    .sort();
}

const VISEME_SET = new Set<string>(VISEMES);

/** Reads one utterance; throws with the file name when a label or the audio is malformed. */
export function loadUtterance(dir: string, id: string): Utterance {
  const labelPath = join(dir, `${id}.json`);
  const label = JSON.parse(readFileSync(labelPath, 'utf8')) as LabelFile;
  const wav = parseWav(readFileSync(join(dir, `${id}.wav`)));
  if (label.sampleRate !== undefined && label.sampleRate !== wav.sampleRate) {
    throw new Error(
      `${labelPath}: sampleRate ${label.sampleRate} disagrees with the WAV (${wav.sampleRate})`,
    );
  }
  const phones = (label.phones ?? []).map((p) => {
    if (!VISEME_SET.has(p.viseme)) throw new Error(`${labelPath}: unknown viseme "${p.viseme}"`);
    return { start: Number(p.start), end: Number(p.end), phone: String(p.phone), viseme: p.viseme };
  });
  return {
    id: label.id ?? id,
    sampleRate: wav.sampleRate,
    voice: label.voice ?? 'unknown',
    condition: label.condition ?? 'unknown',
    text: label.text ?? '',
    phones,
    pcm: wavToMonoInt16(wav),
  };
}
