/**
 * The driveningress.v2 messages the bench sends, encoded once for every client with core's
 * codecs (no protobuf bytes are written here), and core's scan of the server's messages for the
 * few fields the bench times.
 */
import {
  configureSessionMessage,
  createScannedMessage,
  encodeAudioInput,
  encodeMessage,
  MessageType,
  type ScannedMessage,
  scanServerMessage,
} from '@avatar-drive/core';
import { clientHeaderLength, OPCODE_BINARY, writeClientHeader } from './websocket-frames.js';

export { createScannedMessage, type ScannedMessage, scanServerMessage };

export const MESSAGE_CONFIRM = MessageType.SERVER_CONFIRM_SESSION;
export const MESSAGE_ERROR = MessageType.SERVER_ERROR;
export const MESSAGE_ANIMATION = MessageType.SERVER_RESPONSE_ANIMATION;

/** Every req_id the bench sends has this many ASCII bytes, so one template serves all clients. */
export const REQ_ID_BYTES = 16;

/** ClientConfigureSession { sample_rate } (PCM_S16LE is the default format). */
export function configureMessage(sampleRate: number): Buffer {
  return Buffer.from(encodeMessage(configureSessionMessage({ sampleRate })));
}

/**
 * One utterance's ClientAudioInput messages (the last with end=true), encoded once for all
 * clients: a client writes its req_id at `reqIdAt[c]` of `messages[c]` just before sending it.
 */
export interface AudioTemplates {
  messages: Buffer[];
  reqIdAt: Int32Array;
}

export function audioTemplates(audio: Int16Array, chunkSamples: number): AudioTemplates {
  const count = Math.ceil(audio.length / chunkSamples);
  const messages: Buffer[] = [];
  const reqIdAt = new Int32Array(count);
  const placeholder = Buffer.alloc(REQ_ID_BYTES, 0x61);
  for (let c = 0; c < count; c++) {
    const pcm = audio.subarray(c * chunkSamples, (c + 1) * chunkSamples);
    const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    const message = Buffer.from(encodeAudioInput(placeholder.toString('latin1'), bytes, c === count - 1));
    // req_id (field 1) is written before the audio, and no key or length byte is 'a': the first
    // run of 16 'a's is the req_id.
    const at = message.indexOf(placeholder);
    if (at < 0) throw new Error('audio template without its req_id placeholder');
    messages.push(message);
    reqIdAt[c] = at;
  }
  return { messages, reqIdAt };
}

/**
 * The same messages as complete WebSocket client frames (zero masking key: see
 * websocket-frames.ts), so that a raw client sends each with one socket write.
 */
export function framedTemplates(templates: AudioTemplates): AudioTemplates {
  const reqIdAt = new Int32Array(templates.reqIdAt.length);
  const messages = templates.messages.map((message, c) => {
    const frame = Buffer.allocUnsafe(clientHeaderLength(message.length) + message.length);
    const at = writeClientHeader(frame, 0, OPCODE_BINARY, message.length);
    message.copy(frame, at);
    reqIdAt[c] = templates.reqIdAt[c]! + at;
    return frame;
  });
  return { messages, reqIdAt };
}
