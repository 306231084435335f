/**
 * The plan of a corpus: for each utterance, what to synthesise (engine, voice, speed, pitch, text)
 * and how to degrade it (padding, reverb, noise, telephone, gain, output rate). A plan is a pure
 * function of (split, count, seed).
 */
import { createRng, type Rng } from './rng.js';
import { SentenceSource, type Split } from './texts.js';
import { espeakVoices, FESTIVAL_VOICES, KOKORO_VOICES } from './voices.js';

export const OUTPUT_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

/** Noise kinds. */
export type NoiseKind = 'white' | 'pink' | 'babble';

/** A telephone channel: band edges in Hz and whether µ-law quantisation is applied. */
export interface TelephoneSpec {
  low: number;
  high: number;
  muLaw: boolean;
}

/** How one utterance is degraded after synthesis (applied in this order). */
export interface AugmentSpec {
  /** Silence added before/after the speech, seconds. */
  padLead: number;
  /**
   * Speech from sample 0, as TTS output arrives: the synthesiser's own leading silence is cut (up to
   * the first phone's label) and `padLead` is 0. Absent means false.
   */
  fromStart?: boolean;
  padTail: number;
  /** Reverb RT60 in seconds and wet level, or null. */
  reverb: { rt60: number; wetDb: number } | null;
  /**
   * Telephone channel (band-pass, 8 kHz, optional µ-law), or null; forces sampleRate 8000. Dev uses
   * the standard 300–3400 Hz G.711 line; train varies the band edges and codec around it.
   */
  telephone: TelephoneSpec | null;
  /**
   * Additive noise at an SNR (dB, re active speech power), or, for noise-only utterances, at an
   * absolute RMS level in dBFS; or null.
   */
  noise: { kind: NoiseKind; snrDb: number } | { kind: NoiseKind; levelDb: number } | null;
  /** Gain in dB (then limited to peak 0.98). */
  gainDb: number;
  /** Output sample rate. */
  sampleRate: number;
}

export type SynthSpec =
  | { engine: 'espeak'; voice: string; rate: number; pitch: number; range: number }
  | {
      engine: 'festival';
      voice: 'kal_diphone' | 'ked_diphone';
      stretch: number;
      f0Mean: number;
      f0Std: number;
    }
  /** flite's clustergen voices (dev only: a synthesiser the model never trains on). */
  | { engine: 'flite'; voice: 'awb'; stretch: number; f0Mean: number }
  /** Kokoro-82M, a neural TTS (voices split between train and dev; see voices.ts). */
  | { engine: 'kokoro'; voice: string; speed: number }
  /** No speech at all: `seconds` of background noise only, labelled silence throughout. */
  | { engine: 'none'; seconds: number }
  /** A real person's recording (dev `human` condition, corpus/human.ts), force-aligned by pocketsphinx. */
  | { engine: 'human'; recording: string; aligner: string };

/** One planned utterance. */
export interface UtterancePlan {
  id: string;
  split: Split;
  text: string;
  synth: SynthSpec;
  augment: AugmentSpec;
  /** Short tag for grouping results: clean, snr20, snr10, tel, reverb, or a train mix like `reverb+noise`. */
  condition: string;
  /** Seed of this utterance's own random stream (noise, impulse response). */
  seed: number;
}

function synthFor(split: Split, rng: Rng): SynthSpec {
  if (rng.next() < 0.25) {
    return {
      engine: 'festival',
      voice: rng.pick(FESTIVAL_VOICES[split]),
      stretch: rng.uniform(0.8, 1.35),
      f0Mean: rng.uniform(80, 150),
      f0Std: rng.uniform(8, 28),
    };
  }
  const slow = rng.next() < 0.15;
  return {
    engine: 'espeak',
    voice: rng.pick(espeakVoices(split)),
    rate: slow ? rng.uniform(100, 140) : rng.uniform(140, 270),
    pitch: rng.uniform(20, 80),
    range: rng.uniform(15, 90),
  };
}

function noiseKind(rng: Rng): NoiseKind {
  return rng.weighted<NoiseKind>([
    ['white', 1],
    ['pink', 1.5],
    ['babble', 1.5],
  ]);
}

const TRAIN_RATES: ReadonlyArray<readonly [number, number]> = [
  [8000, 1],
  [16000, 3],
  [22050, 2],
  [24000, 2],
  [32000, 1],
  [44100, 1],
  [48000, 2],
];

/** Share of train utterances whose speech starts at sample 0. */
const FROM_START_SHARE = 0.2;

