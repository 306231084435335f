/** The regions a deployment runs in (from @avatar-drive/core), and each one's default local port. */
import { DEFAULT_REGIONS, isRegion, REGIONS as REGION_NAMES, type Region } from '@avatar-drive/core';

export type RegionId = Region;

/** Each region's default port: the one in core's embedded region map, so SDK defaults reach it. */
export const REGIONS: Readonly<Record<RegionId, { defaultPort: number }>> = Object.fromEntries(
  REGION_NAMES.map((name) => [name, { defaultPort: Number(new URL(DEFAULT_REGIONS[name].consoleUrl).port) }]),
) as Record<RegionId, { defaultPort: number }>;

/** True when `value` names a known region. */
export const isRegionId: (value: unknown) => value is RegionId = isRegion;
