/**
 * wlipsync 1.3.1 in Node: its own worklet processor script (dist/audio-processor.js, running the package's
 * wlipsync.wasm) in a fresh `vm` context per utterance, with its own WLipSyncAudioNode (volume and weight
 * smoothing), joined by synchronous message ports. Profile: bench/wlipsync-profile.json, calibrated by
 * bench/wlipsync-calibrate.ts. Node defaults (minVolume −2.5, maxVolume −1.5, smoothness 0.05, blockSize 512).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { int16ToFloat32, Resampler, VISEMES } from '@avatar-drive/core';
import { ACTIVITY_JAW, type FramePrediction, OPENNESS, SIL, visemeId } from '../metrics.js';
import { type WasmModule, wasmApi } from '../wasm.js';
import type { WlipsyncProfile } from '../wlipsync-calibrate.js';
import { FrameSchedule } from './frame-schedule.js';
import type { BenchEngine, BenchStream } from './types.js';
import {
  AudioWorkletProcessorShim,
  connectPorts,
  installWorkletGlobals,
  type PortShim,
} from './worklet-shim.js';

interface WlipsyncNode {
  port: PortShim;
  options: { processorOptions: unknown };
  volume: number;
  weights: Record<string, number>;
}
type WlipsyncNodeClass = new (ctx: unknown, profile: WlipsyncProfile, wasm: WasmModule) => WlipsyncNode;
interface WlipsyncProcessor {
  port: PortShim;
  inputBufferIndex: number;
  process(
    inputs: Float32Array[][],
    outputs: Float32Array[][],
    parameters: Record<string, Float32Array>,
  ): boolean;
}

/** Profile phoneme → viseme class. */
export const WLIPSYNC_CLASS: Readonly<Record<string, number>> = {
  A: visemeId('aa'),
  E: visemeId('E'),
  I: visemeId('I'),
  O: visemeId('O'),
  U: visemeId('U'),
  S: visemeId('SS'),
  sil: SIL,
};

/**
 * The rate wlipsync's worklet runs at in a browser: the AudioContext's (48 kHz on most devices), whatever
 * the source's rate. Fed other rates directly, its own downsampler gives rate-dependent features (an
 * interpolating path for non-integer ratios, a 1025-point radix-2 FFT at 22.05 kHz), and it does not
 * upsample below 16 kHz at all.
 */
export const CONTEXT_RATE = 48000;

/** The profile bench/wlipsync-calibrate.ts wrote. */
export const DEFAULT_PROFILE = fileURLToPath(new URL('../wlipsync-profile.json', import.meta.url));

/**
 * Loads the package's wasm, worklet script and node class, and a calibrated profile. `contextRate`: the
 * AudioContext rate audio is resampled to (default {@link CONTEXT_RATE}); `'native'` feeds each utterance
 * at its own rate (8 kHz still upsampled to 16 kHz, which wlipsync cannot do itself).
 */
