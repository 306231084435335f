/**
 * English sentences for synthesis, from two local sources: a template grammar filled with a
 * hand-written core vocabulary plus words from /usr/share/dict/words (Debian `wamerican`), and prose
 * sentences from the licence texts in /usr/share/common-licenses (Debian `base-files`).
 *
 * Train and dev never share a sentence: a sentence belongs to dev when hash32(normalised text) % 10
 * is 0, else to train, and each split only emits its own. Dictionary words are split the same way
 * (hash % 5 === 0 → dev-only words), so dev sentences also carry words training never heard.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash32, type Rng } from './rng.js';

export type Split = 'train' | 'dev';

const DICT_PATH = '/usr/share/dict/words';
const LICENSES_DIR = '/usr/share/common-licenses';

/** The split a sentence belongs to. */
export function splitOfText(text: string): Split {
  const norm = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return hash32(norm) % 10 === 0 ? 'dev' : 'train';
}

function splitOfWord(word: string): Split {
  return hash32(`w:${word.toLowerCase()}`) % 5 === 0 ? 'dev' : 'train';
}

// A small core vocabulary, so sentences stay grammatical and cover frequent English function words.
const NAMES = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Emma',
  'Frank',
  'Grace',
  'Henry',
  'Isabel',
  'Jack',
  'Kate',
  'Liam',
  'Maria',
  'Noah',
  'Olivia',
  'Peter',
  'Quinn',
  'Rosa',
  'Sam',
  'Tom',
  'Uma',
  'Victor',
  'Wendy',
  'Yusuf',
  'Zoe',
  'Marcus',
  'Priya',
  'Hiroshi',
  'Fatima',
  'George',
  'Lucy',
  'Oscar',
  'Bella',
  'Mohammed',
  'Ruth',
];
const NOUNS = [
  'book',
  'car',
  'door',
  'window',
  'table',
  'chair',
  'phone',
  'letter',
  'garden',
  'river',
  'bridge',
  'kitchen',
  'market',
  'ticket',
  'bottle',
  'jacket',
  'picture',
  'machine',
  'bicycle',
  'camera',
  'pencil',
  'basket',
  'blanket',
  'candle',
  'engine',
  'forest',
  'island',
  'mountain',
  'village',
  'station',
  'office',
  'doctor',
  'teacher',
  'farmer',
  'pilot',
  'singer',
  'baker',
  'driver',
  'neighbour',
  'student',
  'cat',
  'dog',
  'horse',
  'rabbit',
  'bird',
  'fish',
  'sheep',
  'apple',
  'orange',
  'potato',
  'tomato',
  'sandwich',
  'coffee',
  'water',
  'paper',
  'shoe',
  'watch',
  'wallet',
  'mirror',
  'pillow',
  'ladder',
  'hammer',
  'rope',
  'boat',
  'plane',
  'train',
  'bus',
  'road',
  'house',
  'room',
  'box',
  'bag',
  'cup',
  'plate',
  'spoon',
  'knife',
  'map',
  'song',
  'story',
  'question',
  'answer',
  'idea',
  'plan',
  'problem',
  'meeting',
  'party',
  'dinner',
  'breakfast',
  'puzzle',
  'journey',
  'message',
  'report',
  'budget',
  'weather',
  'music',
  'voice',
  'thumb',
];
const ADJECTIVES = [
  'big',
  'small',
  'old',
  'new',
  'red',
  'blue',
  'green',
  'yellow',
  'bright',
  'dark',
  'quiet',
  'loud',
  'heavy',
  'light',
  'warm',
  'cold',
  'wet',
  'dry',
  'empty',
  'full',
  'strange',
  'famous',
  'simple',
  'broken',
  'shiny',
  'soft',
  'rough',
  'smooth',
  'lovely',
  'ugly',
  'cheap',
  'expensive',
  'tiny',
  'huge',
  'brave',
  'careful',
  'lazy',
  'busy',
  'happy',
  'sad',
  'angry',
  'curious',
  'friendly',
  'polite',
  'sharp',
  'fresh',
  'sweet',
];
const VERBS: ReadonlyArray<readonly [string, string]> = [
  ['open', 'opened'],
  ['close', 'closed'],
  ['find', 'found'],
  ['lose', 'lost'],
  ['buy', 'bought'],
  ['sell', 'sold'],
  ['bring', 'brought'],
  ['carry', 'carried'],
  ['paint', 'painted'],
  ['clean', 'cleaned'],
  ['fix', 'fixed'],
  ['break', 'broke'],
  ['move', 'moved'],
  ['push', 'pushed'],
  ['pull', 'pulled'],
  ['watch', 'watched'],
  ['see', 'saw'],
  ['hear', 'heard'],
  ['touch', 'touched'],
  ['choose', 'chose'],
  ['keep', 'kept'],
  ['leave', 'left'],
  ['take', 'took'],
  ['give', 'gave'],
  ['send', 'sent'],
  ['read', 'read'],
  ['write', 'wrote'],
  ['draw', 'drew'],
  ['catch', 'caught'],
  ['throw', 'threw'],
  ['wash', 'washed'],
  ['cook', 'cooked'],
  ['measure', 'measured'],
  ['borrow', 'borrowed'],
  ['visit', 'visited'],
  ['describe', 'described'],
  ['forget', 'forgot'],
  ['remember', 'remembered'],
  ['hide', 'hid'],
  ['check', 'checked'],
  ['build', 'built'],
  ['share', 'shared'],
  ['judge', 'judged'],
  ['chase', 'chased'],
];
const PLACES = [
  'in the kitchen',
  'at the station',
  'near the river',
  'behind the house',
  'on the bus',
  'under the bridge',
  'in the garden',
  'at school',
  'by the window',
  'in the office',
  'at the market',
  'on the beach',
  'in the car park',
  'at the top of the hill',
  'next to the church',
  'inside the museum',
];
const TIMES = [
  'yesterday',
  'this morning',
  'last night',
  'on Monday',
  'every Friday',
  'before lunch',
  'after dinner',
  'at noon',
  'in the evening',
  'three weeks ago',
  'last summer',
  'tomorrow',
  'on Tuesday afternoon',
  'twice a week',
  'at half past seven',
  'in nineteen ninety eight',
  'right now',
  'later today',
];
const ADVERBS = ['very', 'rather', 'quite', 'really', 'almost', 'never', 'always', 'surely', 'probably'];
const PRONOUNS = ['he', 'she', 'we', 'they', 'I', 'you'];
const INTERJECTIONS = ['Oh', 'Well', 'Look', 'Hey', 'Wow', 'Honestly', 'Okay', 'Right', 'Hmm', 'Yes', 'No'];

