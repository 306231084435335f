/**
 * Audio sources of the demo, all ending as 16 kHz mono s16 PCM (what the session is configured
 * for): bundled WAV samples and any file the browser can decode. (The microphone goes through
 * client-web's `feedAudio`, in main.ts.)
 */
import { float32ToInt16, mixPlanarToMono, parseWav, Resampler, wavToSendablePcm } from '@avatar-drive/core';

/** The session's sample rate. */
export const SAMPLE_RATE = 16000;

/** A bundled sample sentence (public/samples/index.json, generated with espeak-ng). */
export interface Sample {
  id: string;
  text: string;
  url: string;
}

/** Lists the bundled samples. */
export async function listSamples(): Promise<Sample[]> {
  const response = await fetch('samples/index.json');
  if (!response.ok) throw new Error(`samples/index.json: HTTP ${response.status}`);
  return (await response.json()) as Sample[];
}

const sampleCache = new Map<string, Int16Array>();

/** A sample's PCM at {@link SAMPLE_RATE} (core's WAV reader and converters). */
export async function loadSample(sample: Sample): Promise<Int16Array> {
  const cached = sampleCache.get(sample.id);
  if (cached) return cached;
  const response = await fetch(sample.url);
  if (!response.ok) throw new Error(`${sample.url}: HTTP ${response.status}`);
  const pcm = wavToSendablePcm(parseWav(new Uint8Array(await response.arrayBuffer())), SAMPLE_RATE).samples;
  sampleCache.set(sample.id, pcm);
  return pcm;
}

let decoder: AudioContext | undefined;

/**
 * Decodes any audio file the browser understands, then converts it with core: planar channels
 * downmixed to mono, resampled from the decoder's rate to {@link SAMPLE_RATE}, floats to s16.
 */
export async function decodeFile(
  file: Blob,
): Promise<{ pcm: Int16Array; sourceRate: number; channels: number }> {
  decoder ??= new AudioContext();
  const buffer = await decoder.decodeAudioData(await file.arrayBuffer());
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i));
  const mono = mixPlanarToMono(channels);
  const resampler = new Resampler(buffer.sampleRate, SAMPLE_RATE);
  const head = resampler.push(mono);
  const tail = resampler.flush();
  const all = new Float32Array(head.length + tail.length);
  all.set(head);
  all.set(tail, head.length);
  return { pcm: float32ToInt16(all), sourceRate: buffer.sampleRate, channels: buffer.numberOfChannels };
}
