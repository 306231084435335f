/**
 * The react-native-web test page: the package's source rendered with react-dom, `react-native`
 * resolved to react-native-web, expo-gl and react-native-audio-api through their own web
 * implementations. Exposes mounting and measuring helpers on `window.ad` for the test to drive
 * through `page.evaluate`.
 */

import * as core from '@avatar-drive/core';
import { createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AnalyserNode } from 'react-native-audio-api';
import * as sdk from '../../src/index.js';
import { harnessStats } from './expo-file-system.web.js';

type Handle = sdk.AvatarViewHandle;

let root: Root | undefined;
const events: string[] = [];
let depth = 0;

/** Appends every callback, in order, with a marker when one is delivered inside another. */
function note(kind: string, value: unknown): void {
  depth += 1;
  events.push(depth > 1 ? `NESTED:${kind}:${value}` : `${kind}:${value}`);
  depth -= 1;
}

/** Mounts `<AvatarView>` for `avatar`; resolves with its ref once the first frame is drawn. */
async function mount(avatar: sdk.Avatar, props: Partial<sdk.AvatarViewProps> = {}): Promise<Handle> {
  const ref = createRef<Handle>();
  const container = document.getElementById('root')!;
  root ??= createRoot(container);
  const firstFrame = new Promise<void>((resolve) => {
    root!.render(
      <sdk.AvatarView
        ref={ref}
        avatar={avatar}
        style={{ width: 320, height: 320 }}
        options={{
          antialias: false,
          environmentLighting: false,
          preserveDrawingBuffer: true,
          background: '#dfe4ea',
        }}
        onFirstRendering={() => {
          note('view', 'firstRendering');
          resolve();
        }}
        {...props}
      />,
    );
  });
  await firstFrame;
  const handle = ref.current!;
  const c = handle.controller;
  c.onConnectionState = (state, failure) => note('connection', failure ? `${state}:${failure.code}` : state);
  c.onConversationState = (state) => note('conversation', state);
  c.onError = (error) => note('error', error.code);
  return handle;
}

/** Unmounts the view (the component decides whether that releases it). */
async function unmount(): Promise<void> {
  root?.render(null);
  await new Promise((r) => setTimeout(r, 50));
}

/**
 * Listens to the controller's voice through react-native-audio-api's own AnalyserNode (its web
 * implementation wraps the browser's): the loudest sample heard since `start`.
 */
function listen(handle: Handle): { peak(): number; stop(): void } {
  const node = handle.controller.outputNode;
  if (!node) throw new Error('no audio output yet');
  const analyser = new AnalyserNode(node.context as never, { fftSize: 2048 });
  node.connect(analyser as never);
  const buffer = new Float32Array(analyser.fftSize);
  let peak = 0;
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(buffer);
    for (const v of buffer) peak = Math.max(peak, Math.abs(v));
  }, 20);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      node.disconnect(analyser as never);
    },
  };
}

/**
 * RGBA pixels of a 48 px wide strip down the middle of the canvas's lower 45 % (WebGL rows count
 * from the bottom), where the face's chin moves when the jaw opens.
 */
function mouthPixels(): Uint8Array {
  const canvas = document.querySelector('canvas')!;
  const gl = canvas.getContext('webgl2') as WebGL2RenderingContext;
  const width = 48;
  const height = Math.floor(canvas.height * 0.45);
  const out = new Uint8Array(width * height * 4);
  gl.readPixels(Math.floor(canvas.width / 2 - width / 2), 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

/** RGBA pixels of the canvas's central `size` × `size` square (the face, for a built-in's framing). */
function centrePixels(size: number): Uint8Array {
  const canvas = document.querySelector('canvas')!;
  const gl = canvas.getContext('webgl2') as WebGL2RenderingContext;
  const out = new Uint8Array(size * size * 4);
  gl.readPixels(
    Math.floor(canvas.width / 2 - size / 2),
    Math.floor(canvas.height / 2 - size / 2),
    size,
    size,
    gl.RGBA,
    gl.UNSIGNED_BYTE,
    out,
  );
  return out;
}

/**
 * Takes the browser's image decoders away from three.js, as on React Native: no
 * `createImageBitmap`, no `Image`, and `<img>` elements refused. A texture that still loads was
 * decoded by the package's own JavaScript decoder.
 */
function hideDomImageDecoders(): void {
  const w = window as unknown as Record<string, unknown>;
  w.createImageBitmap = undefined;
  w.Image = undefined;
  const createElementNS = document.createElementNS.bind(document);
  document.createElementNS = ((ns: string, name: string) => {
    if (name === 'img') throw new Error('no DOM image decoding here (as on React Native)');
    return createElementNS(ns, name);
  }) as typeof document.createElementNS;
}

function b64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const ad = {
  ...sdk,
  core,
  mount,
  unmount,
  listen,
  mouthPixels,
  centrePixels,
  hideDomImageDecoders,
  events,
  b64,
  harnessStats,
};
(window as unknown as { ad: typeof ad }).ad = ad;
document.title = 'ready';
