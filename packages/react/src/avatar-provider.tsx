/**
 * `<AvatarProvider>`: sets up the Avatar Drive SDK for the components under it and tells them
 * where session tokens come from. The SDK is set up in an effect (never during a server render)
 * and shared by providers with the same app id and mode; it is reset when the last one unmounts.
 */
import type { AvatarSDKOptions } from '@avatar-drive/client-web';
import { AvatarError } from '@avatar-drive/core';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { AvatarStore } from './avatar-store.js';
import { claimSdk } from './sdk-setup.js';
import { type FetchSessionToken, sessionTokenFrom } from './session-token.js';

/** Props of {@link AvatarProvider}. */
export interface AvatarProviderProps {
  /** Your app id (public; the API key stays on your server). */
  appId: string;
  /**
   * `AvatarSDK.initialize` options: `drivingServiceMode`, `region` or `endpoints`/`regions`,
   * `audioFormat`, `logLevel`. Read when the provider mounts and when `appId` changes.
   */
  options: AvatarSDKOptions;
  /**
   * Your token endpoint (e.g. the token server's `/session-token`): POSTed `{}` before each
   * connection; it answers `{ "sessionToken": "…" }` or the bare token. SDK mode needs this or
   * {@link AvatarProviderProps.fetchToken}.
   */
  tokenUrl?: string;
  /** Returns a fresh session token from your server; wins over `tokenUrl`. */
  fetchToken?: FetchSessionToken;
  children?: ReactNode;
}

/** @internal The provider's store, read by `<AvatarView>` and the hooks. */
export const AvatarContext = createContext<AvatarStore | undefined>(undefined);

/**
 * Provides the SDK and one avatar's state to `<AvatarView>` and the hooks under it. Use one
 * provider per avatar shown; every provider of a page takes the same `appId` and options.
 *
 * @example
 * ```tsx
 * <AvatarProvider
 *   appId="app_123"
 *   options={{ region: 'us-west', drivingServiceMode: 'sdk', audioFormat: { channelCount: 1, sampleRate: 16000 } }}
 *   tokenUrl="/api/session-token"
 * >
 *   <AvatarView avatarId="mika" style={{ width: 400, height: 400 }} />
 *   <SpeakButton />
 * </AvatarProvider>
 * ```
 */
export function AvatarProvider(props: AvatarProviderProps): ReactNode {
  const { appId, options, tokenUrl, fetchToken, children } = props;
  const [store] = useState(() => new AvatarStore());
  store.fetchToken = fetchToken ?? (tokenUrl !== undefined ? sessionTokenFrom(tokenUrl) : undefined);

  // `options` is usually an inline object: key the effect on its content, not its identity.
  const optionsKey = JSON.stringify(options);
  // biome-ignore lint/correctness/useExhaustiveDependencies: optionsKey stands for options
  useEffect(() => {
    let claim: ReturnType<typeof claimSdk>;
    try {
      claim = claimSdk(appId, options);
    } catch (error) {
      store.reportError(error);
      return;
    }
    store.setSdkReady(true);
    return () => {
      store.setSdkReady(false);
      claim.release();
    };
  }, [store, appId, optionsKey]);

  return <AvatarContext.Provider value={store}>{children}</AvatarContext.Provider>;
}

/** @internal The provider's store, or a typed error naming the component or hook that needed one. */
export function useProviderStore(what: string): AvatarStore {
  const store = useContext(AvatarContext);
  if (!store) {
    throw new AvatarError('invalidState', `${what} must be rendered inside an <AvatarProvider>.`);
  }
  return store;
}
