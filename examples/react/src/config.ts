/**
 * What the page reads from its server at start: the run-time config (/demo-config.json, served
 * by the demo stack's server with the app id, regions and the token server's URL; never the API
 * key) and the avatars the console lists.
 */
import type { AvatarSDKOptions } from '@avatar-drive/client-web';

/** /demo-config.json (apps/demo/server/demo-server.ts). */
export interface PageConfig {
  appId: string;
  primaryRegion: string;
  backupRegion: string;
  /** Ingress WebSocket URL per region; the console is this page's origin (proxied). */
  ingress: Record<string, string>;
  /** The token server's POST /session-token. */
  tokenUrl: string;
}

export async function loadConfig(): Promise<PageConfig> {
  const response = await fetch('demo-config.json', { cache: 'no-store' });
  if (!response.ok)
    throw new Error(`demo-config.json: HTTP ${response.status}; serve the page with the demo stack.`);
  return (await response.json()) as PageConfig;
}

/** The SDK options for this config: each region's console is this origin, its ingress its own. */
export function sdkOptions(config: PageConfig): AvatarSDKOptions {
  return {
    region: config.primaryRegion,
    backupRegion: config.backupRegion,
    regions: Object.fromEntries(
      Object.entries(config.ingress).map(([region, ingressUrl]) => [
        region,
        { consoleUrl: location.origin, ingressUrl },
      ]),
    ),
    drivingServiceMode: 'sdk',
    audioFormat: { channelCount: 1, sampleRate: 16000 },
    logLevel: 'warning',
  };
}

/** The avatar to show: `?avatar=` or the first the console lists. */
export async function pickAvatar(config: PageConfig): Promise<string> {
  const asked = new URLSearchParams(location.search).get('avatar');
  if (asked) return asked;
  const response = await fetch(`/v1/console/avatars?appId=${encodeURIComponent(config.appId)}`);
  const body = (await response.json()) as Array<{ id: string }> | { avatars: Array<{ id: string }> };
  const list = Array.isArray(body) ? body : body.avatars;
  if (!list[0]) throw new Error('The console lists no avatars.');
  return list[0].id;
}
