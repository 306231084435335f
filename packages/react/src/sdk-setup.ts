/**
 * Shares the process-wide AvatarSDK between providers: `AvatarSDK.initialize` may run once per
 * page, while React mounts providers twice (strict mode) or several at once. The first claim
 * initializes, later claims with the same app id and mode share it, and the SDK is reset when
 * the last claim that initialized it is released. An SDK the app initialized itself is used as is
 * and never reset here.
 */
import { AvatarSDK, type AvatarSDKOptions } from '@avatar-drive/client-web';
import { AvatarError } from '@avatar-drive/core';

let claims = 0;
let ownedByUs = false;

/** A claim on the SDK; release it exactly once. */
export interface SdkClaim {
  release(): void;
}

/**
 * Initializes the SDK (or shares the one already initialized) for one provider.
 * @throws AvatarError `invalidState` when the SDK is already set up for another app id or mode
 *   (one page runs one configuration); the SDK's own errors for bad options.
 */
export function claimSdk(appId: string, options: AvatarSDKOptions): SdkClaim {
  if (AvatarSDK.isInitialized) {
    const config = AvatarSDK.config;
    if (config.appId !== appId || config.mode !== options.drivingServiceMode) {
      throw new AvatarError(
        'invalidState',
        `<AvatarProvider appId="${appId}" mode "${options.drivingServiceMode}"> found the SDK already set up for app "${config.appId}" in mode "${config.mode}". A page runs one configuration: give every provider the same appId and options, or unmount the other provider first.`,
        { phase: 'initialize' },
      );
    }
  } else {
    AvatarSDK.initialize(appId, options);
    ownedByUs = true;
  }
  claims += 1;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      claims -= 1;
      if (claims === 0 && ownedByUs) {
        ownedByUs = false;
        AvatarSDK.reset();
      }
    },
  };
}