function plural(noun: string): string {
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (noun === 'knife') return 'knives';
  if (noun === 'sheep' || noun === 'fish') return noun;
  return `${noun}s`;
}

/** Dictionary words grouped by a suffix that tells their part of speech. */
interface DictPools {
  nouns: string[];
  adjectives: string[];
  adverbs: string[];
  gerunds: string[];
  properNames: string[];
}

function loadDict(split: Split): DictPools {
  const pools: DictPools = { nouns: [], adjectives: [], adverbs: [], gerunds: [], properNames: [] };
  if (!existsSync(DICT_PATH)) {
    throw new Error(`${DICT_PATH} is missing: install the Debian package wamerican (bash scripts/setup.sh)`);
  }
  for (const word of readFileSync(DICT_PATH, 'utf8').split('\n')) {
    if (!/^[A-Za-z]{3,14}$/.test(word) || splitOfWord(word) !== split) continue;
    if (/^[A-Z][a-z]+$/.test(word)) {
      pools.properNames.push(word);
      continue;
    }
    if (!/^[a-z]+$/.test(word)) continue;
    if (/(tion|sion|ment|ness|ity|ism|ship|ance|ence|hood|ure|dom)$/.test(word)) pools.nouns.push(word);
    else if (/(ous|ful|ive|able|ible|ic|less|ish|ary)$/.test(word)) pools.adjectives.push(word);
    else if (/[^l]ly$/.test(word) && word.length > 5) pools.adverbs.push(word);
    else if (/ing$/.test(word) && word.length > 5) pools.gerunds.push(word);
  }
  return pools;
}

