/**
 * A stand-in for @avatar-drive/engine's createDriver while the engine is not on main yet: one
 * frame per 40 ms of audio, jawOpen from the frame's RMS level.
 */
import { ARKIT_INDEX, createDriveFrame, type DriveFrame } from '@avatar-drive/core';
import type { DriveDriver, DriverOptions } from '../../src/engine-pool/engine-pool.js';

export function createDriver(options: DriverOptions): DriveDriver {
  const perFrame = options.sampleRate / 25;
  let filled = 0;
  let energy = 0;
  let index = 0;
  const frame = (): DriveFrame => {
    const f = createDriveFrame(index++);
    f.expression[ARKIT_INDEX.jawOpen] = Math.min(1, Math.sqrt(energy / Math.max(1, filled)) / 8000);
    filled = 0;
    energy = 0;
    return f;
  };
  return {
    push(pcm) {
      // Test hook: a chunk starting with two -32768 samples kills the thread running the driver.
      if (pcm.length >= 2 && pcm[0] === -32768 && pcm[1] === -32768) process.exit(3);
      const out: DriveFrame[] = [];
      for (let i = 0; i < pcm.length; i++) {
        const s = pcm[i]!;
        energy += s * s;
        if (++filled === perFrame) out.push(frame());
      }
      return out;
    },
    end() {
      return filled > 0 ? [frame()] : [];
    },
    reset() {
      filled = 0;
      energy = 0;
      index = 0;
    },
  };
}
