/**
 * Which client message a session may act on in which phase: a decoded `Message` becomes either
 * one thing to do or the protocol error to end the session with. Pure, so the rules read in one
 * place.
 */
import { wire } from '@avatar-drive/core';

const { MessageType } = wire;

/** What a session does with one decoded client message. */
export type ClientRequest =
  | { kind: 'ignore' }
  | { kind: 'refuse'; message: string }
  | { kind: 'configure'; config: wire.ClientConfigureSession }
  | { kind: 'audio'; input: wire.ClientAudioInput }
  | { kind: 'interrupt' | 'pause' | 'resume'; reqId: string };

/** Where the session stands: before its configure, configured and active, or neither (RTC opening). */
export type SessionStage = 'configuring' | 'active' | 'other';

/** The message types a client may send (CLIENT_DRIVEN_CONFIG is accepted and ignored). */
const CLIENT_TYPES: ReadonlySet<number> = new Set([
  MessageType.CLIENT_CONFIGURE_SESSION,
  MessageType.CLIENT_AUDIO_INPUT,
  MessageType.CLIENT_INTERRUPT,
  MessageType.CLIENT_PAUSE,
  MessageType.CLIENT_RESUME,
]);

/** Routes `message` (as `decodeMessage` returns it: type and case agree) for a session at `stage`. */
export function routeClientMessage(message: wire.Message, stage: SessionStage): ClientRequest {
  const { type, data } = message;
  if (type === MessageType.CLIENT_DRIVEN_CONFIG) return { kind: 'ignore' }; // internal
  if (!CLIENT_TYPES.has(type)) {
    return {
      kind: 'refuse',
      message: `Message type ${type} (${MessageType[type] ?? 'unknown'}) is not one a client may send. Send ClientConfigureSession, ClientAudioInput, ClientInterrupt, ClientPause or ClientResume.`,
    };
  }
  if (data.case === 'clientConfigureSession') {
    if (stage !== 'configuring') {
      return {
        kind: 'refuse',
        message:
          'The session is already configured. Send ClientConfigureSession once, first; open a new session to change it.',
      };
    }
    return { kind: 'configure', config: data.value };
  }
  if (stage !== 'active') {
    return {
      kind: 'refuse',
      message: `${MessageType[type]} arrived before ClientConfigureSession. Send ClientConfigureSession first and wait for ServerConfirmSession.`,
    };
  }
  switch (data.case) {
    case 'clientAudioInput':
      return { kind: 'audio', input: data.value };
    case 'clientInterrupt':
      return { kind: 'interrupt', reqId: data.value.reqId };
    case 'clientPause':
      return { kind: 'pause', reqId: data.value.reqId };
    case 'clientResume':
      return { kind: 'resume', reqId: data.value.reqId };
    default:
      return { kind: 'ignore' };
  }
}
