/**
 * The bundled sample (assets/hello.wav, espeak-ng, 16 kHz mono s16) as PCM at the SDK's rate,
 * read from the app bundle with expo-asset and expo-file-system.
 */
import { parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';
import { Asset } from 'expo-asset';
import { File } from 'expo-file-system';

export async function loadSample(sampleRate: number): Promise<Int16Array> {
  const asset = Asset.fromModule(require('./assets/hello.wav'));
  await asset.downloadAsync();
  if (!asset.localUri) throw new Error('The sample WAV is missing from the app bundle.');
  const wav = parseWav(await new File(asset.localUri).bytes());
  return resample(wavToMonoInt16(wav), wav.sampleRate, sampleRate);
}

/** Sends `pcm` to the controller as one utterance of 100 ms chunks, the last with end = true. */
export function speak(
  controller: { send(pcm: Int16Array, end: boolean): unknown },
  pcm: Int16Array,
  sampleRate: number,
): void {
  const chunk = sampleRate / 10;
  for (let at = 0; at < pcm.length; at += chunk) {
    controller.send(pcm.subarray(at, at + chunk), at + chunk >= pcm.length);
  }
}
