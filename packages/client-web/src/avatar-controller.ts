/**
 * The browser's AvatarController: client-core's controller with WebAudio as its default audio
 * output and the output's audio node exposed for meters and recording.
 */
import {
  type AvatarControllerOptions,
  type ControllerHost,
  AvatarController as CoreAvatarController,
} from '@avatar-drive/client-core';
import { WebAudioSink } from './web-audio-sink.js';

export type {
  AvatarControllerOptions,
  ControllerHost,
  PlaybackOutput,
  SyncStats,
} from '@avatar-drive/client-core';

/** Drives one AvatarView: connection (SDK mode), WebAudio playback, animation, callbacks. */
export class AvatarController extends CoreAvatarController {
  /** @internal Created by `AvatarView`; use `view.controller`. */
  constructor(host: ControllerHost, options: AvatarControllerOptions = {}) {
    super(host, { ...options, createOutput: options.createOutput ?? (() => new WebAudioSink()) });
  }

  /** The audio node carrying the avatar's voice (after the volume), for meters and recording. */
  get outputNode(): AudioNode | undefined {
    const output = this.output;
    return output instanceof WebAudioSink ? output.output : undefined;
  }
}
