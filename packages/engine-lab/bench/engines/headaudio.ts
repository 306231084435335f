/**
 * @met4citizen/headaudio 0.1.0 in Node: its own AudioWorkletProcessor (HeadWorklet → Processor: polyphase
 * downsampling to 16 kHz, MFCC, VAD gate, Mahalanobis classifier over the shipped model-en-mixed.bin) and
 * its own AudioWorkletNode subclass (HeadAudio: viseme easing in `update(dt)`), joined by synchronous
 * message ports instead of a browser's audio thread. Default parameters; no silence calibration (the
 * package leaves it to the app and it needs seconds of room tone, which an utterance does not have).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { int16ToFloat32, Resampler, VISEMES, type Viseme } from '@avatar-drive/core';
import { type FramePrediction, OPENNESS, SIL, visemeId } from '../metrics.js';
import { FrameSchedule } from './frame-schedule.js';
import type { BenchEngine, BenchStream } from './types.js';
import { connectPorts, installWorkletGlobals, type PortShim, QuantumFeeder } from './worklet-shim.js';

interface HeadWorkletInstance {
  port: PortShim;
  process(
    inputs: Float32Array[][],
    outputs: Float32Array[][],
    parameters: Record<string, Float32Array>,
  ): boolean;
}
interface HeadWorkletClass {
  new (options: Record<string, unknown>): HeadWorkletInstance;
  parameterDescriptors: { name: string; defaultValue: number }[];
}
interface HeadAudioInstance {
  port: PortShim;
  visemeNames: string[];
  visemeMaxs: number[];
  visemeActive: number;
  onvalue: ((key: string, value: number) => void) | null;
  loadModel(url: string, reset?: boolean): Promise<void>;
  update(dt: number): void;
}
type HeadAudioClass = new (ctx: unknown, options?: Record<string, unknown>) => HeadAudioInstance;

/** Lowest input rate HeadAudio's polyphase downsampler handles (it only downsamples to 16 kHz). */
const MIN_RATE = 16000;

/** Loads the package's node and worklet classes and its shipped model. */
export async function createHeadAudioEngine(): Promise<BenchEngine> {
  installWorkletGlobals();
  const require = createRequire(import.meta.url);
  const moduleUrl = (p: string) => pathToFileURL(require.resolve(`@met4citizen/headaudio/${p}`)).href;
  const { HeadWorklet } = (await import(moduleUrl('modules/headworklet.mjs'))) as {
    HeadWorklet: HeadWorkletClass;
  };
  const { HeadAudio } = (await import(moduleUrl('modules/headaudio.mjs'))) as { HeadAudio: HeadAudioClass };
  // The node fetches its model by URL; Node's fetch takes data: URLs, so hand it the shipped file that way.
  const modelBytes = readFileSync(require.resolve('@met4citizen/headaudio/dist/model-en-mixed.bin'));
  const modelUrl = `data:application/octet-stream;base64,${modelBytes.toString('base64')}`;
  const parameters = Object.fromEntries(
    HeadWorklet.parameterDescriptors.map((d) => [d.name, new Float32Array([d.defaultValue])]),
  );

  return {
    name: 'headaudio 0.1.0',
    note: 'package worklet + node classes in Node (worklet shim), shipped model-en-mixed.bin, defaults; native rates, 8 kHz upsampled to 16 kHz',
    async open(sampleRate) {
      const rate = Math.max(MIN_RATE, sampleRate);
      (globalThis as Record<string, unknown>).sampleRate = rate; // the worklet reads the global scope's rate
      const worklet = new HeadWorklet({ processorOptions: {}, parameterData: {} });
      const node = new HeadAudio({ sampleRate: rate });
      connectPorts(node.port, worklet.port);
      await node.loadModel(modelUrl);
      return new HeadAudioStream(sampleRate, rate, worklet, node, parameters);
    },
  };
}

const ID_OF_OCULUS = (name: string): number => visemeId(name.replace(/^viseme_/, '') as Viseme);

class HeadAudioStream implements BenchStream {
  private readonly feeder: QuantumFeeder;
  private readonly up: Resampler | null;
  overheadCpuSeconds = 0;
  private readonly weights = new Map<string, number>();
  private readonly schedule: FrameSchedule;

  constructor(
    inputRate: number,
    rate: number,
    worklet: HeadWorkletInstance,
    private readonly node: HeadAudioInstance,
    parameters: Record<string, Float32Array>,
  ) {
    this.schedule = new FrameSchedule(inputRate);
    this.up = rate !== inputRate ? new Resampler(inputRate, rate) : null;
    node.onvalue = (key, value) => this.weights.set(key, value);
    const input: Float32Array[][] = [[new Float32Array(0)]];
    this.feeder = new QuantumFeeder((quantum) => {
      input[0]![0] = quantum;
      worklet.process(input, [], parameters);
    });
  }

  push(pcm: Int16Array): FramePrediction[] {
    const f = int16ToFloat32(pcm);
    const t0 = this.up ? process.cpuUsage() : undefined;
    const input = this.up ? this.up.push(f) : f;
    if (t0) {
      const dt = process.cpuUsage(t0);
      this.overheadCpuSeconds += (dt.user + dt.system) / 1e6;
    }
    this.feeder.push(input);
    // The app calls update(dt) from its animation loop; here once per pushed chunk, with the chunk's duration.
    this.node.update(this.schedule.durationMs(pcm.length));
    const out: FramePrediction[] = [];
    for (let due = this.schedule.advance(pcm.length); due > 0; due--) out.push(this.snapshot());
    return out;
  }

  end(): FramePrediction[] {
    return this.schedule.hasTail() ? [this.snapshot()] : [];
  }

  /**
   * Class: the node's current detected viseme (`visemeActive`, −1 = silence). Jaw: its eased Oculus
   * viseme weights, each divided by the node's per-viseme maximum, weighted by the bench's openness
   * table. Lip closure: the PP weight over its maximum.
   */
  private snapshot(): FramePrediction {
    const n = this.node;
    let jaw = 0;
    let close = 0;
    n.visemeNames.forEach((name, i) => {
      const w = (this.weights.get(name) ?? 0) / n.visemeMaxs[i]!;
      const id = ID_OF_OCULUS(name);
      jaw += w * OPENNESS[VISEMES[id]!];
      if (VISEMES[id] === 'PP') close = w;
    });
    const active = n.visemeActive;
    return {
      viseme: active < 0 ? SIL : ID_OF_OCULUS(n.visemeNames[active]!),
      jawOpen: Math.min(1, jaw),
      mouthClose: close,
    };
  }
}
