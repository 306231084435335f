/**
 * `@avatar-drive/server-sdk/relay-client`: the browser end of the Host-mode relay, moved to
 * `@avatar-drive/client-core` (it is the browser's end of a drive source). This subpath
 * re-exports it, with the relay control codec it used to export, for one release.
 *
 * @deprecated Import `RelayClient`, `RelayClientOptions` and `RelayTarget` from
 * `@avatar-drive/client-core` (client-web and react-native users have it already), and the relay
 * control codec (`decodeRelayControl`, `relayTextToBytes`, …) from `@avatar-drive/core`.
 *
 * @example
 * ```ts
 * // before: import { RelayClient } from '@avatar-drive/server-sdk/relay-client';
 * import { RelayClient } from '@avatar-drive/client-core';
 * ```
 */
import * as clientCore from '@avatar-drive/client-core';
import * as core from '@avatar-drive/core';

/** @deprecated Import `RelayClient` from `@avatar-drive/client-core`. */
export const RelayClient = clientCore.RelayClient;
/** @deprecated Import `RelayClient` from `@avatar-drive/client-core`. */
export type RelayClient = clientCore.RelayClient;
/** @deprecated Import `RelayClientOptions` from `@avatar-drive/client-core`. */
export type RelayClientOptions = clientCore.RelayClientOptions;
/** @deprecated Import `RelayTarget` from `@avatar-drive/client-core`. */
export type RelayTarget = clientCore.RelayTarget;

/** @deprecated Import `decodeRelayControl` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const decodeRelayControl = core.decodeRelayControl;
/** @deprecated Import `encodeRelayControl` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const encodeRelayControl = core.encodeRelayControl;
/** @deprecated Import `relayEventToText` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const relayEventToText = core.relayEventToText;
/** @deprecated Import `relayTextToBytes` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const relayTextToBytes = core.relayTextToBytes;
/** @deprecated Import `RELAY_CONTROL_TAG` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const RELAY_CONTROL_TAG = core.RELAY_CONTROL_TAG;
/** @deprecated Import `RELAY_TEXT_PREFIX` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export const RELAY_TEXT_PREFIX = core.RELAY_TEXT_PREFIX;
/** @deprecated Import `RelayControl` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export type RelayControl = core.RelayControl;
/** @deprecated Import `RelayEvent` from `@avatar-drive/core` (or `@avatar-drive/server-sdk`). */
export type RelayEvent = core.RelayEvent;
