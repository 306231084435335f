/**
 * Regions and endpoint resolution: which console and ingress URLs an SDK talks to, primary
 * first, then the backup it retries a retryable connection failure against.
 */
import { describeValue } from './describe.js';
import { AvatarError } from './errors.js';

/** The regions Avatar Drive runs in. */
export const REGIONS = ['ap-northeast', 'us-west'] as const;
/** A built-in region name. */
export type Region = (typeof REGIONS)[number];

/** Where one region's service listens. */
export interface RegionEndpoints {
  /** Console API base URL (http/https), e.g. `http://127.0.0.1:8710`. */
  consoleUrl: string;
  /** Ingress WebSocket URL (ws/wss), e.g. `ws://127.0.0.1:8710/v2/driveningress`. */
  ingressUrl: string;
}

/** A resolved endpoint, tagged with the region (or `custom` for explicit URLs). */
export interface ResolvedEndpoint extends RegionEndpoints {
  /** The region name, or `custom` for explicit `endpoints`. */
  region: string;
}

/** The embedded self-hosted defaults: each region's service on loopback. */
export const DEFAULT_REGIONS: Readonly<Record<Region, Readonly<RegionEndpoints>>> = Object.freeze({
  'ap-northeast': Object.freeze({
    consoleUrl: 'http://127.0.0.1:8710',
    ingressUrl: 'ws://127.0.0.1:8710/v2/driveningress',
  }),
  'us-west': Object.freeze({
    consoleUrl: 'http://127.0.0.1:8720',
    ingressUrl: 'ws://127.0.0.1:8720/v2/driveningress',
  }),
});

/** The default primary region. */
export const DEFAULT_REGION: Region = 'ap-northeast';

/** True for a built-in region name. */
export function isRegion(value: unknown): value is Region {
  return typeof value === 'string' && (REGIONS as readonly string[]).includes(value);
}

/** What an SDK is configured with; every field is optional. */
export interface EndpointOptions {
  /** Primary region (default `ap-northeast`). */
  region?: string;
  /** Backup region; default the other built-in region; `null` for none. */
  backupRegion?: string | null;
  /** Region map replacing or extending {@link DEFAULT_REGIONS} (e.g. your own deployment). */
  regions?: Readonly<Record<string, RegionEndpoints>>;
  /** Explicit URLs: used as the primary, before any region. */
  endpoints?: Partial<RegionEndpoints>;
}

/**
 * Resolves the ordered endpoints to try: `[primary, backup?]`.
 *
 * Explicit `endpoints` win and become the primary (`region: 'custom'`); a backup region is added
 * only when `backupRegion` is given. Otherwise the primary is `region` (default `ap-northeast`)
 * and the backup is `backupRegion`, or the other built-in region when the primary is built in.
 * Regions are looked up in `regions` first, then {@link DEFAULT_REGIONS}.
 *
 * @throws AvatarError `invalidRequest` for an unknown region, a malformed URL, or a backup equal
 *   to the primary.
 * @example
 * ```ts
 * const [primary, backup] = resolveEndpoints({ region: 'us-west' });
 * // primary.ingressUrl === 'ws://127.0.0.1:8720/v2/driveningress', backup.region === 'ap-northeast'
 * ```
 */
export function resolveEndpoints(options: EndpointOptions = {}): ResolvedEndpoint[] {
  if (typeof options !== 'object' || options === null) {
    throw new AvatarError('invalidRequest', 'Endpoint options must be an object like { region: "us-west" }.');
  }
  if (options.regions !== undefined && (typeof options.regions !== 'object' || options.regions === null)) {
    throw new AvatarError('invalidRequest', '`regions` must map region names to { consoleUrl, ingressUrl }.');
  }
  if (
    options.endpoints !== undefined &&
    (typeof options.endpoints !== 'object' || options.endpoints === null)
  ) {
    throw new AvatarError('invalidRequest', '`endpoints` must be an object like { consoleUrl, ingressUrl }.');
  }
  const map: Record<string, RegionEndpoints> = { ...DEFAULT_REGIONS, ...(options.regions ?? {}) };
  const lookup = (name: unknown, field: string): ResolvedEndpoint => {
    if (typeof name !== 'string' || !Object.hasOwn(map, name)) {
      throw new AvatarError(
        'invalidRequest',
        `Unknown ${field} ${describeValue(name)}. Use one of ${Object.keys(map).join(', ')}, add it to \`regions\`, or pass explicit \`endpoints\`.`,
        { details: { [field]: name } },
      );
    }
    const entry = map[name] as Partial<RegionEndpoints> | null;
    if (typeof entry !== 'object' || entry === null) {
      throw new AvatarError('invalidRequest', `regions["${name}"] must be { consoleUrl, ingressUrl }.`);
    }
    return {
      region: name,
      consoleUrl: checkUrl(entry.consoleUrl, ['http:', 'https:'], `regions["${name}"].consoleUrl`),
      ingressUrl: checkUrl(entry.ingressUrl, ['ws:', 'wss:'], `regions["${name}"].ingressUrl`),
    };
  };

  const result: ResolvedEndpoint[] = [];
  let primaryRegion: string | undefined;
  if (options.endpoints) {
    const { consoleUrl, ingressUrl } = options.endpoints;
    if (consoleUrl === undefined && ingressUrl === undefined) {
      throw new AvatarError(
        'invalidRequest',
        '`endpoints` is empty. Pass { consoleUrl, ingressUrl } (either may be derived from the other), or a region.',
      );
    }
    const ingress =
      ingressUrl ?? deriveIngressUrl(checkUrl(consoleUrl, ['http:', 'https:'], 'endpoints.consoleUrl'));
    const consoleBase =
      consoleUrl ?? deriveConsoleUrl(checkUrl(ingressUrl, ['ws:', 'wss:'], 'endpoints.ingressUrl'));
    result.push({
      region: 'custom',
      consoleUrl: checkUrl(consoleBase, ['http:', 'https:'], 'endpoints.consoleUrl'),
      ingressUrl: checkUrl(ingress, ['ws:', 'wss:'], 'endpoints.ingressUrl'),
    });
  } else {
    const primary = lookup(options.region ?? DEFAULT_REGION, 'region');
    primaryRegion = primary.region;
    result.push(primary);
  }

  let backup: string | null | undefined = options.backupRegion;
  if (backup === undefined && primaryRegion !== undefined && isRegion(primaryRegion)) {
    backup = REGIONS.find((r) => r !== primaryRegion);
  }
  if (backup !== undefined && backup !== null) {
    if (backup === primaryRegion) {
      throw new AvatarError(
        'invalidRequest',
        `backupRegion is the same as region (${backup}). Pick another region, or pass backupRegion: null for no backup.`,
      );
    }
    result.push(lookup(backup, 'backupRegion'));
  }
  return result;
}

