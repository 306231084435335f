/**
 * The egress seam: where a session's audio and animation go when the client asks for RTC output
 * (`egress_type` LIVEKIT or AGORA) instead of getting animation back on the WebSocket.
 *
 * A provider (apps/service/src/egress/livekit*.ts, built separately) implements
 * {@link EgressProvider} and is registered in the {@link EgressRegistry} the server is built with.
 * A session whose egress type has no provider is refused with `egressUnavailable`.
 */
import type { DriveFrame, wire } from '@avatar-drive/core';
import type { Logger } from 'pino';

export type EgressKind = 'livekit' | 'agora';

export type EgressTarget =
  | { kind: 'livekit'; config: wire.LiveKitEgressConfig }
  | { kind: 'agora'; config: wire.AgoraEgressConfig };

/** What a provider knows about the session it serves. */
export interface EgressContext {
  connectionId: string;
  appId: string;
  avatarId: string;
  sampleRate: number;
  logger: Logger;
}

/** One session's output into a room/channel. Calls arrive in session order. */
export interface EgressSink {
  /** PCM of request `reqId`, as the client sent it. */
  pushAudio(reqId: string, pcm: Int16Array): void;
  /** Frames of `reqId` in order; `end` marks its last batch. */
  pushFrames(reqId: string, frames: readonly DriveFrame[], end: boolean): void;
  /** Stops `reqId`'s audio and animation at once. */
  interrupt(reqId: string): void;
  pause(reqId: string): void;
  resume(reqId: string): void;
  /** Leaves the room; called once when the session ends. */
  close(): Promise<void>;
}

export interface EgressProvider {
  readonly kind: EgressKind;
  /** Throws AvatarError `invalidEgressConfig` (with what to fix) for a config it cannot use. */
  validate(target: EgressTarget): void;
  /** Joins the room; rejects with AvatarError `egressUnavailable` when it cannot. */
  open(target: EgressTarget, context: EgressContext): Promise<EgressSink>;
}

/** The egress providers configured on this server. */
export class EgressRegistry {
  readonly #providers = new Map<EgressKind, EgressProvider>();

  constructor(providers: readonly EgressProvider[] = []) {
    for (const provider of providers) this.#providers.set(provider.kind, provider);
  }

  get(kind: EgressKind): EgressProvider | undefined {
    return this.#providers.get(kind);
  }

  kinds(): EgressKind[] {
    return [...this.#providers.keys()];
  }
}
