/**
 * @avatar-drive/react — React bindings for the Avatar Drive browser SDK (`@avatar-drive/client-web`):
 * `<AvatarProvider>`, `<AvatarView>` and hooks for the controller, its states, errors and audio.
 * Importing it touches no DOM, so server rendering can import it; the SDK is set up in effects.
 * @packageDocumentation
 */
export {
  type AudioFeeder,
  type AudioFeedSource,
  type Microphone,
  type MicrophoneOptions,
  useAudioFeed,
  useMicrophone,
} from './audio-feed.js';
export { AvatarProvider, type AvatarProviderProps } from './avatar-provider.js';
export type { AvatarState } from './avatar-store.js';
export { AvatarView, type AvatarViewProps } from './avatar-view.js';
export {
  type AvatarControls,
  useAvatarController,
  useAvatarError,
  useConnectionState,
  useConversationState,
} from './hooks.js';
export { type FetchSessionToken, sessionTokenFrom } from './session-token.js';
export {
  type AvatarViewFactory,
  type AvatarViewKind,
  avatarViewKinds,
  type MountedView,
} from './view-kinds.js';
