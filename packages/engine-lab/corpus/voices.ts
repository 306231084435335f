/**
 * The voices of each split. Dev holds out whole voices so the benchmark measures generalisation:
 *
 * - Festival: kal_diphone trains, ked_diphone (Debian festvox-kdlpc16k) is dev-only.
 * - espeak-ng dialects: en-029 (Caribbean) and en-gb-x-gbcwmd (West Midlands) are dev-only.
 * - espeak-ng variants: m3, m6, f2, f4, klatt3, klatt6, steph3, Andrea and michel are dev-only.
 * A train voice has a train dialect and a train variant; a dev voice has a dev dialect or a dev
 * variant (or is ked). MBROLA voices (mb/*) are never used.
 */
import type { FestivalVoice } from './festival.js';
import type { Split } from './texts.js';

export const TRAIN_DIALECTS = [
  'en',
  'en-us',
  'en-gb-x-rp',
  'en-gb-scotland',
  'en-gb-x-gbclan',
  'en-us-nyc',
] as const;
export const DEV_DIALECTS = ['en-029', 'en-gb-x-gbcwmd'] as const;

/** '' is the dialect's own default voice. */
export const TRAIN_VARIANTS = [
  '',
  'm1',
  'm2',
  'm4',
  'm5',
  'm7',
  'm8',
  'f1',
  'f3',
  'f5',
  'klatt',
  'klatt2',
  'klatt4',
  'klatt5',
  'adam',
  'Andy',
  'Annie',
  'aunty',
  'belinda',
  'benjamin',
  'david',
  'ed',
  'edward',
  'john',
  'linda',
  'max',
  'paul',
  'quincy',
  'rob',
  'robert',
  'steph',
  'travis',
  'victor',
  'zac',
  'Alicia',
  'Lee',
  'Mike',
  'norbert',
  'iven',
  'grandpa',
  'shelby',
] as const;
export const DEV_VARIANTS = [
  'm3',
  'm6',
  'f2',
  'f4',
  'klatt3',
  'klatt6',
  'steph3',
  'Andrea',
  'michel',
] as const;

export const FESTIVAL_VOICES: Record<Split, FestivalVoice[]> = {
  train: ['kal_diphone'],
  dev: ['ked_diphone'],
};

/** The espeak-ng voice name for a dialect and variant (`en-us+m3`). */
export function espeakVoiceName(dialect: string, variant: string): string {
  return variant === '' ? dialect : `${dialect}+${variant}`;
}

/** Every espeak-ng voice of a split. */
export function espeakVoices(split: Split): string[] {
  const out: string[] = [];
  if (split === 'train') {
    for (const d of TRAIN_DIALECTS) for (const v of TRAIN_VARIANTS) out.push(espeakVoiceName(d, v));
  } else {
    for (const d of DEV_DIALECTS)
      for (const v of [...TRAIN_VARIANTS, ...DEV_VARIANTS]) out.push(espeakVoiceName(d, v));
    for (const d of TRAIN_DIALECTS) for (const v of DEV_VARIANTS) out.push(espeakVoiceName(d, v));
  }
  return out;
}

/**
 * Kokoro-82M's English voices (American a*, British b*; f female, m male), split so dev holds out
 * whole voices of each kind: the `neural` dev condition is only ever these eight.
 */
export const KOKORO_VOICES: Record<Split, readonly string[]> = {
  train: [
    'af_alloy',
    'af_aoede',
    'af_bella',
    'af_jessica',
    'af_kore',
    'af_nova',
    'af_river',
    'af_sarah',
    'am_adam',
    'am_echo',
    'am_eric',
    'am_liam',
    'am_santa',
    'bf_alice',
    'bf_isabella',
    'bf_lily',
    'bm_daniel',
    'bm_fable',
    'bm_lewis',
    'am_fenrir',
  ],
  dev: ['af_heart', 'af_nicole', 'af_sky', 'am_michael', 'am_onyx', 'am_puck', 'bf_emma', 'bm_george'],
};
