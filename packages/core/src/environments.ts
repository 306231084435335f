/**
 * Deployment environments: the spec's `environment` initialisation option (an enum on iOS,
 * Android and web; `intl` in its examples), mapped to a primary and a backup region.
 */
import { describeValue } from './describe.js';
import { AvatarError } from './errors.js';
import type { EndpointOptions, Region } from './regions.js';

/**
 * The environments an SDK accepts. `intl`: the international deployment (primary
 * `ap-northeast`, backup `us-west`); a region name pins that region as the primary with the
 * other as backup.
 */
export const Environment = Object.freeze({
  intl: 'intl',
  apNortheast: 'ap-northeast',
  usWest: 'us-west',
} as const);

/** One of {@link Environment}'s values. */
export type Environment = (typeof Environment)[keyof typeof Environment];

const ENVIRONMENT_REGIONS: Readonly<Record<Environment, { region: Region; backupRegion: Region }>> = {
  intl: { region: 'ap-northeast', backupRegion: 'us-west' },
  'ap-northeast': { region: 'ap-northeast', backupRegion: 'us-west' },
  'us-west': { region: 'us-west', backupRegion: 'ap-northeast' },
};

/** True for a value of {@link Environment}. */
export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && Object.hasOwn(ENVIRONMENT_REGIONS, value);
}

/**
 * The endpoint options an environment stands for; explicit `region`, `backupRegion` or
 * `endpoints` in `options` win over it.
 * @throws AvatarError `invalidRequest` for an unknown environment.
 * @example
 * ```ts
 * resolveEndpoints(endpointOptionsForEnvironment('intl')); // ap-northeast, then us-west
 * ```
 */
export function endpointOptionsForEnvironment(
  environment: unknown,
  options: EndpointOptions = {},
): EndpointOptions {
  if (!isEnvironment(environment)) {
    throw new AvatarError(
      'invalidRequest',
      `Unknown environment ${describeValue(environment)}. Use one of ${Object.values(Environment).join(', ')} (e.g. Environment.intl), or pass region / endpoints instead.`,
      { details: { environment } },
    );
  }
  const mapped = ENVIRONMENT_REGIONS[environment];
  if (options.endpoints !== undefined) return options;
  return {
    ...options,
    region: options.region ?? mapped.region,
    backupRegion:
      options.backupRegion !== undefined
        ? options.backupRegion
        : options.region === undefined
          ? mapped.backupRegion
          : undefined,
  } as EndpointOptions;
}
