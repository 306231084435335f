/**
 * Where an SDK call goes: explicit URLs when the caller gave any, otherwise the named region, with
 * the backup region either way (core's resolveEndpoints does the lookup and validation).
 */
import { type RegionEndpoints, type ResolvedEndpoint, resolveEndpoints } from '@avatar-drive/core';

/** The endpoint fields shared by AvatarSession and createSessionToken options. */
export interface EndpointSelection {
  region?: string;
  backupRegion?: string | null;
  regions?: Readonly<Record<string, RegionEndpoints>>;
  consoleUrl?: string;
  ingressUrl?: string;
}

/** The ordered endpoints to try for `options`: `[primary, backup?]`. */
export function endpointsFor(options: EndpointSelection): ResolvedEndpoint[] {
  const explicit = options.consoleUrl !== undefined || options.ingressUrl !== undefined;
  return resolveEndpoints({
    ...(explicit
      ? {
          endpoints: {
            ...(options.consoleUrl !== undefined && { consoleUrl: options.consoleUrl }),
            ...(options.ingressUrl !== undefined && { ingressUrl: options.ingressUrl }),
          },
        }
      : options.region !== undefined && { region: options.region }),
    ...(options.backupRegion !== undefined && { backupRegion: options.backupRegion }),
    ...(options.regions && { regions: options.regions }),
  });
}
