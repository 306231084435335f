/**
 * A stand-in for @avatar-drive/engine's createDriver while the engine is not on main yet: one
 * frame per 40 ms of audio, jawOpen from the frame's RMS level.
 */
import { ARKIT_INDEX, createDriveFrame, type DriveFrame } from '@avatar-drive/core';
import type { DriveDriver, DriverOptions } from '../../src/engine/engine-pool.js';

export function createDriver(options: DriverOptions): DriveDriver {
  const perFrame = options.sampleRate / 25;
  let pending: number[] = [];
  let index = 0;
  const frame = (samples: number[]): DriveFrame => {
    const f = createDriveFrame(index++);
    let sum = 0;
    for (const s of samples) sum += s * s;
    f.expression[ARKIT_INDEX.jawOpen] = Math.min(1, Math.sqrt(sum / Math.max(1, samples.length)) / 8000);
    return f;
  };
  return {
    push(pcm) {
      for (const s of pcm) pending.push(s);
      const out: DriveFrame[] = [];
      while (pending.length >= perFrame) {
        out.push(frame(pending.slice(0, perFrame)));
        pending = pending.slice(perFrame);
      }
      return out;
    },
    end() {
      const out = pending.length > 0 ? [frame(pending)] : [];
      pending = [];
      return out;
    },
    reset() {
      pending = [];
      index = 0;
    },
  };
}
