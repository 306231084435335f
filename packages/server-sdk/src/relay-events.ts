/**
 * The relay's control messages and text form: the contract lives in `@avatar-drive/core`
 * (relay/events.ts), shared with client-core's RelayClient; server-sdk re-exports it unchanged.
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
