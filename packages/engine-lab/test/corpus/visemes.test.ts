import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { synthesizeEspeak } from '../../corpus/espeak.js';
import { createRng } from '../../corpus/rng.js';
import { SentenceSource } from '../../corpus/texts.js';
import {
  ESPEAK_MODIFIERS,
  ESPEAK_VISEMES,
  FESTIVAL_VISEMES,
  UnmappedPhoneError,
  VISEMES,
  visemeOf,
} from '../../corpus/visemes.js';
import { DEV_DIALECTS, TRAIN_DIALECTS } from '../../corpus/voices.js';

describe('viseme tables', () => {
  it('use the rig order of @avatar-drive/core', () => {
    const rig = readFileSync(new URL('../../../core/src/rig.ts', import.meta.url), 'utf8');
    const block = /export const VISEMES = \[([^\]]*)\]/.exec(rig)?.[1];
    expect(block).toBeDefined();
    const coreOrder = [...block!.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(coreOrder).toEqual([...VISEMES]);
  });

  it('map every phone to one of the 15 visemes', () => {
    for (const v of [...Object.values(ESPEAK_VISEMES), ...Object.values(FESTIVAL_VISEMES)]) {
      expect(VISEMES).toContain(v);
    }
  });

  it('cover every viseme with some phone', () => {
    expect(new Set(Object.values(ESPEAK_VISEMES))).toEqual(new Set(VISEMES));
    expect(new Set(Object.values(FESTIVAL_VISEMES))).toEqual(new Set(VISEMES));
  });

  it('throw loudly for an unknown phone', () => {
    expect(() => visemeOf('espeak', 'Q9')).toThrow(UnmappedPhoneError);
    expect(() => visemeOf('festival', 'toString')).toThrow(/FESTIVAL_VISEMES/);
  });

  it("cover Festival's whole radio phoneset", () => {
    const path = '/usr/share/festival/radio_phones.scm';
    expect(existsSync(path), 'festival is not installed: run bash scripts/setup.sh').toBe(true);
    const text = readFileSync(path, 'utf8');
    // a phone definition: name, then 8 feature values, the first being vc (+ or -)
    const phones = [...text.matchAll(/^\s*\(([a-z#]+)\s+[-+](?:\s+[-+0-9a-z]+){7}\s*\)/gm)].map((m) => m[1]!);
    expect(phones.length).toBeGreaterThan(40);
    const missing = phones.filter((p) => !Object.hasOwn(FESTIVAL_VISEMES, p));
    expect(missing).toEqual([]);
  });

  describe('espeak-ng phones in use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-visemes-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('are all mapped, in every English dialect the corpus uses', async () => {
      const rich =
        'The quick brown fox jumps over the lazy dog. Judge the measure of your thoughts with vision and ' +
        'pleasure. Who would hear a bird sing in the church near the hotel? Our cow was bought by a boy ' +
        'with a toy, and the poor tourist ate bottles of water, butter and little cookies. Loch Ness, ' +
        'huge fjord, thirty three tomatoes, bath, dance, merry, nurse, north, force, cure, cloth, palm, ' +
        'start, square, happy, letter, button, rhythm, hour, fire, idea, youth, singing, azure, whatever.';
      const sentences: string[] = [];
      for (const split of ['train', 'dev'] as const) {
        const source = new SentenceSource(split);
        const rng = createRng(`visemes-${split}`);
        for (let i = 0; i < 8; i++) sentences.push(source.next(rng));
      }
      const text = `${rich} ${sentences.join(' ')}`;
      const dialects = [...TRAIN_DIALECTS, ...DEV_DIALECTS];
      const results = await synthesizeEspeak(
        dialects.map((d) => ({
          out: join(dir, `${d}.wav`),
          voice: d,
          rate: 450,
          pitch: 50,
          range: 50,
          text,
        })),
      );
      const unmapped = new Set<string>();
      for (const r of results) {
        for (const e of r.events) {
          if (!Object.hasOwn(ESPEAK_VISEMES, e.phone) && !ESPEAK_MODIFIERS.has(e.phone))
            unmapped.add(e.phone);
        }
        expect(r.events.length).toBeGreaterThan(300);
      }
      expect([...unmapped]).toEqual([]);
    }, 60_000);
  });
});