function trainAugment(rng: Rng): { augment: AugmentSpec; condition: string } {
  const kind = rng.weighted([
    ['clean', 3],
    ['noise', 3],
    ['reverb', 1.5],
    ['tel', 1.5],
  ] as const);
  const augment: AugmentSpec = {
    padLead: rng.uniform(0.05, 0.8),
    padTail: rng.uniform(0.05, 0.8),
    // A fifth start with speech at sample 0 (what a voice agent's TTS sends), so the model learns
    // the trackers' state at a cold start.
    fromStart: rng.next() < FROM_START_SHARE,
    reverb: null,
    telephone: null,
    noise: null,
    gainDb: rng.uniform(-24, 3),
    sampleRate: rng.weighted(TRAIN_RATES),
  };
  const tags: string[] = [];
  if (kind === 'reverb') {
    augment.reverb = { rt60: rng.uniform(0.2, 0.9), wetDb: rng.uniform(-10, -2) };
    tags.push('reverb');
  }
  if (kind === 'tel') {
    augment.telephone = {
      low: rng.uniform(200, 400),
      high: rng.uniform(3000, 3700),
      muLaw: rng.next() < 0.5,
    };
    augment.sampleRate = 8000;
    tags.push('tel');
  }
  const noisy = kind === 'noise' || ((kind === 'reverb' || kind === 'tel') && rng.next() < 0.5);
  if (noisy) {
    augment.noise = { kind: noiseKind(rng), snrDb: rng.uniform(kind === 'noise' ? 0 : 8, 30) };
    tags.push('noise');
  }
  if (augment.fromStart) augment.padLead = 0;
  return { augment, condition: tags.length === 0 ? 'clean' : tags.join('+') };
}

/**
 * Dev conditions cycle through a fixed grid so every condition and rate is well represented:
 * clean, clean speech from sample 0 (`start0`: TTS output into a fresh session), 20 dB SNR, 10 dB
 * SNR, telephone (8 kHz), mild reverb and clean speech of another synthesiser (`othersynth`), each
 * (except telephone) at every one of the 7 input rates.
 */
const DEV_CONDITIONS = [
  'clean',
  'snr20',
  'snr10',
  'tel',
  'start0',
  'snr20',
  'snr10',
  'reverb',
  'othersynth',
] as const;

/**
 * The `othersynth` dev condition: clean speech from flite's clustergen voices (statistical parametric
 * voice of the CMU ARCTIC speaker awb), a synthesiser the model never trains on, at a random speed
 * and F0. The other ARCTIC speakers (rms, slt, …) are reserved for the independent evaluation; the
 * draw that once picked between awb and rms is kept so the rest of the dev plan stays the same.
 */
function otherSynth(rng: Rng): SynthSpec {
  rng.next();
  const voice = 'awb';
  return { engine: 'flite', voice, stretch: rng.uniform(0.85, 1.3), f0Mean: rng.uniform(85, 135) };
}

function devAugment(index: number, rng: Rng): { augment: AugmentSpec; condition: string } {
  const condition = DEV_CONDITIONS[index % DEV_CONDITIONS.length]!;
  const rateIndex = Math.floor(index / DEV_CONDITIONS.length) % OUTPUT_RATES.length;
  const fromStart = condition === 'start0';
  const padLead = rng.uniform(0.1, 0.6);
  const augment: AugmentSpec = {
    padLead: fromStart ? 0 : padLead,
    padTail: rng.uniform(0.1, 0.6),
    ...(fromStart ? { fromStart } : {}),
    reverb: condition === 'reverb' ? { rt60: rng.uniform(0.25, 0.6), wetDb: rng.uniform(-9, -4) } : null,
    telephone: condition === 'tel' ? { low: 300, high: 3400, muLaw: true } : null,
    noise:
      condition === 'snr20'
        ? { kind: noiseKind(rng), snrDb: 20 }
        : condition === 'snr10'
          ? { kind: noiseKind(rng), snrDb: 10 }
          : null,
    gainDb: rng.uniform(-18, 0),
    sampleRate: condition === 'tel' ? 8000 : OUTPUT_RATES[(rateIndex + index) % OUTPUT_RATES.length]!,
  };
  return { augment, condition };
}

/**
 * A train utterance with no speech: white, pink or babble background at −55…−20 dBFS, sometimes
 * through a telephone line, so the model learns that background alone keeps the mouth shut.
 */
function noiseOnly(rng: Rng): { synth: SynthSpec; augment: AugmentSpec; condition: string } {
  const tel = rng.next() < 0.2;
  return {
    synth: { engine: 'none', seconds: rng.uniform(1, 4) },
    augment: {
      padLead: 0,
      padTail: 0,
      reverb: null,
      telephone: tel
        ? { low: rng.uniform(200, 400), high: rng.uniform(3000, 3700), muLaw: rng.next() < 0.5 }
        : null,
      noise: { kind: noiseKind(rng), levelDb: rng.uniform(-55, -20) },
      gainDb: 0,
      sampleRate: tel ? 8000 : rng.weighted(TRAIN_RATES),
    },
    condition: 'noise-only',
  };
}

