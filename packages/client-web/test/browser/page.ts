/**
 * The browser-test page: exposes client-web (built from source) and measuring helpers on
 * `window.ad` for the tests to drive through `page.evaluate`.
 */

import { RelayClient } from '@avatar-drive/client-core';
import * as core from '@avatar-drive/core';
import * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import * as sdk from '../../src/index.js';
import * as probe from './avatar-probe.js';

type Controller = sdk.AvatarController;

/** Every callback a controller made, in order, with nesting depth (must stay 1). */
function record(controller: Controller): string[] {
  const events: string[] = [];
  let depth = 0;
  const wrap =
    (kind: string) =>
    (value: unknown): void => {
      depth += 1;
      const text = value instanceof Error ? `${(value as sdk.AvatarError).code}` : String(value);
      events.push(depth > 1 ? `NESTED:${kind}:${text}` : `${kind}:${text}`);
      depth -= 1;
    };
  controller.onConnectionState = wrap('connection');
  controller.onConversationState = wrap('conversation');
  controller.onError = wrap('error');
  return events;
}

/**
 * A small glTF avatar built here (a head with ARKit jawOpen/mouthFunnel/mouthClose and blink
 * targets) for tests that run without the service's avatars.
 */
async function makeTestAvatar(id = 'test-head'): Promise<sdk.Avatar> {
  const geometry = new THREE.SphereGeometry(0.1, 32, 24);
  const base = geometry.attributes.position!;
  const target = (fn: (x: number, y: number, z: number) => [number, number, number]) => {
    const out = new Float32Array(base.count * 3);
    for (let i = 0; i < base.count; i++) {
      const [dx, dy, dz] = fn(base.getX(i), base.getY(i), base.getZ(i));
      out.set([dx, dy, dz], i * 3);
    }
    return new THREE.Float32BufferAttribute(out, 3);
  };
  geometry.morphAttributes.position = [
    target((_x, y, z) => (y < -0.02 && z > 0 ? [0, -0.04, 0] : [0, 0, 0])),
    target((x, y, z) => (y < 0 && z > 0.05 ? [-x * 0.3, 0, 0.02] : [0, 0, 0])),
    target((_x, y, z) => (Math.abs(y + 0.03) < 0.02 && z > 0 ? [0, 0.01, 0] : [0, 0, 0])),
    target((x, y, z) => (x > 0 && y > 0.02 && z > 0 ? [0, -0.01, 0] : [0, 0, 0])),
    target((x, y, z) => (x < 0 && y > 0.02 && z > 0 ? [0, -0.01, 0] : [0, 0, 0])),
  ];
  geometry.morphTargetsRelative = true;
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0xd9a58a, roughness: 0.6 }));
  mesh.name = 'Head';
  mesh.updateMorphTargets();
  mesh.morphTargetDictionary = {
    jawOpen: 0,
    mouthFunnel: 1,
    mouthClose: 2,
    eyeBlinkLeft: 3,
    eyeBlinkRight: 4,
  };
  mesh.morphTargetInfluences = [0, 0, 0, 0, 0];
  const scene = new THREE.Scene();
  scene.add(mesh);
  const glb = (await new GLTFExporter().parseAsync(scene, { binary: true })) as ArrayBuffer;
  const manifest = {
    id,
    name: 'Test head',
    rig: 'arkit-52',
    assets: [{ kind: 'model', name: 'avatar.glb', url: 'memory:avatar.glb', size: glb.byteLength }],
  };
  return new sdk.Avatar(manifest, new Map([['avatar.glb', glb]]), 0);
}

/**
 * Measures the audio-to-animation offset from outside the SDK. An AnalyserNode on the voice
 * output finds the audio-clock time each burst's first sample is rendered; every animation
 * frame, the jawOpen influence actually applied to the mesh is read. While jawOpen ramps 0 → 1
 * over `rampFrames` frames from a burst's start, its value tells which instant of the utterance
 * the screen shows (`rampFrames · jaw / 25` s after the burst's start); the audio being heard is
 * `heard − onset` s after it. The difference is the offset (positive: animation ahead).
 */
