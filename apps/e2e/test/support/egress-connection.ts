/**
 * A DrivingConnection for @avatar-drive/agent-plugin that drives the service's LiveKit egress
 * module directly (until the service wires egress into its ingress sessions and server-sdk's
 * AvatarSession lands): audio goes to the egress as a session would push it, with frames whose
 * jawOpen follows the audio's loudness standing in for the engine.
 */
import type {
  DrivingConnection,
  DrivingConnectionFactory,
} from '../../../../packages/agent-plugin/src/index.js';
import { LiveKitEgressProvider } from '../../../service/src/egress/index.js';
import { StreamingLoudness } from './speech.js';

export function egressConnectionFactory(): DrivingConnectionFactory {
  return async ({ sampleRate, livekit }) => {
    const session = await new LiveKitEgressProvider().open({
      connectionId: 'conn-agent-e2e',
      avatarId: 'rtc-test-head',
      sampleRate,
      livekit: { ...livekit, apiKey: '', apiSecret: '', idleTimeout: 0 },
    });
    const engines = new Map<string, StreamingLoudness>();
    const connection: DrivingConnection = {
      sendAudio(pcm, reqId, end) {
        let engine = engines.get(reqId);
        if (!engine) {
          engine = new StreamingLoudness(sampleRate);
          engines.set(reqId, engine);
        }
        session.pushAudio(pcm, sampleRate, reqId, end);
        session.pushFrames(engine.push(pcm, end), reqId, end);
        if (end) engines.delete(reqId);
      },
      interrupt(reqId) {
        session.interrupt(reqId);
        engines.delete(reqId);
      },
      close: () => session.close(),
      on(event, listener) {
        session.on(event, listener as never);
        return connection;
      },
      off(event, listener) {
        session.off(event, listener as never);
        return connection;
      },
    };
    return connection;
  };
}
