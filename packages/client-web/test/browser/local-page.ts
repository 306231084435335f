/**
 * Helpers of the local-mode browser test (local-mode.test.ts), on `window.lt`. The SDK under
 * test is not in here: the page imports the built standalone module (dist/browser), so the test
 * runs the artifact users load, lazy engine chunk and inline worker included.
 */
import type { LocalEngine, WebSocketLike } from '@avatar-drive/client-core';
import {
  animationToDriveFrames,
  DRIVE_FRAME_FIELDS,
  type DriveFrame,
  decodeMessage,
} from '@avatar-drive/core';

/** Frames seen per utterance id, each as its 87 values in FRAME_LAYOUT order. */
type FrameLog = Map<string, number[][]>;

function flatten(frame: DriveFrame): number[] {
  return DRIVE_FRAME_FIELDS.flatMap((field) => Array.from(frame[field]));
}

function note(log: FrameLog, id: string, frames: readonly DriveFrame[], ends: Set<string>, end: boolean) {
  const list = log.get(id) ?? [];
  for (const frame of frames) list.push(flatten(frame));
  log.set(id, list);
  if (end) ends.add(id);
}

/** A log of what reached the controller, and a way to wait for an utterance's last frames. */
function frameLog() {
  const frames: FrameLog = new Map();
  const ends = new Set<string>();
  return {
    frames,
    ends,
    note: (id: string, list: readonly DriveFrame[], end: boolean) => note(frames, id, list, ends, end),
    async ended(id: string, timeoutMs = 20_000): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      while (!ends.has(id)) {
        if (performance.now() > deadline) throw new Error(`no end for ${id}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    get(id: string): number[][] {
      return frames.get(id) ?? [];
    },
  };
}

type Log = ReturnType<typeof frameLog>;

/** A WebSocket factory whose sockets report every animation message to `log` (SDK mode). */
function tapWebSocket(log: Log): (url: string) => WebSocketLike {
  return (url) => {
    const ws = new WebSocket(url);
    const like: WebSocketLike = {
      get binaryType() {
        return ws.binaryType;
      },
      set binaryType(value: string) {
        ws.binaryType = value as BinaryType;
      },
      get readyState() {
        return ws.readyState;
      },
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      send: (data) => ws.send(data),
      close: (code, reason) => ws.close(code, reason),
    };
    ws.onopen = (event) => like.onopen?.(event);
    ws.onclose = (event) => like.onclose?.(event);
    ws.onerror = (event) => like.onerror?.(event);
    ws.onmessage = (event) => {
      if (event.data instanceof ArrayBuffer) {
        const message = decodeMessage(new Uint8Array(event.data), { isBinary: true });
        if (message.data.case === 'serverResponseAnimation') {
          const animation = message.data.value;
          log.note(animation.reqId, animationToDriveFrames(animation), animation.end);
        }
      }
      like.onmessage?.(event);
    };
    return like;
  };
}

/** Wraps a local engine so that every frame batch it gives the controller goes to `log` too. */
function tapEngine(engine: LocalEngine, log: Log): LocalEngine {
  return {
    open: (sampleRate, events) =>
      engine.open(sampleRate, {
        onFrames: (id, frames, end) => {
          log.note(id, frames, end);
          events.onFrames(id, frames, end);
        },
        onFailure: (error) => events.onFailure(error),
      }),
    push: (id, pcm, end) => engine.push(id, pcm, end),
    cancel: (id) => engine.cancel(id),
    close: () => engine.close(),
  };
}

interface MeasuredView {
  getMorphInfluence(name: string): number | undefined;
  readonly lastFrame: unknown;
  controller: { outputNode: AudioNode | undefined };
}

/**
 * The audio-to-animation offset, measured from outside the SDK. An AnalyserNode on the voice
 * output finds the audio-clock time the utterance's first loud sample is rendered (`onsetS`
 * into the utterance, known from its PCM), which places the utterance's start on the audio
 * clock; each animation frame, the heard instant (clock minus output latency) is then a known
 * time into the utterance. The jawOpen influence on the mesh says which instant is shown: the
 * utterance's jawOpen curve (`jaw`, one value per 40 ms frame, linear between frames as the
 * scheduler interpolates) is inverted near the heard instant, where the curve is steep enough to
 * give one answer. Offset = shown − heard (positive: the animation leads). Only animation
 * frames in which the view drew (its `lastFrame` changed; its callback runs before this one,
 * registered later) are read, so the mesh and the clock are of the same instant.
 */
function measureSync(
  view: MeasuredView,
  jaw: number[],
  onsetS: number,
  durationMs: number,
): Promise<{ offsetsMs: number[]; ticks: number; onsetFound: boolean; maxJaw: number }> {
  const node = view.controller.outputNode;
  if (!node) throw new Error('no audio output yet');
  const ctx = node.context as AudioContext;
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 32768;
  node.connect(analyser);
  const buffer = new Float32Array(analyser.fftSize);
  let onset: number | undefined;
  let scannedTo = 0;
  let ticks = 0;
  let maxJaw = 0;
  let lastFrame = view.lastFrame;
  const offsetsMs: number[] = [];
  const curveAt = (p: number) => {
    const k = Math.floor(p);
    if (k < 0 || k >= jaw.length) return undefined;
    const a = jaw[k]!;
    const b = jaw[Math.min(k + 1, jaw.length - 1)]!;
    return a + (b - a) * (p - k);
  };
  return new Promise((resolve) => {
    const started = performance.now();
    const tick = () => {
      ticks += 1;
      const now = ctx.currentTime;
      if (onset === undefined) {
        analyser.getFloatTimeDomainData(buffer);
        for (let i = 0; i < buffer.length; i++) {
          const t = now - (buffer.length - i) / ctx.sampleRate;
          if (t <= scannedTo) continue;
          if (Math.abs(buffer[i]!) > 0.02) {
            onset = t;
            break;
          }
        }
        scannedTo = now;
      }
      const shownJaw = view.getMorphInfluence('jawOpen') ?? 0;
      maxJaw = Math.max(maxJaw, shownJaw);
      const drawn = view.lastFrame !== lastFrame;
      lastFrame = view.lastFrame;
      if (onset !== undefined && drawn) {
        const heard = now - Math.max(0, ctx.outputLatency || 0) - (onset - onsetS);
        const p0 = heard * 25;
        // Solutions of curve(p) = shownJaw within ±2 frames, on segments steep enough (≥ 0.05 per frame).
        const solutions: number[] = [];
        for (let k = Math.floor(p0 - 2); k <= Math.ceil(p0 + 2); k++) {
          const a = curveAt(k);
          const b = curveAt(k + 1);
          if (a === undefined || b === undefined || Math.abs(b - a) < 0.05) continue;
          const f = (shownJaw - a) / (b - a);
          if (f >= 0 && f < 1) solutions.push(k + f);
        }
        if (solutions.length === 1 && shownJaw > 0.02) offsetsMs.push(((solutions[0]! - p0) / 25) * 1000);
      }
      if (performance.now() - started < durationMs) requestAnimationFrame(tick);
      else {
        node.disconnect(analyser);
        resolve({ offsetsMs, ticks, onsetFound: onset !== undefined, maxJaw });
      }
    };
    requestAnimationFrame(tick);
  });
}

function b64ToInt16(text: string): Int16Array {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Int16Array(bytes.buffer);
}

const lt = { frameLog, tapWebSocket, tapEngine, measureSync, b64ToInt16 };
(window as unknown as { lt: typeof lt }).lt = lt;
document.title = 'ready';
