/**
 * Egress providers by kind. A server registers the providers it can run; asking for a kind
 * nobody registered is a clear, non-retryable error rather than a silent fallback.
 */
import { AvatarError, wire } from '@avatar-drive/core';
import type { EgressKind, EgressOpenConfig, EgressProvider, EgressSession } from './types.js';

/** The egress kind a `ClientConfigureSession.egress_type` asks for; `undefined` = no egress. */
export function egressKindOf(type: wire.EgressType | number): EgressKind | undefined {
  switch (type) {
    case wire.EgressType.UNSPECIFIED:
      return undefined;
    case wire.EgressType.LIVEKIT:
      return 'livekit';
    case wire.EgressType.AGORA:
      return 'agora';
    default:
      throw new AvatarError(
        'invalidEgressConfig',
        `Unknown egress_type ${type}: use EGRESS_TYPE_LIVEKIT (1), EGRESS_TYPE_AGORA (2) or leave it unset for no egress.`,
        { phase: 'configure' },
      );
  }
}

const EGRESS_NAMES: Record<EgressKind, string> = { livekit: 'LiveKit', agora: 'Agora' };

/** The egress providers a server runs, keyed by egress kind (one provider per kind). */
export class EgressRegistry {
  readonly #providers = new Map<EgressKind, EgressProvider>();

  /** Makes `provider` the one serving its kind (replacing an earlier one). */
  register(provider: EgressProvider): this {
    this.#providers.set(provider.kind, provider);
    return this;
  }

  /** True when a provider serves `kind`. */
  has(kind: EgressKind): boolean {
    return this.#providers.has(kind);
  }

  /** The kinds this server can publish to. */
  kinds(): EgressKind[] {
    return [...this.#providers.keys()];
  }

  /**
   * Opens an egress of `kind`. Rejects with AvatarError `egressUnavailable` (not retryable)
   * when this server has no provider for it, `invalidEgressConfig` when its settings are
   * missing, and whatever the provider rejects with otherwise.
   */
  async open(kind: EgressKind, config: EgressOpenConfig): Promise<EgressSession> {
    const provider = this.#providers.get(kind);
    if (!provider) {
      const available = this.kinds().map((k) => EGRESS_NAMES[k]);
      const name = EGRESS_NAMES[kind];
      throw new AvatarError(
        'egressUnavailable',
        `The ${name} egress is not configured on this server${
          available.length > 0 ? ` (it offers: ${available.join(', ')})` : ''
        }. Use another egress_type, leave it unset to get animation on this WebSocket, or use a server with ${name} egress enabled.`,
        { retryable: false, phase: 'configure' },
      );
    }
    if (kind === 'livekit' && !config.livekit) {
      throw new AvatarError(
        'invalidEgressConfig',
        'egress_type is LIVEKIT but livekit_egress is missing: send a LiveKitEgressConfig with the room to join.',
        { phase: 'configure' },
      );
    }
    if (kind === 'agora' && !config.agora) {
      throw new AvatarError(
        'invalidEgressConfig',
        'egress_type is AGORA but agora_egress is missing: send an AgoraEgressConfig with the channel to join.',
        { phase: 'configure' },
      );
    }
    return provider.open(config);
  }
}
