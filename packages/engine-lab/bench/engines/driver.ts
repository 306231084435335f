/**
 * This engine: `createDriver` from @avatar-drive/engine at default settings; class = argmax of the 15
 * viseme weights, jaw = ARKit jawOpen, lips = ARKit mouthClose.
 */
import { pathToFileURL } from 'node:url';
import { ARKIT_INDEX, type DriveFrame } from '@avatar-drive/core';
import type { FramePrediction } from '../metrics.js';
import type { BenchEngine, BenchStream } from './types.js';

/** The driver contract of @avatar-drive/engine (issue 3). */
export interface Driver {
  push(pcm: Int16Array): DriveFrame[];
  end(): DriveFrame[];
  reset(): void;
}
export type CreateDriver = (options: { sampleRate: number; lookaheadMs?: number; seed?: number }) => Driver;

const JAW = ARKIT_INDEX.jawOpen;
const CLOSE = ARKIT_INDEX.mouthClose;

/** Turns one drive frame into the bench's prediction. */
export function predictionOf(frame: DriveFrame): FramePrediction {
  let best = 0;
  for (let i = 1; i < frame.visemes.length; i++) if (frame.visemes[i]! > frame.visemes[best]!) best = i;
  return { viseme: best, jawOpen: frame.expression[JAW]!, mouthClose: frame.expression[CLOSE]! };
}

/** Wraps a `createDriver` as a bench row. */
export function createDriverEngine(createDriver: CreateDriver, name = 'avatar-drive engine'): BenchEngine {
  return {
    name,
    note: 'createDriver({ sampleRate }) defaults; class argmax visemes, jawOpen, mouthClose',
    async open(sampleRate) {
      const driver = createDriver({ sampleRate });
      let next = 0;
      const convert = (frames: DriveFrame[]): FramePrediction[] =>
        frames.map((f) => {
          if (f.index !== next) throw new Error(`driver emitted frame ${f.index}, expected ${next}`);
          next++;
          return predictionOf(f);
        });
      const stream: BenchStream = {
        push: (pcm) => convert(driver.push(pcm)),
        end: () => convert(driver.end()),
      };
      return stream;
    },
  };
}

/**
 * Loads createDriver from the engine's package (or from `modulePath`), or explains why it is not there.
 */
export async function loadCreateDriver(modulePath?: string): Promise<CreateDriver | string> {
  try {
    // resolved at run time so the bench still runs (without this row) where the engine is not built
    const entry = modulePath ? pathToFileURL(modulePath).href : '@avatar-drive/engine';
    const mod = (await import(entry)) as { createDriver?: CreateDriver };
    return typeof mod.createDriver === 'function' ? mod.createDriver : `${entry} exports no createDriver`;
  } catch (err) {
    return `${modulePath ?? '@avatar-drive/engine'} not loadable (${(err as Error).message.split('\n')[0]})`;
  }
}