/** Share of train utterances that are background noise only. */
const NOISE_ONLY_SHARE = 0.04;

/**
 * A Kokoro voice of the split at a speaking rate of 0.85–1.15 × its own: natural neural-TTS speech,
 * the kind voice agents send.
 */
function neuralSynth(split: Split, rng: Rng): SynthSpec {
  return { engine: 'kokoro', voice: rng.pick(KOKORO_VOICES[split]), speed: rng.uniform(0.85, 1.15) };
}

/**
 * The `neural` dev condition: clean Kokoro speech of a dev-only voice, padded like `clean`, spread
 * evenly over the 7 input rates.
 */
function neuralDevAugment(index: number, rng: Rng): { augment: AugmentSpec; condition: string } {
  return {
    augment: {
      padLead: rng.uniform(0.1, 0.6),
      padTail: rng.uniform(0.1, 0.6),
      reverb: null,
      telephone: null,
      noise: null,
      gainDb: rng.uniform(-18, 0),
      sampleRate: OUTPUT_RATES[index % OUTPUT_RATES.length]!,
    },
    condition: 'neural',
  };
}

/** Options of {@link planCorpus}. */
export interface PlanOptions {
  /**
   * Utterances of Kokoro neural voices planned after the `count` others (ids go on from `count`, so
   * the first `count` do not depend on it). Dev: condition `neural`, dev-only voices, clean; train:
   * train voices under the usual train augmentation.
   */
  neural?: number;
}

/** Plans `count` utterances of a split (plus `options.neural` neural-voice ones after them). */
export function planCorpus(
  split: Split,
  count: number,
  seed: number,
  options: PlanOptions = {},
): UtterancePlan[] {
  const root = createRng(`${split}:${seed}`);
  const texts = new SentenceSource(split);
  const plans: UtterancePlan[] = [];
  for (let i = 0; i < count; i++) {
    const rng = root.fork(i);
    if (split === 'train' && rng.fork('noise-only').next() < NOISE_ONLY_SHARE) {
      plans.push({
        id: `${split}-${String(i).padStart(5, '0')}`,
        split,
        text: '',
        ...noiseOnly(rng.fork('aug')),
        seed: rng.fork('seed').int(0, 0x7fffffff),
      });
      continue;
    }
    const text = texts.next(rng.fork('text'));
    const { augment, condition } =
      split === 'dev' ? devAugment(i, rng.fork('aug')) : trainAugment(rng.fork('aug'));
    const synth =
      condition === 'othersynth' ? otherSynth(rng.fork('flite')) : synthFor(split, rng.fork('synth'));
    plans.push({
      id: `${split}-${String(i).padStart(5, '0')}`,
      split,
      text,
      synth,
      augment,
      condition,
      seed: rng.fork('seed').int(0, 0x7fffffff),
    });
  }
  // Neural voices draw from their own random stream and their own text sequence, so adding them
  // leaves every utterance above byte-identical.
  const neuralRoot = createRng(`${split}:${seed}:neural`);
  const neuralTexts = new SentenceSource(split);
  for (let j = 0; j < (options.neural ?? 0); j++) {
    const rng = neuralRoot.fork(j);
    const { augment, condition } =
      split === 'dev' ? neuralDevAugment(j, rng.fork('aug')) : trainAugment(rng.fork('aug'));
    plans.push({
      id: `${split}-${String(count + j).padStart(5, '0')}`,
      split,
      text: neuralTexts.next(rng.fork('text')),
      synth: neuralSynth(split, rng.fork('synth')),
      augment,
      condition,
      seed: rng.fork('seed').int(0, 0x7fffffff),
    });
  }
  return plans;
}

/** The audio as rendered: no padding, reverb, line, noise or gain; only the output rate. */
export function unaugmented(sampleRate: number): AugmentSpec {
  return { padLead: 0, padTail: 0, reverb: null, telephone: null, noise: null, gainDb: 0, sampleRate };
}

/** Plans the small bank of utterances babble noise is made of (texts and voices of the same split). */
export function planBabbleBank(split: Split, seed: number, size = 12): UtterancePlan[] {
  const root = createRng(`babble:${split}:${seed}`);
  const texts = new SentenceSource(split);
  const voices = espeakVoices(split);
  return Array.from({ length: size }, (_, i) => {
    const rng = root.fork(i);
    return {
      id: `babble-${i}`,
      split,
      text: `${texts.next(rng)} ${texts.next(rng)}`,
      synth: {
        engine: 'espeak',
        voice: rng.pick(voices),
        rate: rng.uniform(150, 220),
        pitch: rng.uniform(20, 80),
        range: 50,
      },
      augment: unaugmented(22050),
      condition: 'clean',
      seed: i,
    };
  });
}
