/**
 * Who the avatar is in a LiveKit room, as LiveKit's avatar plugins define it. The service (when
 * it mints the egress's join token from key + secret) and agent-plugin (which mints it for the
 * service) both build the token from these, so the two cannot drift apart.
 */

/** The participant attribute naming the agent whose speech the avatar renders. */
export const PUBLISH_ON_BEHALF_ATTRIBUTE = 'lk.publish_on_behalf';

/** The avatar participant's kind. */
export const AVATAR_PARTICIPANT_KIND = 'agent';

/** The grant of the avatar's join token for `room`: join, publish audio and data, update its own attributes, no subscribing. */
export interface AvatarParticipantGrant {
  room: string;
  roomJoin: true;
  canPublish: true;
  canPublishData: true;
  canSubscribe: false;
  canUpdateOwnMetadata: true;
}

/**
 * The grant to add to the avatar's LiveKit access token.
 *
 * @example
 * ```ts
 * const grant = avatarParticipantGrant('support-room'); // at.addGrant(grant)
 * ```
 */
export function avatarParticipantGrant(room: string): AvatarParticipantGrant {
  return {
    room,
    roomJoin: true,
    canPublish: true,
    canPublishData: true,
    canSubscribe: false,
    canUpdateOwnMetadata: true,
  };
}
