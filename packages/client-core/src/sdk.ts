/**
 * AvatarSDK: the process-wide configuration (app id, endpoints, mode, audio format, token) every
 * other object reads. Initialized exactly once, before anything else.
 */
import {
  AvatarError,
  type EndpointOptions,
  type Environment,
  endpointOptionsForEnvironment,
  type RegionEndpoints,
  type ResolvedEndpoint,
  resolveEndpoints,
  type SupportedSampleRate,
  validateAudioFormat,
} from '@avatar-drive/core';
import { isLogLevel, LOG_LEVELS, type LogLevel, logger } from './logger.js';

/**
 * Where the avatar's animation is produced from: the app's own audio sent to the service
 * (`sdk`), a relay from your server (`host`), or the app's own audio run through the engine on
 * the device, with no service (`local`). Pass the string or the enum member (`DrivingServiceMode.sdk`).
 */
export const DrivingServiceMode = Object.freeze({ sdk: 'sdk', host: 'host', local: 'local' } as const);
/** `'sdk'`, `'host'` or `'local'`. */
export type DrivingServiceMode = (typeof DrivingServiceMode)[keyof typeof DrivingServiceMode];

/** The audio format the spec defaults to when `audioFormat` (or its `sampleRate`) is left out. */
export const DEFAULT_AUDIO_FORMAT = Object.freeze({ channelCount: 1, sampleRate: 16000 } as const);

/** Options of {@link AvatarSDK.initialize}. */
export interface AvatarSDKOptions {
  /**
   * Deployment environment (`Environment.intl`, `'ap-northeast'`, `'us-west'`): picks the
   * primary and backup region. `region`, `backupRegion` and `endpoints` win over it.
   */
  environment?: Environment;
  /** Primary region (`ap-northeast` or `us-west`, or a key of `regions`). */
  region?: string;
  /** Region to retry a retryable connection failure against; default the other built-in region, `null` for none. */
  backupRegion?: string | null;
  /** Explicit console/ingress URLs, used instead of `region` as the primary. */
  endpoints?: Partial<RegionEndpoints>;
  /** Your own region map (e.g. a self-hosted deployment), merged over the built-in defaults. */
  regions?: Readonly<Record<string, RegionEndpoints>>;
  /**
   * `sdk`: the browser sends audio over the ingress WebSocket; `host`: your server relays audio
   * and animation; `local`: the engine runs on the device (no service, no session token).
   */
  drivingServiceMode: DrivingServiceMode;
  /** The PCM you will pass to `send()`: mono s16le at a supported rate; default 16000 Hz. */
  audioFormat?: { channelCount?: 1; sampleRate?: number };
  /** Console logging: `debug`, `info`, `warning`, `error` or `none` (`warn`, `silent` also accepted); default `warning`. */
  logLevel?: LogLevel;
}

/** The resolved configuration other SDK objects read. */
export interface SdkConfig {
  readonly appId: string;
  readonly mode: DrivingServiceMode;
  readonly sampleRate: SupportedSampleRate;
  /** `[primary, backup?]`. */
  readonly endpoints: readonly ResolvedEndpoint[];
  readonly logLevel: LogLevel;
}

let config: SdkConfig | undefined;
let sessionToken: string | undefined;

