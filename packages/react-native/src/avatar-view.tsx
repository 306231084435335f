/**
 * `<AvatarView>`: the React Native view of one avatar. It renders an expo-gl GLView, draws the
 * avatar on it through an {@link AvatarSurface}, and exposes the surface and its controller
 * through its ref (the spec's `avatarView` and `avatarView.controller`).
 *
 * Lifecycle, as the spec sets it per platform: on iOS (and on the web) the view releases its
 * resources when it unmounts; on Android an unmounted view keeps its session, audio and
 * controller until the app calls `ref.current.dispose()` — that call is required there.
 * `disposeOnUnmount` overrides the platform default.
 */

import type { Avatar } from '@avatar-drive/client-core';
import { logger } from '@avatar-drive/client-core';
import { GLView } from 'expo-gl';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Platform, type StyleProp, StyleSheet, View, type ViewStyle } from 'react-native';
import type { AvatarController } from './avatar-controller.js';
import { AvatarSurface, type AvatarViewOptions } from './avatar-surface.js';
import type { GlContext } from './gl-renderer.js';

/** Props of {@link AvatarView}. */
export interface AvatarViewProps {
  /** The avatar to show, from `AvatarManager.load()`. Changing it needs a new view (a new `key`). */
  avatar: Avatar;
  /** Options of the view and its controller (read once, when the view is created). */
  options?: AvatarViewOptions;
  /** Called once, after the first frame with the avatar has been drawn (the spec's `onFirstRendering`). */
  onFirstRendering?: () => void;
  /**
   * Release everything when the view unmounts. Default: true on iOS and the web, false on
   * Android, where `ref.current.dispose()` is required.
   */
  disposeOnUnmount?: boolean;
  style?: StyleProp<ViewStyle>;
  testID?: string;
}

/** What an `<AvatarView>`'s ref holds. */
export interface AvatarViewHandle {
  /** The view: drawing, idle motion, morph read-back, `dispose()`. */
  readonly view: AvatarSurface;
  /** The view's controller: `start`, `send`, `yieldAudioData`, `interrupt`, `close`, callbacks. */
  readonly controller: AvatarController;
  /** Releases the view (required on Android; automatic on iOS when it unmounts). */
  dispose(): void;
}

/**
 * The avatar view component.
 *
 * @example
 * ```tsx
 * const ref = useRef<AvatarViewHandle>(null);
 * <AvatarView ref={ref} avatar={avatar} style={{ flex: 1 }} onFirstRendering={() => setShown(true)} />
 * // later: ref.current.controller.start(); ref.current.controller.send(pcm, true);
 * ```
 */
export const AvatarView = forwardRef<AvatarViewHandle, AvatarViewProps>(function AvatarView(props, ref) {
  const { avatar, options, onFirstRendering, disposeOnUnmount, style, testID } = props;
  const [surface] = useState(() => new AvatarSurface(avatar, options));
  surface.onFirstRendering = onFirstRendering;
  const autoDispose = disposeOnUnmount ?? Platform.OS !== 'android';

  useImperativeHandle(
    ref,
    () => ({ view: surface, controller: surface.controller, dispose: () => surface.dispose() }),
    [surface],
  );

  // React's strict mode unmounts and remounts at once: release only when the view stays gone.
  const pendingRelease = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(pendingRelease.current);
    return () => {
      pendingRelease.current = setTimeout(() => {
        surface.detach();
        if (autoDispose) surface.dispose();
        else if (!surface.disposed)
          logger.info(
            'An <AvatarView> unmounted without dispose(): its connection and audio stay open until ref.current.dispose() (required on Android).',
          );
      }, 0);
    };
  }, [surface, autoDispose]);

  return (
    <View style={[styles.container, style]} testID={testID}>
      <GLView
        style={styles.gl}
        onContextCreate={(gl) => {
          if (!surface.disposed) surface.attach(gl as GlContext);
        }}
        msaaSamples={options?.antialias === false ? 0 : 4}
        {...(Platform.OS === 'web' && {
          webglContextAttributes: {
            antialias: options?.antialias ?? true,
            alpha: options?.background === undefined,
            preserveDrawingBuffer: options?.preserveDrawingBuffer ?? false,
          },
        })}
      />
    </View>
  );
});

const styles = StyleSheet.create({
  container: { flex: 1, overflow: 'hidden' },
  gl: { flex: 1 },
});
