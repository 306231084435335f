/**
 * Audio sources of the demo, all ending as 16 kHz mono s16 PCM (what the session is configured
 * for): bundled WAV samples, any file the browser can decode, and the microphone.
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

// Copies each render quantum of the first input's first channel to the main thread.
const WORKLET = `registerProcessor('demo-mic-tap', class extends AudioWorkletProcessor {
  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length) {
      const n = channels[0].length, mono = new Float32Array(n);
      for (const c of channels) for (let i = 0; i < n; i++) mono[i] += c[i] / channels.length;
      this.port.postMessage(mono, [mono.buffer]);
    }
    return true;
  }
});`;

/** A running microphone capture; `stop()` flushes the resampler and releases the device. */
export interface MicCapture {
  readonly sourceRate: number;
  stop(): void;
}

/**
 * Captures the microphone and calls `onChunk` with ~100 ms of {@link SAMPLE_RATE} s16 PCM at a
 * time (the last call, from `stop()`, carries the rest).
 */
export async function startMicrophone(
  onChunk: (pcm: Int16Array, last: boolean) => void,
): Promise<MicCapture> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  const context = new AudioContext();
  const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  const source = context.createMediaStreamSource(stream);
  const tap = new AudioWorkletNode(context, 'demo-mic-tap');
  const resampler = new Resampler(context.sampleRate, SAMPLE_RATE);
  let pending: Float32Array[] = [];
  let pendingLength = 0;
  const drain = (extra: Float32Array, last: boolean) => {
    if (extra.length) {
      pending.push(extra);
      pendingLength += extra.length;
    }
    if (!last && pendingLength < SAMPLE_RATE / 10) return;
    const joined = new Float32Array(pendingLength);
    let at = 0;
    for (const part of pending) {
      joined.set(part, at);
      at += part.length;
    }
    pending = [];
    pendingLength = 0;
    onChunk(float32ToInt16(joined), last);
  };
  let stopped = false;
  tap.port.onmessage = (event: MessageEvent<Float32Array>) => {
    if (!stopped) drain(resampler.push(event.data), false);
  };
  source.connect(tap);
  return {
    sourceRate: context.sampleRate,
    stop() {
      if (stopped) return;
      stopped = true;
      tap.port.onmessage = null;
      source.disconnect();
      for (const track of stream.getTracks()) track.stop();
      void context.close();
      drain(resampler.flush(), true);
    },
  };
}