/** Global SDK setup: call {@link AvatarSDK.initialize} once, before anything else. */
export const AvatarSDK = {
  /**
   * Configures the SDK. Call once, before creating managers, views or controllers.
   *
   * @throws AvatarError `invalidState` on a second call; `invalidRequest` for a bad app id, mode,
   *   region or URL; `unsupportedSampleRate` / `invalidAudio` for a bad audio format.
   * @example
   * ```ts
   * AvatarSDK.initialize('app_123', {
   *   region: 'us-west',
   *   drivingServiceMode: 'sdk',
   *   audioFormat: { channelCount: 1, sampleRate: 16000 },
   * });
   * ```
   */
  initialize(appId: string, options: AvatarSDKOptions): void {
    if (config) {
      throw new AvatarError(
        'invalidState',
        'AvatarSDK.initialize() was already called. Call it once per page; reload the page to change the configuration.',
        { phase: 'initialize' },
      );
    }
    if (typeof appId !== 'string' || appId.trim() === '') {
      throw new AvatarError(
        'invalidRequest',
        'AvatarSDK.initialize() needs your app id (a non-empty string).',
        {
          phase: 'initialize',
        },
      );
    }
    if (typeof options !== 'object' || options === null) {
      throw new AvatarError(
        'invalidRequest',
        "AvatarSDK.initialize() needs options: { drivingServiceMode: 'sdk' | 'host' | 'local', audioFormat: { channelCount: 1, sampleRate } }.",
        { phase: 'initialize' },
      );
    }
    if (!Object.values(DrivingServiceMode).includes(options.drivingServiceMode)) {
      throw new AvatarError(
        'invalidRequest',
        `drivingServiceMode must be 'sdk', 'host' or 'local' (DrivingServiceMode.sdk / .host / .local), got ${JSON.stringify(options.drivingServiceMode)}.`,
        { phase: 'initialize' },
      );
    }
    const logLevel = options.logLevel ?? 'warning';
    if (!isLogLevel(logLevel)) {
      throw new AvatarError('invalidRequest', `logLevel must be one of ${LOG_LEVELS.join(', ')}.`, {
        phase: 'initialize',
      });
    }
    const format = options.audioFormat;
    if (format !== undefined && (typeof format !== 'object' || format === null)) {
      throw new AvatarError(
        'invalidAudio',
        'audioFormat must be an object like { channelCount: 1, sampleRate: 16000 } (or left out for 16000 Hz mono).',
        { phase: 'initialize' },
      );
    }
    const sampleRate = validateAudioFormat({ ...DEFAULT_AUDIO_FORMAT, ...stripUndefined(format ?? {}) });
    let endpointOptions: EndpointOptions = {
      ...(options.region !== undefined && { region: options.region }),
      ...(options.backupRegion !== undefined && { backupRegion: options.backupRegion }),
      ...(options.endpoints !== undefined && { endpoints: options.endpoints }),
      ...(options.regions !== undefined && { regions: options.regions }),
    };
    if (options.environment !== undefined) {
      endpointOptions = endpointOptionsForEnvironment(options.environment, endpointOptions);
    }
    const endpoints = resolveEndpoints(endpointOptions);
    logger.level = logLevel;
    config = Object.freeze({
      appId,
      mode: options.drivingServiceMode,
      sampleRate,
      endpoints: Object.freeze([...endpoints]),
      logLevel,
    });
    logger.debug(
      `initialized: mode ${config.mode}, ${sampleRate} Hz, regions ${endpoints.map((e) => e.region)}`,
    );
  },

  /**
   * Sets the session token your server minted (POST /v1/console/session-tokens). Each token
   * opens one connection: set a fresh one before each `controller.start()`.
   * @throws AvatarError `notInitialized` before `initialize`, `invalidRequest` for an empty token.
   */
  setSessionToken(token: string): void {
    requireConfig('AvatarSDK.setSessionToken()');
    if (typeof token !== 'string' || token === '') {
      throw new AvatarError('invalidRequest', 'setSessionToken() needs the session token from your server.');
    }
    sessionToken = token;
  },

  /** True once {@link AvatarSDK.initialize} succeeded. */
  get isInitialized(): boolean {
    return config !== undefined;
  },

  /**
   * The resolved configuration.
   * @throws AvatarError `notInitialized` before `initialize`.
   */
  get config(): SdkConfig {
    return requireConfig('AvatarSDK.config');
  },

  /** The current session token, if one was set. Assigning it is the same as {@link AvatarSDK.setSessionToken}. */
  get sessionToken(): string | undefined {
    return sessionToken;
  },

  set sessionToken(token: string) {
    AvatarSDK.setSessionToken(token);
  },

  /**
   * Forgets the configuration and token so `initialize` may be called again. Meant for tests
   * and single-page apps tearing everything down; existing objects keep their old config.
   */
  reset(): void {
    config = undefined;
    sessionToken = undefined;
  },
};

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The configuration, or a `notInitialized` error naming the call that needed it.
 * @internal
 */
export function requireConfig(what: string): SdkConfig {
  if (!config) {
    throw new AvatarError(
      'notInitialized',
      `${what} needs the SDK to be set up first: call AvatarSDK.initialize(appId, options) once before anything else.`,
    );
  }
  return config;
}
