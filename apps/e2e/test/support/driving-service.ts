/**
 * The real driving service for the RTC e2e tests: started in this process on a loopback port
 * with the real engine and its default (LiveKit) egress, plus server-sdk AvatarSessions in RTC
 * mode against it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARKIT_BLENDSHAPES } from '@avatar-drive/core';
import { inject } from 'vitest';
import {
  type DrivingConnectionFactory,
  drivingConnectionFromAvatarSession,
} from '../../../../packages/agent-plugin/src/index.js';
import { AvatarSession as DrivingSession } from '../../../../packages/server-sdk/src/index.js';
import { generateApiKey, hashApiKey } from '../../../service/src/credentials/api-keys.js';
import { createLogger } from '../../../service/src/logger.js';
import { type RunningService, startService } from '../../../service/src/service.js';
import { makeGlb } from '../../../service/test/support/glb.js';

export const APP_ID = 'app_e2e';
export const AVATAR_ID = 'rtc-test-head';

export interface DrivingService {
  service: RunningService;
  apiKey: string;
}

/** Starts the service with one app and one ARKit-rigged avatar ({@link AVATAR_ID}). */
export async function startDrivingService(): Promise<DrivingService> {
  const avatarsDir = await mkdtemp(join(tmpdir(), 'avd-e2e-avatars-'));
  await writeFile(join(avatarsDir, `${AVATAR_ID}.glb`), makeGlb([...ARKIT_BLENDSHAPES]));
  const apiKey = generateApiKey();
  const service = await startService({
    region: 'ap-northeast',
    port: 0,
    apps: [{ appId: APP_ID, apiKeyHashes: [hashApiKey(apiKey)] }],
    signingKey: new Uint8Array(crypto.getRandomValues(new Uint8Array(32))),
    avatarsDir,
    // The one LiveKit server these tests use is the one the service may join.
    liveKitEgress: { allowedHosts: [inject('livekitUrl')] },
    logger: createLogger({ level: 'warn' }),
  });
  return { service, apiKey };
}

/** Options of an RTC-mode server-sdk session against `driving`. */
export function rtcSessionOptions(
  driving: DrivingService,
  sampleRate: number,
  livekit: {
    url: string;
    roomName: string;
    apiToken: string;
    publisherId: string;
    extraAttributes?: Record<string, string>;
  },
) {
  return {
    appId: APP_ID,
    apiKey: driving.apiKey,
    avatarId: AVATAR_ID,
    consoleUrl: driving.service.url,
    ingressUrl: driving.service.ingressUrl,
    backupRegion: null,
    reconnect: false as const,
    sampleRate,
    egress: {
      provider: 'livekit' as const,
      url: livekit.url,
      room: livekit.roomName,
      apiToken: livekit.apiToken,
      publisherId: livekit.publisherId,
      extraAttributes: livekit.extraAttributes ?? {},
    },
  };
}

/** agent-plugin's connect(): a started server-sdk AvatarSession in RTC mode, adapted. */
export function drivingConnectionFactory(driving: DrivingService): DrivingConnectionFactory {
  return async ({ sampleRate, livekit }) => {
    const session = new DrivingSession(rtcSessionOptions(driving, sampleRate, livekit));
    await session.start();
    return drivingConnectionFromAvatarSession(session);
  };
}
