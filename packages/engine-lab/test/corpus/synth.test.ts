import { describe, expect, it } from 'vitest';
import { parseHelperOutput } from '../../corpus/espeak.js';
import { festivalScript } from '../../corpus/festival.js';

describe('festival batch script', () => {
  it('selects each voice once, sets stretch and F0 per job, and escapes the text', () => {
    const script = festivalScript([
      {
        out: '/t/a.wav',
        voice: 'kal_diphone',
        stretch: 1.2,
        f0Mean: 110,
        f0Std: 20,
        text: 'Say "hi" \\ bye',
      },
      { out: '/t/b.wav', voice: 'kal_diphone', stretch: 0.9, f0Mean: 95, f0Std: 12, text: 'Two' },
    ]);
    expect(script.match(/\(voice_kal_diphone\)/g)).toHaveLength(1);
    expect(script).toContain("(Parameter.set 'Duration_Stretch 1.200)");
    expect(script).toContain('(target_f0_mean 95.0) (target_f0_std 12.0)');
    expect(script).toContain('(Utterance Text "Say \\"hi\\" \\\\ bye")');
    expect(script).toContain('(utt.save.segs utt1 "/t/b.wav.segs")');
  });
});

describe('espeak-align output', () => {
  const jobs = [{ out: '/t/x.wav', voice: 'en', rate: 175, pitch: 50, range: 50, text: 'hi' }];

  it('parses jobs, phoneme events and lengths', () => {
    const out = 'JOB /t/x.wav 22050\nPH 264 h\nPH 1384 aI\nPH 5000 _:\nEND 5200\n';
    expect(parseHelperOutput(out, jobs)).toEqual([
      {
        out: '/t/x.wav',
        sampleRate: 22050,
        totalSamples: 5200,
        events: [
          { sample: 264, phone: 'h' },
          { sample: 1384, phone: 'aI' },
          { sample: 5000, phone: '_:' },
        ],
      },
    ]);
  });

  it('fails loudly on a failed or missing job', () => {
    expect(() => parseHelperOutput('ERR /t/x.wav unknown voice zz\n', jobs)).toThrow(/unknown voice/);
    expect(() => parseHelperOutput('', jobs)).toThrow(/no result/);
  });
});
