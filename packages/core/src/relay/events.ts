/**
 * The Host-mode relay as events: the relay messages of the relay codec (format.ts; binary, for
 * the controller's yieldAudioData / yieldFramesData) plus small JSON control messages (interrupt,
 * pause, resume, end) the browser needs to act on at the same point of the stream. server-sdk's
 * relay stream encodes them, client-core's RelayClient decodes them: the contract lives here once.
 *
 * On a transport with binary and text frames (WebSocket, data channel): binary frame = relay
 * message, text frame = control. On a text-only transport (SSE): {@link relayEventToText} and
 * back. Browser-safe: no Node APIs.
 */
import { AvatarError } from '../errors.js';

/** A control message: something the browser must do at this point of the stream. */
export type RelayControl =
  /** Stop the conversation's audio and animation at once. */
  | { type: 'interrupt'; conversationId: string }
  /** Pause playback (audio clock and animation together). */
  | { type: 'pause'; conversationId: string }
  /** Resume after a pause. */
  | { type: 'resume'; conversationId: string }
  /** The session ended; nothing follows. */
  | { type: 'end'; reason: string };

/** One item of a session's relay stream, in order. */
export type RelayEvent =
  | {
      type: 'audio';
      conversationId: string;
      /** The relay audio message (core relay format): pass to `yieldAudioData`. */
      data: Uint8Array;
      last: boolean;
    }
  | {
      type: 'animation';
      conversationId: string;
      /** The relay animation message (core relay format): pass to `yieldFramesData`. */
      data: Uint8Array;
      last: boolean;
    }
  | {
      type: 'control';
      control: RelayControl;
      /** The control as the JSON text to send in a text frame. */
      data: string;
    };

/** Marks control JSON so a receiver can tell it from anything else on a shared channel. */
export const RELAY_CONTROL_TAG = 'avatarDriveRelay';
/** Prefix of a relay message carried as text (base64) on text-only transports. */
export const RELAY_TEXT_PREFIX = 'b64:';

/** Encodes a control message as the JSON text of a text frame. */
export function encodeRelayControl(control: RelayControl): string {
  return JSON.stringify({ [RELAY_CONTROL_TAG]: 1, ...control });
}

/**
 * Parses control JSON.
 * @throws AvatarError `protocolError` for text that is not a relay control message.
 */
export function decodeRelayControl(text: string): RelayControl {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AvatarError(
      'protocolError',
      'A relay text frame is not JSON; text frames carry relay control messages only.',
    );
  }
  const v = value as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null || v[RELAY_CONTROL_TAG] !== 1) {
    throw new AvatarError(
      'protocolError',
      `A relay text frame is not a relay control message (no "${RELAY_CONTROL_TAG}": 1). Send only what the relay stream produced.`,
    );
  }
  switch (v.type) {
    case 'interrupt':
    case 'pause':
    case 'resume':
      if (typeof v.conversationId !== 'string' || v.conversationId === '') break;
      return { type: v.type, conversationId: v.conversationId };
    case 'end':
      return { type: 'end', reason: typeof v.reason === 'string' ? v.reason : '' };
  }
  throw new AvatarError(
    'protocolError',
    `Unknown or incomplete relay control message ${JSON.stringify(text.slice(0, 80))}.`,
  );
}

/** The text form of any relay event, for text-only transports such as Server-Sent Events. */
export function relayEventToText(event: RelayEvent): string {
  return event.type === 'control' ? event.data : RELAY_TEXT_PREFIX + toBase64(event.data);
}

/** Bytes of a relay message carried as text by {@link relayEventToText}. */
export function relayTextToBytes(text: string): Uint8Array {
  if (!text.startsWith(RELAY_TEXT_PREFIX)) {
    throw new AvatarError('protocolError', `Relay text does not start with "${RELAY_TEXT_PREFIX}".`);
  }
  try {
    return fromBase64(text.slice(RELAY_TEXT_PREFIX.length));
  } catch {
    throw new AvatarError('protocolError', 'Relay text carries invalid base64.');
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