export async function createWlipsyncEngine(
  options: { profilePath?: string; contextRate?: number | 'native' } = {},
): Promise<BenchEngine> {
  const profilePath = options.profilePath ?? DEFAULT_PROFILE;
  const contextRate = options.contextRate ?? CONTEXT_RATE;
  installWorkletGlobals();
  const require = createRequire(import.meta.url);
  const wasm = await wasmApi.compile(readFileSync(require.resolve('wlipsync/wlipsync.wasm')));
  const processorScript = new vm.Script(readFileSync(require.resolve('wlipsync/audio-processor.js'), 'utf8'));
  const { WLipSyncAudioNode } = (await import(
    pathToFileURL(require.resolve('wlipsync/wlipsync.js')).href
  )) as {
    WLipSyncAudioNode: WlipsyncNodeClass;
  };
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as WlipsyncProfile;
  for (const m of profile.mfccs) {
    if (!(m.name in WLIPSYNC_CLASS))
      throw new Error(`${profilePath}: phoneme "${m.name}" has no viseme mapping`);
  }
  return {
    name: contextRate === 'native' ? 'wlipsync 1.3.1 (native rates)' : 'wlipsync 1.3.1',
    note: `package worklet script (vm) + node class, profile calibrated on espeak-ng ${profile.calibration?.voices.join(', ') ?? '?'}; ${contextRate === 'native' ? 'fed at native rates, 8 kHz upsampled to 16 kHz' : `input resampled to a ${contextRate / 1000} kHz AudioContext rate as in a browser`}`,
    async open(sampleRate) {
      const rate = contextRate === 'native' ? Math.max(sampleRate, 16000) : contextRate;
      const node = new WLipSyncAudioNode({ sampleRate: rate }, profile, wasm);
      let Processor: (new (options: unknown) => WlipsyncProcessor) | undefined;
      const context = vm.createContext({
        AudioWorkletProcessor: AudioWorkletProcessorShim,
        registerProcessor: (_name: string, cls: typeof Processor) => {
          Processor = cls;
        },
        sampleRate: rate,
        currentTime: 0,
        WebAssembly: wasmApi,
      });
      processorScript.runInContext(context);
      if (!Processor) throw new Error('wlipsync audio-processor.js did not register a processor');
      const processor = new Processor(node.options);
      connectPorts(node.port, processor.port);
      // The processor instantiates its wasm asynchronously and drops audio until then, as in a browser.
      for (let i = 0; i < 100 && processor.inputBufferIndex === -1; i++)
        await new Promise((r) => setImmediate(r));
      if (processor.inputBufferIndex === -1) throw new Error('wlipsync processor did not initialise');
      return new WlipsyncStream(sampleRate, rate, processor, node, context);
    },
  };
}

class WlipsyncStream implements BenchStream {
  private readonly up: Resampler | null;
  overheadCpuSeconds = 0;
  private readonly schedule: FrameSchedule;
  private readonly parameters = { blockSize: new Float32Array([512]) };
  private readonly quantum = new Float32Array(128);
  private fill = 0;
  private processed = 0;

  constructor(
    inputRate: number,
    private readonly rate: number,
    private readonly processor: WlipsyncProcessor,
    private readonly node: WlipsyncNode,
    private readonly context: vm.Context,
  ) {
    this.schedule = new FrameSchedule(inputRate);
    this.up = rate !== inputRate ? new Resampler(inputRate, rate) : null;
  }

  push(pcm: Int16Array): FramePrediction[] {
    const f = int16ToFloat32(pcm);
    const t0 = this.up ? process.cpuUsage() : undefined;
    const samples = this.up ? this.up.push(f) : f;
    if (t0) {
      const dt = process.cpuUsage(t0);
      this.overheadCpuSeconds += (dt.user + dt.system) / 1e6;
    }
    const inputs = [[this.quantum]];
    for (let i = 0; i < samples.length; i++) {
      this.quantum[this.fill++] = samples[i]!;
      if (this.fill === this.quantum.length) {
        // the worklet stamps each message with the render quantum's start time
        this.context.currentTime = this.processed / this.rate;
        this.processor.process(inputs, [], this.parameters);
        this.processed += this.quantum.length;
        this.fill = 0;
      }
    }
    const out: FramePrediction[] = [];
    for (let due = this.schedule.advance(pcm.length); due > 0; due--) out.push(this.snapshot());
    return out;
  }

  end(): FramePrediction[] {
    return this.schedule.hasTail() ? [this.snapshot()] : [];
  }

  /**
   * As the package's example drives an avatar: each phoneme's shape at weight × volume. Class: the
   * phoneme with the largest weight, or silence when that shape is below the activity threshold. Jaw: the
   * shapes' openness-weighted sum. No lip-closure output.
   */
  private snapshot(): FramePrediction {
    let best = '';
    let bestW = -1;
    let jaw = 0;
    for (const [name, w] of Object.entries(this.node.weights)) {
      const shape = Math.max(0, w) * this.node.volume;
      jaw += shape * OPENNESS[VISEMES[WLIPSYNC_CLASS[name]!]!];
      if (w > bestW) {
        bestW = w;
        best = name;
      }
    }
    const shown = Math.max(0, bestW) * this.node.volume;
    return {
      viseme: shown <= ACTIVITY_JAW ? SIL : WLIPSYNC_CLASS[best]!,
      jawOpen: Math.min(1, jaw),
      mouthClose: Number.NaN,
    };
  }
}
