/**
 * Phone → viseme tables for the two synthesisers the corpus uses: espeak-ng's English phoneme
 * mnemonics (as its phoneme events name them) and Festival's `radio` phoneset (kal/ked diphone voices).
 *
 * Conventions (Oculus-style 15 visemes, same order as `VISEMES` in packages/core/src/rig.ts):
 * PP p b m · FF f v · TH θ ð · DD t d (and flaps) · kk k g ŋ h ʔ x · CH tʃ dʒ ʃ ʒ · SS s z ·
 * nn n l (syllabic too) · RR r, ɝ · aa open vowels and diphthongs starting open (æ ɑ ʌ aɪ aʊ) ·
 * E e ɛ eɪ and schwa-like mid central vowels · I i ɪ j · O ɒ ɔ oʊ ɔɪ · U u ʊ w.
 * Why these choices: a viseme is the mouth shape, so a diphthong takes its first (longer) target,
 * glides take their vowel's shape, and sounds made behind the lips (h, ʔ, ŋ) take the neutral
 * open kk shape rather than silence.
 */

import type { Viseme } from '@avatar-drive/core';

/** The 15 visemes in wire order: the rig's own list. */
export { VISEMES, type Viseme } from '@avatar-drive/core';

/**
 * espeak-ng English (all gmw/en* tables: en, en-us, en-gb-x-rp, en-gb-scotland, en-gb-x-gbclan,
 * en-gb-x-gbcwmd, en-029, en-us-nyc). The inventory was collected by running every dialect over
 * the word list and the sentence generator; the test sweeps it again.
 */
export const ESPEAK_VISEMES: Readonly<Record<string, Viseme>> = Object.freeze({
  // pauses
  _: 'sil',
  '_:': 'sil',
  '_!': 'sil',
  '_^_': 'sil',
  // lips
  p: 'PP',
  b: 'PP',
  m: 'PP',
  'm-': 'PP',
  f: 'FF',
  v: 'FF',
  T: 'TH',
  D: 'TH',
  // tongue tip
  t: 'DD',
  d: 'DD',
  't#': 'DD',
  't[': 'DD',
  t2: 'DD',
  'd#': 'DD',
  n: 'nn',
  'n-': 'nn',
  l: 'nn',
  'l#': 'nn',
  '@L': 'nn',
  // back of the mouth
  k: 'kk',
  g: 'kk',
  N: 'kk',
  h: 'kk',
  x: 'kk',
  '?': 'kk',
  // post-alveolar and sibilants
  tS: 'CH',
  dZ: 'CH',
  S: 'CH',
  Z: 'CH',
  s: 'SS',
  z: 'SS',
  // r and r-coloured vowels
  r: 'RR',
  'r-': 'RR',
  '3:': 'RR',
  VR: 'RR',
  IR: 'RR',
  // glides
  w: 'U',
  'w#': 'U',
  j: 'I',
  // open vowels
  a: 'aa',
  'a#': 'aa',
  aa: 'aa',
  'A:': 'aa',
  'A@': 'aa',
  'A~': 'aa',
  V: 'aa',
  aI: 'aa',
  aI2: 'aa',
  aI3: 'aa',
  'aI@': 'aa',
  aU: 'aa',
  // mid front and central vowels
  E: 'E',
  e: 'E',
  'e@': 'E',
  eI: 'E',
  '@': 'E',
  '@-': 'E',
  '@2': 'E',
  '@5': 'E',
  '3': 'E',
  // close front vowels
  i: 'I',
  'i:': 'I',
  'i@': 'I',
  'i@3': 'I',
  I: 'I',
  'I#': 'I',
  I2: 'I',
  // back rounded vowels
  '0': 'O',
  'O:': 'O',
  'O@': 'O',
  O: 'O',
  O2: 'O',
  'o@': 'O',
  OI: 'O',
  oU: 'O',
  'u:': 'U',
  U: 'U',
  'U@': 'U',
});

/**
 * espeak-ng emits these as separate phoneme events though they lengthen or colour the phone before
 * them (`;` marks palatalisation of the preceding phone); their time is merged into that phone.
 */
export const ESPEAK_MODIFIERS: ReadonlySet<string> = new Set([';']);

/** Festival's `radio` phoneset (CMU lexicon), used by kal_diphone and ked_diphone. */
export const FESTIVAL_VISEMES: Readonly<Record<string, Viseme>> = Object.freeze({
  pau: 'sil',
  'h#': 'sil',
  brth: 'sil',
  p: 'PP',
  b: 'PP',
  m: 'PP',
  em: 'PP',
  f: 'FF',
  v: 'FF',
  th: 'TH',
  dh: 'TH',
  t: 'DD',
  d: 'DD',
  dx: 'DD',
  k: 'kk',
  g: 'kk',
  ng: 'kk',
  hh: 'kk',
  hv: 'kk',
  ch: 'CH',
  jh: 'CH',
  sh: 'CH',
  zh: 'CH',
  s: 'SS',
  z: 'SS',
  n: 'nn',
  en: 'nn',
  nx: 'nn',
  l: 'nn',
  el: 'nn',
  r: 'RR',
  er: 'RR',
  axr: 'RR',
  w: 'U',
  y: 'I',
  aa: 'aa',
  ae: 'aa',
  ah: 'aa',
  aw: 'aa',
  ay: 'aa',
  eh: 'E',
  ey: 'E',
  ax: 'E',
  ih: 'I',
  iy: 'I',
  ao: 'O',
  ow: 'O',
  oy: 'O',
  uh: 'U',
  uw: 'U',
});

