/** The Ogg Opus identification header (RFC 7845 §5.1), as far as decoding to mono needs it. */
import { AvatarError } from '@avatar-drive/core';

export interface OpusHead {
  channels: number;
  /** Samples at 48 kHz to drop from the start of the decoded stream. */
  preSkip: number;
  /** The encoder's input rate (informational; 0 when unknown). */
  inputRate: number;
  /** Output gain, Q7.8 dB. */
  gainQ8: number;
}

const MAGIC = 'OpusHead';

/** True when `packet` starts with `magic` (ASCII). */
export function startsWith(packet: Uint8Array, magic: string): boolean {
  if (packet.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (packet[i] !== magic.charCodeAt(i)) return false;
  return true;
}

function refuse(message: string): never {
  throw new AvatarError('invalidAudio', message);
}

/**
 * Parses the first packet of a stream.
 * @throws AvatarError `invalidAudio` when it is not an OpusHead this server can decode.
 */
export function parseOpusHead(packet: Uint8Array): OpusHead {
  if (!startsWith(packet, MAGIC)) {
    const shown = Array.from(packet.subarray(0, 8), (c) =>
      c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.',
    ).join('');
    refuse(
      `the stream's first packet is not an OpusHead (it starts "${shown}"): this is not an Ogg Opus stream. With audio_format OGG_OPUS, send Ogg Opus (RFC 7845), e.g. from libopusenc or opusenc; or configure PCM_S16LE.`,
    );
  }
  if (packet.length < 19) refuse(`the OpusHead is ${packet.length} bytes long; it needs at least 19.`);
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const version = packet[8]!;
  if (version >> 4 !== 0)
    refuse(`OpusHead version ${version} is not supported (only major version 0 exists).`);
  const channels = packet[9]!;
  const family = packet[18]!;
  if (channels === 0) refuse('the OpusHead declares 0 channels.');
  if (family !== 0 || channels > 2) {
    refuse(
      `the stream has ${channels} channels with channel mapping family ${family}; this server decodes mono or stereo streams (mapping family 0). Encode mono (the engine uses one channel).`,
    );
  }
  return {
    channels,
    preSkip: view.getUint16(10, true),
    inputRate: view.getUint32(12, true),
    gainQ8: view.getInt16(16, true),
  };
}
