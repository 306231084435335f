/**
 * The relay control codec (control messages and the text form of relay events). It lives in
 * `@avatar-drive/core` (relay/events.ts), shared with client-core's RelayClient; server-sdk's
 * entry and its modules take it from here, unchanged.
 */
export {
  decodeRelayControl,
  encodeRelayControl,
  RELAY_CONTROL_TAG,
  RELAY_TEXT_PREFIX,
  type RelayControl,
  type RelayEvent,
  relayEventToText,
  relayTextToBytes,
} from '@avatar-drive/core';
