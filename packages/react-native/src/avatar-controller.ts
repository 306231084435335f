/**
 * The React Native AvatarController: client-core's controller with react-native-audio-api as its
 * audio output and React Native's own WebSocket for the ingress.
 */
import {
  type AvatarControllerOptions,
  type ControllerHost,
  AvatarController as CoreAvatarController,
  type WebSocketFactory,
  type WebSocketLike,
} from '@avatar-drive/client-core';
import type { GainNode } from 'react-native-audio-api';
import { NativeAudioOutput } from './audio-output.js';

export type {
  AvatarControllerOptions,
  ControllerHost,
  PlaybackOutput,
  SyncStats,
} from '@avatar-drive/client-core';

/**
 * React Native's WebSocket (the global one; native on iOS and Android) with binary messages as
 * ArrayBuffers. Its error events carry the upgrade's HTTP status in `message`, which client-core
 * turns into the right error (an expired or reused token is not retried).
 */
export const reactNativeWebSocket: WebSocketFactory = (url) => {
  const Ctor = (globalThis as unknown as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!Ctor) throw new TypeError('This runtime has no global WebSocket.');
  const socket = new Ctor(url);
  socket.binaryType = 'arraybuffer';
  return socket;
};

/** Drives one AvatarView: connection (SDK mode), native audio playback, animation, callbacks. */
export class AvatarController extends CoreAvatarController {
  /** @internal Created with the view; use `ref.current.controller`. */
  constructor(host: ControllerHost, options: AvatarControllerOptions = {}) {
    super(host, {
      ...options,
      createOutput: options.createOutput ?? (() => new NativeAudioOutput()),
      webSocket: options.webSocket ?? reactNativeWebSocket,
    });
  }

  /** The audio node carrying the avatar's voice (after the volume), for meters: connect an AnalyserNode of its context. */
  get outputNode(): GainNode | undefined {
    const output = this.output;
    return output instanceof NativeAudioOutput ? output.output : undefined;
  }
}
