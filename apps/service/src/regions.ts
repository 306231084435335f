/** The regions a deployment runs in, and each one's default local port. */
export const REGIONS = {
  'ap-northeast': { defaultPort: 8710 },
  'us-west': { defaultPort: 8720 },
} as const;

export type RegionId = keyof typeof REGIONS;

/** True when `value` names a known region. */
export function isRegionId(value: unknown): value is RegionId {
  return typeof value === 'string' && Object.hasOwn(REGIONS, value);
}