/** Parts of an absolute URL; parsed by hand because core targets plain ES2022 (no URL type). */
interface UrlParts {
  protocol: string;
  host: string;
  path: string;
  query: string;
}

const URL_RE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s@]+)([^?#\s]*)(?:\?([^#\s]*))?(?:#\S*)?$/i;

function parseUrl(value: unknown): UrlParts | undefined {
  if (typeof value !== 'string') return undefined;
  const m = URL_RE.exec(value);
  if (!m) return undefined;
  return { protocol: `${m[1]!.toLowerCase()}:`, host: m[2]!, path: m[3] ?? '', query: m[4] ?? '' };
}

function checkUrl(value: unknown, protocols: string[], field: string): string {
  const url = parseUrl(value);
  if (!url || !protocols.includes(url.protocol)) {
    throw new AvatarError(
      'invalidRequest',
      `${field} must be an absolute ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL, got ${describeValue(value)}.`,
      { details: { field } },
    );
  }
  return value as string;
}

const INGRESS_PATH = '/v2/driveningress';

function deriveIngressUrl(consoleUrl: string): string {
  const url = parseUrl(consoleUrl)!;
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}${INGRESS_PATH}`;
}

function deriveConsoleUrl(ingressUrl: string): string {
  const url = parseUrl(ingressUrl)!;
  return `${url.protocol === 'wss:' ? 'https' : 'http'}://${url.host}`;
}

/** What a browser puts in the ingress query string (browsers cannot set upgrade headers). */
export interface IngressAuth {
  /** The avatar to drive (query `id`). */
  avatarId: string;
  /** The public app ID (query `appId`). */
  appId: string;
  /** A session token minted by your server (query `sessionKey`); never the API key. */
  sessionKey: string;
}

/**
 * The browser form of the ingress URL: `base?id=<avatarId>&appId=<appId>&sessionKey=<token>`,
 * keeping any query parameters `base` already has and replacing these three.
 *
 * @throws AvatarError `invalidRequest` for a non-ws URL or an empty field.
 */
export function ingressUrlWithAuth(base: string, auth: IngressAuth): string {
  checkUrl(base, ['ws:', 'wss:'], 'ingressUrl');
  const hashAt = base.indexOf('#');
  const withoutHash = hashAt >= 0 ? base.slice(0, hashAt) : base;
  const queryAt = withoutHash.indexOf('?');
  const head = queryAt >= 0 ? withoutHash.slice(0, queryAt) : withoutHash;
  const replaced = new Set(['id', 'appId', 'sessionKey']);
  const kept = (queryAt >= 0 ? withoutHash.slice(queryAt + 1) : '')
    .split('&')
    .filter((pair) => pair !== '' && !replaced.has(safeDecode(pair.split('=')[0]!)));
  const params: string[] = [];
  for (const [key, field] of [
    ['avatarId', 'id'],
    ['appId', 'appId'],
    ['sessionKey', 'sessionKey'],
  ] as const) {
    const value = (auth as unknown as Record<string, unknown> | null)?.[key];
    if (typeof value !== 'string' || value === '') {
      throw new AvatarError(
        'invalidRequest',
        `${key} is required to connect to the ingress. Pass the ${key === 'sessionKey' ? 'session token from your server' : key} as a non-empty string.`,
      );
    }
    params.push(`${field}=${encodeURIComponent(value)}`);
  }
  return `${head}?${[...kept, ...params].join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
