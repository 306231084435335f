/**
 * The browser's AvatarController: client-core's controller with WebAudio as its default audio
 * output, the engine in a Worker as its default on-device engine (`drivingServiceMode: 'local'`),
 * and the output's audio node exposed for meters and recording.
 */
import {
  AvatarSDK,
  type ControllerHost,
  AvatarController as CoreAvatarController,
  type AvatarControllerOptions as CoreAvatarControllerOptions,
} from '@avatar-drive/client-core';
import { type LocalEngineOptions, WorkerEngine } from './local/worker-engine.js';
import { WebAudioSink } from './web-audio-sink.js';

export type { ControllerHost, PlaybackOutput, SyncStats } from '@avatar-drive/client-core';

/** Options of an {@link AvatarController} (given through the view's options). */
export interface AvatarControllerOptions extends CoreAvatarControllerOptions {
  /** `drivingServiceMode: 'local'`: options of the engine's Worker (see {@link LocalEngineOptions}). */
  localEngine?: LocalEngineOptions;
}

/** Drives one AvatarView: connection (SDK mode) or on-device engine (local mode), WebAudio playback, animation, callbacks. */
export class AvatarController extends CoreAvatarController {
  /** @internal Created by `AvatarView`; use `view.controller`. */
  constructor(host: ControllerHost, options: AvatarControllerOptions = {}) {
    super(host, {
      ...options,
      createOutput: options.createOutput ?? (() => new WebAudioSink()),
      createLocalEngine: options.createLocalEngine ?? (() => new WorkerEngine(options.localEngine)),
    });
    // Local mode: fetch the engine's chunk while the view parses and draws the model, not when the user first speaks.
    if (AvatarSDK.config.mode === 'local' && !options.createLocalEngine) {
      WorkerEngine.preload(options.localEngine).catch(() => undefined); // start() reports it
    }
  }

  /** The audio node carrying the avatar's voice (after the volume), for meters and recording. */
  get outputNode(): AudioNode | undefined {
    const output = this.output;
    return output instanceof WebAudioSink ? output.output : undefined;
  }
}
