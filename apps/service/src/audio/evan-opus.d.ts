/** Types of the WASM build of `@evan/opus` (the package types only its main entry). */
declare module '@evan/opus/wasm/index.js' {
  /** A libopus decoder (`opus_decoder_init`) in the package's WASM heap. */
  export class Decoder {
    constructor(options: { channels?: 1 | 2; sample_rate?: 8000 | 12000 | 16000 | 24000 | 48000 });
    readonly channels: 1 | 2;
    /** `opus_decoder_ctl`: a getter without `arg`, a setter with it; throws on a libopus error. */
    ctl(cmd: number, arg?: number): number;
    /** Decodes one packet to s16 (platform order) samples; throws `opus: …` on a libopus error. */
    decode(packet: ArrayBufferView): Uint8Array;
    /** Frees the decoder's memory. */
    drop(): void;
  }
  /** A libopus encoder (`opus_encoder_init`). */
  export class Encoder {
    constructor(options: {
      channels?: 1 | 2;
      sample_rate?: 8000 | 12000 | 16000 | 24000 | 48000;
      application?: 'voip' | 'audio' | 'restricted_lowdelay';
    });
    readonly channels: 1 | 2;
    ctl(cmd: number, arg?: number): number;
    /** Encodes one frame of s16 samples (2.5–60 ms) to a packet. */
    encode(pcm: ArrayBufferView): Uint8Array;
    drop(): void;
  }
}
