/**
 * The hooks over a provider's state: each reads the provider's store with
 * `useSyncExternalStore` and re-renders its component only when its own part changes.
 */
import type { AvatarController } from '@avatar-drive/client-web';
import type { AvatarError, ConnectionState, ConversationState } from '@avatar-drive/core';
import { useMemo, useSyncExternalStore } from 'react';
import { useProviderStore } from './avatar-provider.js';
import type { AvatarState } from './avatar-store.js';
import type { MountedView } from './view-kinds.js';

function useAvatarState<T>(what: string, select: (state: AvatarState) => T): T {
  const store = useProviderStore(what);
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getSnapshot()),
    () => select(store.getServerSnapshot()),
  );
}

/** What {@link useAvatarController} returns. */
export interface AvatarControls {
  /** The view's controller (`send`, `interrupt`, `pause`, `setVolume`, `close`, …); `undefined` until the view is mounted. */
  readonly controller: AvatarController | undefined;
  /** The mounted view (`getMorphInfluence`, `avatarCoverage`, `canvas` on the mesh view). */
  readonly view: MountedView | undefined;
  /**
   * Opens the session: resumes audio (call it from a user gesture), fetches a fresh session
   * token in SDK mode, then `controller.start()`. Resolves at once when already connected;
   * rejects with a typed error, also shown by {@link useAvatarError}.
   */
  connect(): Promise<void>;
}

/**
 * The controller of the provider's `<AvatarView>`, and `connect()`.
 *
 * @example
 * ```tsx
 * function Speak({ pcm }: { pcm: Int16Array }) {
 *   const { controller, connect } = useAvatarController();
 *   return (
 *     <button disabled={!controller} onClick={async () => { await connect(); controller!.send(pcm, true); }}>
 *       Speak
 *     </button>
 *   );
 * }
 * ```
 */
export function useAvatarController(): AvatarControls {
  const store = useProviderStore('useAvatarController()');
  const controller = useAvatarState('useAvatarController()', (s) => s.controller);
  const view = useAvatarState('useAvatarController()', (s) => s.view);
  return useMemo(() => ({ controller, view, connect: () => store.connect() }), [store, controller, view]);
}

/** The connection state of the provider's view: `disconnected`, `connecting`, `connected` or `failed`. */
export function useConnectionState(): ConnectionState {
  return useAvatarState('useConnectionState()', (s) => s.connectionState);
}

/** The conversation state of the provider's view: `idle`, `playing` or `paused`. */
export function useConversationState(): ConversationState {
  return useAvatarState('useConversationState()', (s) => s.conversationState);
}

/**
 * The last error under the provider — SDK setup, token fetch, avatar load, connection or a
 * dropped session — as a typed `AvatarError` (`code`, `message` saying what to do), or
 * `undefined`. A successful `connect()` clears it.
 */
export function useAvatarError(): AvatarError | undefined {
  return useAvatarState('useAvatarError()', (s) => s.error);
}
