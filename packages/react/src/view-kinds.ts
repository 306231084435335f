/**
 * The views `<AvatarView>` can mount, by kind. A view is anything with the SDK view's lifecycle:
 * a controller, a `ready` promise, `onFirstRendering` and `dispose()`. Today the one kind is
 * `mesh` (client-web's three.js `AvatarView`); other renderers plug in through the `createView`
 * prop (or a kind added here) without changing the component or the hooks.
 */
import {
  type Avatar,
  type AvatarController,
  type AvatarViewOptions,
  AvatarView as MeshView,
} from '@avatar-drive/client-web';

/** What `<AvatarView>` needs of a view it mounts (client-web's `AvatarView` has it all). */
export interface MountedView {
  /** Session and playback of the view. */
  readonly controller: AvatarController;
  /** Resolves once the model is shown; rejects with a typed error for a bad model. */
  readonly ready: Promise<void>;
  /** Called once, after the first frame with the avatar has been drawn. */
  onFirstRendering: (() => void) | undefined;
  /** Releases the canvas, its GPU context, audio and connection. Safe to call twice. */
  dispose(): void;
}

/** Makes the view of `avatar` inside `container` (the component's `<div>`). */
export type AvatarViewFactory = (
  avatar: Avatar,
  container: HTMLElement,
  options: AvatarViewOptions,
) => MountedView;

/** The built-in view kinds: `mesh`, the three.js view of a glTF / VRM avatar. */
export type AvatarViewKind = 'mesh';

/** The factory of each built-in {@link AvatarViewKind}. */
export const avatarViewKinds: Readonly<Record<AvatarViewKind, AvatarViewFactory>> = Object.freeze({
  mesh: (avatar, container, options) => new MeshView(avatar, container, options),
});