/**
 * Kokoro's phoneme symbols (misaki's English set: IPA plus single letters for diphthongs, A eɪ,
 * I aɪ, O oʊ, Q əʊ, W aʊ, Y ɔɪ, and ʧ ʤ for the affricates), as corpus/kokoro.ts writes them from
 * espeak-ng's IPA. Same conventions as the espeak-ng table: a diphthong takes its first target
 * (Q: British əʊ, like espeak-ng's oU, takes O), ɚ and ɹ are RR, ᵻ and ɨ (reduced close vowels) I.
 */
export const KOKORO_VISEMES: Readonly<Record<string, Viseme>> = Object.freeze({
  _: 'sil',
  p: 'PP',
  b: 'PP',
  m: 'PP',
  f: 'FF',
  v: 'FF',
  θ: 'TH',
  ð: 'TH',
  t: 'DD',
  d: 'DD',
  ɾ: 'DD',
  n: 'nn',
  l: 'nn',
  k: 'kk',
  ɡ: 'kk',
  g: 'kk',
  ŋ: 'kk',
  h: 'kk',
  ʔ: 'kk',
  ç: 'kk',
  ʧ: 'CH',
  ʤ: 'CH',
  ʃ: 'CH',
  ʒ: 'CH',
  s: 'SS',
  z: 'SS',
  ɹ: 'RR',
  ɚ: 'RR',
  w: 'U',
  j: 'I',
  a: 'aa',
  æ: 'aa',
  ɑ: 'aa',
  ɐ: 'aa',
  ʌ: 'aa',
  I: 'aa',
  W: 'aa',
  e: 'E',
  ɛ: 'E',
  ə: 'E',
  ᵊ: 'E',
  ɜ: 'E',
  A: 'E',
  i: 'I',
  ɪ: 'I',
  ᵻ: 'I',
  ɨ: 'I',
  o: 'O',
  ɔ: 'O',
  ɒ: 'O',
  O: 'O',
  Q: 'O',
  Y: 'O',
  u: 'U',
  ʊ: 'U',
});

/** Kokoro symbols that lengthen or colour the phone before them: their frames join that phone. */
export const KOKORO_MODIFIERS: ReadonlySet<string> = new Set(['ː', 'ʰ', 'ʲ', '\u0303']);

/** Kokoro's stress marks: they precede the syllable, and their frames open the phone after them. */
export const KOKORO_STRESS: ReadonlySet<string> = new Set(['ˈ', 'ˌ']);

/** Which phone inventory a label comes from. */
export type PhoneSet = 'espeak' | 'festival' | 'kokoro';

/** Thrown for a phone no table knows: the corpus must never carry a guessed label. */
export class UnmappedPhoneError extends Error {
  constructor(
    readonly phoneSet: PhoneSet,
    readonly phone: string,
  ) {
    super(
      `no viseme for ${phoneSet} phone "${phone}": add it to ${TABLE_NAMES[phoneSet]} in packages/engine-lab/corpus/visemes.ts`,
    );
    this.name = 'UnmappedPhoneError';
  }
}

const TABLE_NAMES: Record<PhoneSet, string> = {
  espeak: 'ESPEAK_VISEMES',
  festival: 'FESTIVAL_VISEMES',
  kokoro: 'KOKORO_VISEMES',
};

const TABLES: Record<PhoneSet, Readonly<Record<string, Viseme>>> = {
  espeak: ESPEAK_VISEMES,
  festival: FESTIVAL_VISEMES,
  kokoro: KOKORO_VISEMES,
};

/** The viseme of one phone; throws {@link UnmappedPhoneError} for an unknown phone. */
export function visemeOf(phoneSet: PhoneSet, phone: string): Viseme {
  const table = TABLES[phoneSet];
  const viseme = Object.hasOwn(table, phone) ? table[phone] : undefined;
  if (viseme === undefined) throw new UnmappedPhoneError(phoneSet, phone);
  return viseme;
}

/** espeak-ng stops whose event marks the release (onset moved back to the closure). */
export const ESPEAK_STOPS: ReadonlySet<string> = new Set([
  'p',
  'b',
  't',
  'd',
  'k',
  'g',
  'tS',
  'dZ',
  't#',
  't[',
  't2',
  'd#',
]);
