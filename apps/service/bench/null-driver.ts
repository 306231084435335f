/**
 * A bench instrument, not an engine: `createDriver` with the engine's timing and frame layout but
 * no analysis — a neutral frame with the mouth open for every 40 ms of audio, emitted when the
 * real engine would emit it (its frame plus its lookahead), into recycled frames. Started with
 * `pnpm bench:service --engine-module <file URL of this module>`, it measures what the service
 * costs without the engine: WebSocket framing, protobuf, session logic and Node's sockets.
 */
import { createDriveFrame, type DriveFrame } from '@avatar-drive/core';
import type { Driver, DriverOptions } from '@avatar-drive/engine';

const FRAME_MS = 40;
const HOP_MS = 20;
const SPARE_FRAMES = 8;

export function createDriver(options: DriverOptions): Driver {
  const { sampleRate } = options;
  const lookaheadMs = Math.floor((options.lookaheadMs ?? 20) / HOP_MS) * HOP_MS;
  const frameSamples = (sampleRate * FRAME_MS) / 1000;
  const lookaheadSamples = (sampleRate * lookaheadMs) / 1000;
  const spare: DriveFrame[] = [];
  let samples = 0;
  let emitted = 0;

  const frame = (index: number): DriveFrame => {
    const f = spare.pop() ?? createDriveFrame(index);
    f.index = index;
    f.visemes.fill(0);
    f.visemes[1] = 1; // an open vowel: the encoder writes a frame with content
    return f;
  };
  const due = (upTo: number): DriveFrame[] => {
    const out: DriveFrame[] = [];
    while (emitted < upTo) out.push(frame(emitted++));
    return out;
  };

  return {
    sampleRate,
    lookaheadMs,
    latencyMs: FRAME_MS + lookaheadMs,
    backend: 'js',
    push(pcm) {
      samples += pcm.length;
      return due(Math.max(0, Math.floor((samples - lookaheadSamples) / frameSamples)));
    },
    end() {
      const frames = due(Math.ceil(samples / frameSamples));
      samples = 0;
      emitted = 0;
      return frames;
    },
    reset() {
      samples = 0;
      emitted = 0;
    },
    recycle(frames) {
      for (const f of frames) if (spare.length < SPARE_FRAMES) spare.push(f);
    },
    close() {},
  };
}
