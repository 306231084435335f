/**
 * From one synthesised utterance to one corpus entry: labels (with stop onsets moved to the
 * closure for espeak-ng), padding, reverb, telephone channel or resampling, noise, gain.
 */
import {
  addNoise,
  applyGain,
  babbleNoise,
  limitPeak,
  pinkNoise,
  power,
  resample,
  reverb,
  telephone,
  whiteNoise,
} from './augment.js';
import { type KokoroToken, spansFromKokoroTokens } from './kokoro.js';
import {
  type PhoneEvent,
  type PhoneLabel,
  type PhoneSpan,
  padSpans,
  shiftStopOnsets,
  spansFromEspeakEvents,
  spansFromFestivalSegs,
  toLabels,
} from './labels.js';
import type { NoiseKind, UtterancePlan } from './plan.js';
import { createRng, type Rng } from './rng.js';
import type { MonoAudio } from './wav.js';

/** What a synthesiser produced for one utterance. */
export type SynthOutput =
  | { engine: 'espeak'; audio: MonoAudio; events: PhoneEvent[] }
  | { engine: 'festival'; audio: MonoAudio; segs: string }
  | { engine: 'kokoro'; audio: MonoAudio; tokens: KokoroToken[] }
  | { engine: 'none'; audio: MonoAudio };

/** The JSON written next to each `<id>.wav` (see corpus/README.md). */
export interface CorpusEntry {
  id: string;
  sampleRate: number;
  voice: string;
  text: string;
  condition: string;
  split: 'train' | 'dev';
  phones: PhoneLabel[];
  /** Extra detail: synthesis parameters and the augmentation applied. */
  synth: UtterancePlan['synth'];
  augment: UtterancePlan['augment'];
  duration: number;
}

/** Clean speech other utterances' babble is cut from, resampled per rate on demand. */
export class BabbleBank {
  private readonly byRate = new Map<number, Float32Array[]>();
  constructor(
    private readonly sources: readonly Float32Array[],
    private readonly sourceRate: number,
  ) {}
  at(rate: number): Float32Array[] {
    let list = this.byRate.get(rate);
    if (!list) {
      list = this.sources.map((s) => resample(s, this.sourceRate, rate));
      this.byRate.set(rate, list);
    }
    return list;
  }
}

function makeNoise(
  kind: NoiseKind,
  length: number,
  rate: number,
  rng: Rng,
  babble: BabbleBank | undefined,
): Float32Array {
  if (kind === 'white') return whiteNoise(length, rng);
  if (kind === 'pink') return pinkNoise(length, rng);
  if (!babble) throw new Error('babble noise requested without a babble bank');
  return babbleNoise(length, babble.at(rate), rate, rng, rng.int(3, 7));
}

/** Renders one utterance; returns the final audio and its JSON entry. */
function isPause(phone: string): boolean {
  return phone === '_' || phone === 'pau';
}

export function renderUtterance(
  plan: UtterancePlan,
  synth: SynthOutput,
  babble: BabbleBank | undefined,
): { audio: MonoAudio; entry: CorpusEntry } {
  const rng = createRng(plan.seed);
  const { sampleRate: sr0, samples: raw } = synth.audio;
  const phoneSet = synth.engine === 'festival' ? 'festival' : synth.engine === 'kokoro' ? 'kokoro' : 'espeak';
  let spans: PhoneSpan[];
  if (synth.engine === 'espeak') {
    spans = shiftStopOnsets(spansFromEspeakEvents(synth.events, raw.length), raw, sr0);
  } else if (synth.engine === 'festival') {
    spans = spansFromFestivalSegs(synth.segs, sr0, raw.length);
  } else if (synth.engine === 'kokoro') {
    spans = spansFromKokoroTokens(synth.tokens, raw);
  } else {
    spans = [{ start: 0, end: raw.length, phone: '_' }];
  }
  if (synth.engine !== 'none' && !spans.some((s) => !isPause(s.phone))) {
    throw new Error(`${plan.id}: synthesis produced no phones for "${plan.text}"`);
  }

  const a = plan.augment;
  let voiced = raw;
  if (a.fromStart) {
    // Speech from sample 0: cut the synthesiser's leading silence up to the first phone's label.
    const cut = spans[0] && isPause(spans[0].phone) ? spans[0].end : 0;
    voiced = raw.subarray(cut);
    spans = spans
      .filter((s) => s.end > cut)
      .map((s) => ({ ...s, start: Math.max(0, s.start - cut), end: s.end - cut }));
  }
  const lead = a.fromStart ? 0 : Math.round(a.padLead * sr0);
  const tail = Math.round(a.padTail * sr0);
  let x: Float32Array = new Float32Array(lead + voiced.length + tail);
  x.set(voiced, lead);
  spans = padSpans(spans, phoneSet, lead, x.length);
  const labels = toLabels(spans, phoneSet, sr0, x.length);

  if (a.reverb) x = reverb(x, sr0, a.reverb.rt60, rng.fork('rir'), a.reverb.wetDb);
  const mixNoise = (signal: Float32Array, rate: number): Float32Array => {
    if (!a.noise) return signal;
    const noise = makeNoise(a.noise.kind, signal.length, rate, rng.fork('noise'), babble);
    if ('snrDb' in a.noise) return addNoise(signal, noise, a.noise.snrDb, rate);
    // noise-only: an absolute background level
    const level = 10 ** (a.noise.levelDb / 20) / Math.sqrt(power(noise) || 1);
    return signal.map((v, i) => v + level * noise[i]!);
  };
  let rate = sr0;
  if (a.telephone) {
    // Noise enters before the channel, as room noise does on a phone call.
    x = telephone(mixNoise(x, sr0), sr0, a.telephone).samples;
    rate = 8000;
  } else {
    // Otherwise after resampling, so that it fills the whole band of the output rate.
    x = mixNoise(resample(x, sr0, a.sampleRate), a.sampleRate);
    rate = a.sampleRate;
  }
  x = limitPeak(applyGain(x, a.gainDb), 0.98);

  const duration = x.length / rate;
  const last = labels[labels.length - 1]!;
  last.end = duration;
  if (last.start >= last.end) throw new Error(`${plan.id}: label/audio length mismatch after resampling`);
  const spec = plan.synth;
  const voice =
    spec.engine === 'none'
      ? 'none'
      : `${spec.engine}:${spec.engine === 'human' ? spec.recording : spec.voice}`;
  return {
    audio: { sampleRate: rate, samples: x },
    entry: {
      id: plan.id,
      sampleRate: rate,
      voice,
      text: plan.text,
      condition: plan.condition,
      split: plan.split,
      phones: labels,
      synth: plan.synth,
      augment: plan.augment,
      duration,
    },
  };
}