function measureSync(
  view: sdk.AvatarView,
  durationMs: number,
  rampFrames: number,
): Promise<{
  offsetsMs: number[];
  burstOf: number[];
  onsets: number;
  ticks: number;
  outputLatencyMs: number;
}> {
  const node = view.controller.outputNode;
  if (!node) throw new Error('no audio output yet');
  const ctx = node.context as AudioContext;
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 32768; // 0.68 s at 48 kHz: covers the gap between slow animation frames
  node.connect(analyser);
  const buffer = new Float32Array(analyser.fftSize);
  const onsets: number[] = [];
  const offsetsMs: number[] = [];
  const burstOf: number[] = [];
  let lastLoud = -1;
  let scannedTo = 0;
  let ticks = 0;
  return new Promise((resolve) => {
    const started = performance.now();
    // `frameStart` is the rAF timestamp, the same for every callback of one frame: the view chose
    // the frame it drew at about that instant, by the audio clock then. This callback runs after
    // the view's, so the audio has moved on by however long the view took to draw (on software GL
    // under load, tens of ms); that time is taken off below, so the check compares the pose with
    // the audio heard when the pose was chosen, not with the audio heard after it was drawn.
    const tick = (frameStart: number) => {
      ticks += 1;
      const now = ctx.currentTime;
      const drawingS = Math.max(0, performance.now() - frameStart) / 1000;
      analyser.getFloatTimeDomainData(buffer);
      // The analyser holds the last fftSize samples rendered, ending at `now`.
      for (let i = 0; i < buffer.length; i++) {
        const t = now - (buffer.length - i) / ctx.sampleRate;
        if (t <= scannedTo) continue;
        if (Math.abs(buffer[i]!) > 0.05) {
          if (t - lastLoud > 0.1) onsets.push(t);
          lastLoud = t;
        }
      }
      scannedTo = now;
      const heard = now - drawingS - Math.max(0, ctx.outputLatency || 0);
      const jaw = view.getMorphInfluence('jawOpen') ?? 0;
      const onset = onsets.filter((a) => a <= heard).at(-1);
      if (onset !== undefined && jaw > 0.05 && jaw < 0.95 && heard - onset < (rampFrames + 2) / 25) {
        offsetsMs.push(((rampFrames * jaw) / 25 - (heard - onset)) * 1000);
        burstOf.push(onsets.indexOf(onset));
      }
      if (performance.now() - started < durationMs) requestAnimationFrame(tick);
      else {
        node.disconnect(analyser);
        resolve({
          offsetsMs,
          burstOf,
          onsets: onsets.length,
          ticks,
          outputLatencyMs: (ctx.outputLatency || 0) * 1000,
        });
      }
    };
    requestAnimationFrame(tick);
  });
}

function b64(bytes: string): Uint8Array {
  const bin = atob(bytes);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const pcm = {
  /** Mono s16 PCM: silence with 440 Hz bursts of `burstS` seconds starting at each of `starts`. */
  bursts(sampleRate: number, seconds: number, starts: number[], burstS: number): Int16Array {
    const out = new Int16Array(Math.round(sampleRate * seconds));
    for (const s of starts) {
      const a = Math.round(s * sampleRate);
      const b = Math.min(out.length, a + Math.round(burstS * sampleRate));
      for (let i = a; i < b; i++)
        out[i] = Math.round(16000 * Math.sin((2 * Math.PI * 440 * (i - a)) / sampleRate));
    }
    return out;
  },
};

const ad = { ...core, ...sdk, sdk, record, makeTestAvatar, measureSync, b64, pcm, THREE, RelayClient, probe };
(window as unknown as { ad: typeof ad }).ad = ad;
document.title = 'ready';
