import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { synthesizeEspeak } from '../../corpus/espeak.js';
import {
  type PhoneSpan,
  padSpans,
  shiftStopOnsets,
  spansFromEspeakEvents,
  spansFromFestivalSegs,
  toLabels,
} from '../../corpus/labels.js';
import { readWav } from '../../corpus/wav.js';

const RATE = 16000;
const ms = (v: number) => Math.round((v * RATE) / 1000);

/** Loud vowel-like tone in [from, to) ms, silence elsewhere. */
function tone(x: Float32Array, fromMs: number, toMs: number, amp = 0.3): void {
  for (let i = ms(fromMs); i < ms(toMs); i++) x[i] = amp * Math.sin((2 * Math.PI * 180 * i) / RATE);
}

describe('stop onset shift', () => {
  it('moves a stop from its release back to the start of the silent closure', () => {
    const x = new Float32Array(ms(400));
    tone(x, 0, 100); // vowel
    // 100–160 ms: closure silence; 160–175 ms: burst; then the next vowel
    for (let i = ms(160); i < ms(175); i++) x[i] = 0.2 * Math.sin(i * 1.7);
    tone(x, 175, 400);
    const spans: PhoneSpan[] = [
      { start: 0, end: ms(160), phone: 'a' },
      { start: ms(160), end: ms(175), phone: 'p' },
      { start: ms(175), end: ms(400), phone: 'a' },
    ];
    const shifted = shiftStopOnsets(spans, x, RATE);
    expect(shifted[1]!.phone).toBe('p');
    expect(Math.abs(shifted[1]!.start - ms(100))).toBeLessThanOrEqual(ms(1));
    expect(shifted[0]!.end).toBe(shifted[1]!.start);
    expect(shifted[2]).toEqual(spans[2]);
  });

  it('leaves a stop alone when no silence precedes it (voice bar: the event is already the closure)', () => {
    const x = new Float32Array(ms(300));
    tone(x, 0, 300);
    const spans: PhoneSpan[] = [
      { start: 0, end: ms(120), phone: 'a' },
      { start: ms(120), end: ms(180), phone: 'b' },
      { start: ms(180), end: ms(300), phone: 'a' },
    ];
    expect(shiftStopOnsets(spans, x, RATE)).toEqual(spans);
  });

  it('caps the closure at 80 ms after a pause', () => {
    const x = new Float32Array(ms(600));
    tone(x, 300, 600);
    const spans: PhoneSpan[] = [
      { start: 0, end: ms(300), phone: '_' },
      { start: ms(300), end: ms(320), phone: 't' },
      { start: ms(320), end: ms(600), phone: 'a' },
    ];
    const shifted = shiftStopOnsets(spans, x, RATE);
    expect(shifted[1]!.start).toBe(ms(220));
    expect(shifted[0]!.end).toBe(ms(220));
  });

  describe('on real espeak-ng output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-labels-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('puts every unvoiced stop onset at a quiet stretch before its release', async () => {
      const out = join(dir, 'stops.wav');
      const [r] = await synthesizeEspeak([
        { out, voice: 'en-us', rate: 170, pitch: 50, range: 50, text: 'Keep a cup, take a pit.' },
      ]);
      const audio = readWav(out);
      const raw = spansFromEspeakEvents(r!.events, audio.samples.length);
      const shifted = shiftStopOnsets(raw, audio.samples, audio.sampleRate);
      const stops = shifted.filter((s) => ['p', 't', 'k'].includes(s.phone));
      expect(stops.length).toBeGreaterThanOrEqual(6);
      let moved = 0;
      for (const s of stops) {
        const release = raw.find((o) => o.phone === s.phone && o.start >= s.start && o.start < s.end)!;
        expect(release).toBeDefined();
        if (release.start - s.start > audio.sampleRate * 0.01) moved++;
        // the closure between the new onset and the release is near-silent
        let peak = 0;
        for (let i = s.start; i < release.start - audio.sampleRate * 0.002; i++) {
          peak = Math.max(peak, Math.abs(audio.samples[i]!));
        }
        expect(peak).toBeLessThan(0.05);
      }
      expect(moved).toBeGreaterThanOrEqual(stops.length - 1);
    });
  });
});

describe('label spans', () => {
  it('builds espeak spans that cover the audio and merge modifier events', () => {
    const spans = spansFromEspeakEvents(
      [
        { sample: 100, phone: 'h' },
        { sample: 200, phone: 'i' },
        { sample: 260, phone: ';' },
        { sample: 300, phone: '_:' },
      ],
      400,
    );
    expect(spans).toEqual([
      { start: 0, end: 100, phone: '_' },
      { start: 100, end: 200, phone: 'h' },
      { start: 200, end: 300, phone: 'i' },
      { start: 300, end: 400, phone: '_:' },
    ]);
  });

  it('parses festival segs and pads the tail with a pause', () => {
    const segs = 'EST_File xxx\n#\n0.1000 100 pau\n0.2000 100 hh\n0.3500 100 ay\n';
    expect(spansFromFestivalSegs(segs, 1000, 400)).toEqual([
      { start: 0, end: 100, phone: 'pau' },
      { start: 100, end: 200, phone: 'hh' },
      { start: 200, end: 350, phone: 'ay' },
      { start: 350, end: 400, phone: 'pau' },
    ]);
  });

  it('labels are contiguous seconds from 0 to the end, with merged silences', () => {
    const spans = padSpans(
      [
        { start: 0, end: 50, phone: '_' },
        { start: 50, end: 120, phone: 'm' },
        { start: 120, end: 200, phone: '_:' },
      ],
      'espeak',
      30,
      260,
    );
    const labels = toLabels(spans, 'espeak', 1000, 260);
    expect(labels).toEqual([
      { start: 0, end: 0.08, phone: '_', viseme: 'sil' },
      { start: 0.08, end: 0.15, phone: 'm', viseme: 'PP' },
      { start: 0.15, end: 0.26, phone: '_', viseme: 'sil' },
    ]);
  });
});