function loadProse(): string[] {
  if (!existsSync(LICENSES_DIR)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of readdirSync(LICENSES_DIR).sort()) {
    let text: string;
    try {
      text = readFileSync(join(LICENSES_DIR, name), 'utf8');
    } catch {
      continue; // directories and symlinks to them
    }
    const flat = text
      .replace(/\([^)]*\)/g, ' ')
      .replace(/["“”`_*<>[\]{}|]/g, ' ')
      .replace(/\s+/g, ' ');
    for (const raw of flat.split(/(?<=[.!?])\s+/)) {
      const s = raw.trim();
      if (!/^[A-Z][A-Za-z0-9 ,;:'-]+[.!?]$/.test(s)) continue;
      const words = s.split(' ').length;
      if (words < 5 || words > 24 || /https?|www|[0-9]{3,}/.test(s)) continue;
      if (/\b[A-Z]{2,}\s+[A-Z]{2,}\b/.test(s)) continue; // shouted headings and disclaimers
      if (!seen.has(s)) {
        seen.add(s);
        out.push(s);
      }
    }
  }
  return out;
}

/** Produces sentences of one split, deterministically for a given random stream. */
export class SentenceSource {
  private readonly dict: DictPools;
  private readonly prose: string[];

  constructor(readonly split: Split) {
    this.dict = loadDict(split);
    this.prose = loadProse().filter((s) => splitOfText(s) === split);
  }

  /** How many licence-prose sentences this split can draw on. */
  get proseCount(): number {
    return this.prose.length;
  }

  /** One sentence of this split (never one that belongs to the other split). */
  next(rng: Rng): string {
    // Choose the source first, so the split filter does not skew the mix towards prose.
    const useProse = this.prose.length > 0 && rng.next() < 0.15;
    for (let attempt = 0; attempt < 1000; attempt++) {
      const s = useProse ? rng.pick(this.prose) : this.fromTemplate(rng);
      if (splitOfText(s) === this.split) return s;
    }
    throw new Error(`SentenceSource(${this.split}): no sentence found in 1000 attempts`);
  }

  private fromTemplate(rng: Rng): string {
    const d = this.dict;
    const name = () =>
      rng.next() < 0.6 || d.properNames.length === 0 ? rng.pick(NAMES) : rng.pick(d.properNames);
    const noun = () => rng.pick(NOUNS);
    const adj = () =>
      rng.next() < 0.7 || d.adjectives.length === 0 ? rng.pick(ADJECTIVES) : rng.pick(d.adjectives);
    const dnoun = () => (d.nouns.length > 0 ? rng.pick(d.nouns) : rng.pick(NOUNS));
    const verb = () => rng.pick(VERBS);
    const num = () => String(rng.pick([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 24, 30, 47, 99, 100, 250]));
    const adv = () => (rng.next() < 0.5 || d.adverbs.length === 0 ? rng.pick(ADVERBS) : rng.pick(d.adverbs));
    const ger = () => (d.gerunds.length > 0 ? rng.pick(d.gerunds) : 'waiting');
    const templates: Array<() => string> = [
      () => `${name()} ${verb()[1]} the ${adj()} ${noun()} ${rng.pick(PLACES)}.`,
      () => `Did you ${verb()[0]} the ${noun()} ${rng.pick(TIMES)}?`,
      () =>
        `The ${noun()} was ${adv()} ${adj()}, so ${rng.pick(PRONOUNS)} ${verb()[1]} it ${rng.pick(TIMES)}.`,
      () => `Please ${verb()[0]} ${num()} ${plural(noun())} before ${rng.pick(TIMES)}.`,
      () => `${name()} said that the ${dnoun()} seemed ${adj()}.`,
      () => `Why would anyone ${verb()[0]} a ${adj()} ${noun()} ${rng.pick(PLACES)}?`,
      () => `I think ${ger()} is ${adv()} ${adj()}.`,
      () => `There are ${num()} ${plural(noun())} on the ${noun()}, and one of them is ${adj()}.`,
      () => `${rng.pick(INTERJECTIONS)}, the ${noun()} is ${adj()} again!`,
      () => `${name()} and ${name()} ${verb()[1]} a ${noun()} ${rng.pick(TIMES)}.`,
      () => `If ${rng.pick(PRONOUNS)} ${verb()[0]} the ${noun()}, the ${dnoun()} will be ${adj()}.`,
      () => `My ${noun()} is ${adj()}, but your ${noun()} is ${adv()} ${adj()}.`,
      () => `We talked about ${dnoun()} and ${dnoun()} for ${num()} minutes.`,
      () => `${rng.pick(INTERJECTIONS)}! ${name()} ${verb()[1]} my ${noun()}.`,
      () => `How many ${plural(noun())} did ${name()} ${verb()[0]} ${rng.pick(TIMES)}?`,
      () => `The ${adj()} ${noun()} from ${name()} arrived ${rng.pick(TIMES)}.`,
      () => `Nobody wanted to ${verb()[0]} the ${noun()}, because it was ${adj()}.`,
      () => `${name()} is ${ger()} ${rng.pick(PLACES)}.`,
      () => `Could you ${verb()[0]} it ${rng.pick(PLACES)}, please?`,
      () => `It costs ${num()} pounds and ${num()} pence.`,
      () => `The ${dnoun()} of the ${noun()} is ${adv()} ${adj()}.`,
      () =>
        `${name()} ${verb()[1]} it. Then ${rng.pick(PRONOUNS)} ${verb()[1]} the ${noun()} ${rng.pick(TIMES)}.`,
      () => `Yes.`,
      () => `No, thank you.`,
      () => `${name()}?`,
      () => {
        const a = adj();
        return `${a[0]!.toUpperCase()}${a.slice(1)} ${plural(noun())} make ${adj()} ${plural(noun())}.`;
      },
    ];
    // The one-word fillers are rare; everything else equally likely.
    const pick =
      rng.next() < 0.04
        ? rng.int(22, 24)
        : rng.weighted(templates.map((_, i) => [i, i >= 22 && i <= 24 ? 0 : 1] as const));
    return templates[pick]!();
  }
}
