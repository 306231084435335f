/**
 * Festival diphone synthesis (kal_diphone and ked_diphone, 16 kHz) with segment times, driven by a
 * generated Scheme script: one festival process per batch.
 */
import { writeFileSync } from 'node:fs';
import { runHelper } from './run-helper.js';

/** Festival voices the corpus uses (Debian festvox-kallpc16k and festvox-kdlpc16k). */
export type FestivalVoice = 'kal_diphone' | 'ked_diphone';

/** One synthesis job for Festival. */
export interface FestivalJob {
  /** Output WAV path; segments go to `<wav>.segs`. */
  out: string;
  voice: FestivalVoice;
  /** Duration_Stretch: >1 is slower. */
  stretch: number;
  /** Target F0 mean (Hz) and standard deviation for the LR intonation model. */
  f0Mean: number;
  f0Std: number;
  text: string;
}

function schemeString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n\t]+/g, ' ')}"`;
}

/**
 * The Scheme for a batch. The voice function resets Duration_Stretch and int_lr_params, so both are
 * set after selecting the voice, per job. int_lr_params maps the model's F0 distribution (mean 170,
 * std 34, as the voices ship it) onto the target speaker's.
 */
export function festivalScript(jobs: readonly FestivalJob[]): string {
  const lines: string[] = [];
  let voice: FestivalVoice | undefined;
  for (const j of jobs) {
    if (j.voice !== voice) {
      lines.push(`(voice_${j.voice})`);
      voice = j.voice;
    }
    lines.push(
      `(Parameter.set 'Duration_Stretch ${j.stretch.toFixed(3)})`,
      `(set! int_lr_params '((target_f0_mean ${j.f0Mean.toFixed(1)}) (target_f0_std ${j.f0Std.toFixed(1)}) (model_f0_mean 170) (model_f0_std 34)))`,
      `(set! utt1 (utt.synth (Utterance Text ${schemeString(j.text)})))`,
      `(utt.save.wave utt1 ${schemeString(j.out)} 'riff)`,
      `(utt.save.segs utt1 ${schemeString(`${j.out}.segs`)})`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Synthesises a batch with one `festival --batch` process; resolves when every WAV is written. */
export async function synthesizeFestival(jobs: readonly FestivalJob[], scriptPath: string): Promise<void> {
  writeFileSync(scriptPath, festivalScript(jobs));
  const { code, stdout, stderr } = await runHelper('festival', 'festival', ['--batch', scriptPath], {
    hint: 'install it with bash scripts/setup.sh',
  });
  const output = stdout + stderr;
  if (code !== 0 || /SIOD ERROR|error:/i.test(output)) {
    throw new Error(`festival failed (exit ${code}) on ${scriptPath}: ${output.trim().slice(0, 500)}`);
  }
}
