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

/** @deprecated Import `RelayClient` from `@avatar-drive/client-core`. */
export const RelayClient = clientCore.RelayClient;
/** @deprecated Import `RelayClient` from `@avatar-drive/client-core`. */
export type RelayClient = clientCore.RelayClient;
/** @deprecated Import `RelayClientOptions` from `@avatar-drive/client-core`. */
export type RelayClientOptions = clientCore.RelayClientOptions;
/** @deprecated Import `RelayTarget` from `@avatar-drive/client-core`. */
export type RelayTarget = clientCore.RelayTarget;

// The relay control codec this subpath also exported: not deprecated, only its place here (it is
// core's, and server-sdk's entry exports it too).
export * from './relay-events.js';
