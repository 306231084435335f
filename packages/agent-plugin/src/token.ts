/**
 * The avatar participant's join token, as LiveKit's avatar plugins mint it: kind `agent`, with
 * the attribute `lk.publish_on_behalf` naming the agent whose speech the avatar renders.
 */
import {
  AVATAR_PARTICIPANT_KIND,
  AvatarError,
  avatarParticipantGrant,
  PUBLISH_ON_BEHALF_ATTRIBUTE,
} from '@avatar-drive/core';
import { AccessToken } from 'livekit-server-sdk';

/** The attribute that ties the avatar to its agent (core's, re-exported). */
export { PUBLISH_ON_BEHALF_ATTRIBUTE };

/** What {@link mintAvatarToken} needs. */
export interface AvatarTokenOptions {
  apiKey: string;
  apiSecret: string;
  roomName: string;
  /** The avatar participant's identity. */
  avatarIdentity: string;
  /** The agent's identity (`room.localParticipant.identity`). */
  agentIdentity: string;
  /** Token lifetime in seconds; default 6 h. */
  ttlSeconds?: number;
  /** Extra participant attributes for the avatar. */
  attributes?: Record<string, string>;
}

/**
 * Mints the avatar's join token: kind agent, `roomJoin` for the room, publish audio and data,
 * update its own attributes, no subscribing.
 * @throws AvatarError `invalidEgressConfig` for missing credentials or identities.
 */
export async function mintAvatarToken(options: AvatarTokenOptions): Promise<string> {
  for (const key of ['apiKey', 'apiSecret', 'roomName', 'avatarIdentity', 'agentIdentity'] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') {
      throw new AvatarError(
        'invalidEgressConfig',
        `The avatar token needs ${key}; pass it in the AvatarSession options or set LIVEKIT_API_KEY / LIVEKIT_API_SECRET.`,
      );
    }
  }
  const token = new AccessToken(options.apiKey, options.apiSecret, {
    identity: options.avatarIdentity,
    ttl: options.ttlSeconds ?? 6 * 3600,
    attributes: { ...options.attributes, [PUBLISH_ON_BEHALF_ATTRIBUTE]: options.agentIdentity },
  });
  token.kind = AVATAR_PARTICIPANT_KIND;
  token.addGrant(avatarParticipantGrant(options.roomName));
  return token.toJwt();
}
