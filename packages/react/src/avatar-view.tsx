/**
 * `<AvatarView>`: a `<div>` that shows one avatar. Once the provider's SDK is set up it loads the
 * avatar, mounts the SDK's view in the div and hands the view to the provider's hooks; it
 * disposes the view (canvas, WebGL context, audio, session) when it unmounts or its avatar
 * changes. The view is made after an asynchronous step, so React's strict-mode mount, unmount
 * and mount makes one view, not two.
 */
import {
  type Avatar,
  AvatarManager,
  AvatarSDK,
  type AvatarViewOptions,
  type LoadProgress,
} from '@avatar-drive/client-web';
import { AvatarError } from '@avatar-drive/core';
import { type CSSProperties, type ReactNode, useEffect, useRef, useSyncExternalStore } from 'react';
import { useProviderStore } from './avatar-provider.js';
import {
  type AvatarViewFactory,
  type AvatarViewKind,
  avatarViewKinds,
  type MountedView,
} from './view-kinds.js';

/** Props of {@link AvatarView}. */
export interface AvatarViewProps {
  /** The avatar to load and show (`AvatarManager.load(avatarId)`); changing it makes a new view. */
  avatarId?: string;
  /** An avatar you loaded yourself; wins over `avatarId`. */
  avatar?: Avatar;
  /** Which view to mount; default `mesh` (three.js). */
  kind?: AvatarViewKind;
  /**
   * Makes the view instead of `kind`'s factory (another renderer, or a wrapped view). Read when
   * the view is made, like `options`: an inline function does not remake the view each render.
   */
  createView?: AvatarViewFactory;
  /**
   * Options of the view and its controller (`background`, `maxPixelRatio`, `jitterBufferMs`, …),
   * read when the view is made. In SDK mode `refreshSessionToken` defaults to the provider's
   * token source, so a dropped session reconnects on its own.
   */
  options?: AvatarViewOptions;
  /**
   * Connect as soon as the view is mounted (SDK and local mode): a token from the provider, then
   * `controller.start()`. Audio still needs a user gesture in most browsers: call
   * `useAvatarController().connect()` from one too (it resumes the audio).
   */
  autoConnect?: boolean;
  /** Download progress of the avatar (`progress` 0 … 1). */
  onLoadProgress?: (progress: LoadProgress) => void;
  /** Called once, after the first frame with the avatar has been drawn. */
  onFirstRendering?: () => void;
  className?: string;
  style?: CSSProperties;
  /** Rendered inside the div, over the canvas's parent (e.g. a spinner). */
  children?: ReactNode;
}

/**
 * Shows an avatar, driven by the controller the hooks expose. Must be inside an
 * `<AvatarProvider>`; one view per provider.
 *
 * @example
 * ```tsx
 * <AvatarView avatarId="mika" style={{ width: 400, height: 400 }} onFirstRendering={() => setShown(true)} />
 * ```
 */
export function AvatarView(props: AvatarViewProps): ReactNode {
  const store = useProviderStore('<AvatarView>');
  const { sdkReady } = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  const container = useRef<HTMLDivElement>(null);
  // Callbacks change identity every render: read the latest through a ref, not as effect deps.
  const latest = useRef(props);
  latest.current = props;
  const { avatarId, avatar, kind = 'mesh' } = props;

  useEffect(() => {
    const element = container.current;
    if (!sdkReady || !element) return;
    let cancelled = false;
    let view: MountedView | undefined;
    let detach: (() => void) | undefined;
    void (async () => {
      try {
        const loaded =
          avatar ??
          (avatarId !== undefined
            ? await AvatarManager.load(avatarId, (p) => latest.current.onLoadProgress?.(p))
            : undefined);
        // Strict mode's first mount is cleaned up before this point, so it never makes a view.
        if (cancelled) return;
        if (!loaded) {
          throw new AvatarError(
            'invalidRequest',
            '<AvatarView> needs an avatarId (a built-in or uploaded avatar) or an avatar from AvatarManager.load().',
            { phase: 'load' },
          );
        }
        const factory = latest.current.createView ?? avatarViewKinds[kind];
        if (!factory) {
          throw new AvatarError(
            'invalidRequest',
            `<AvatarView kind="${kind}">: no such view kind (${Object.keys(avatarViewKinds).join(', ')}); pass createView for another renderer.`,
            { phase: 'load' },
          );
        }
        const options: AvatarViewOptions = { ...latest.current.options };
        if (
          options.refreshSessionToken === undefined &&
          store.fetchToken &&
          AvatarSDK.config.mode === 'sdk'
        ) {
          const fetchToken = store.fetchToken;
          options.refreshSessionToken = () => fetchToken();
        }
        view = factory(loaded, element, options);
        view.onFirstRendering = () => latest.current.onFirstRendering?.();
        detach = store.attachView(view);
        view.ready.catch((error: unknown) => {
          if (!cancelled) store.reportError(error);
        });
        if (latest.current.autoConnect) await store.connect({ resumeAudio: false });
      } catch (error) {
        if (!cancelled) store.reportError(error);
      }
    })();
    return () => {
      cancelled = true;
      detach?.();
      view?.dispose();
    };
  }, [store, sdkReady, avatarId, avatar, kind]);

  return (
    <div ref={container} className={props.className} style={{ position: 'relative', ...props.style }}>
      {props.children}
    </div>
  );
}
