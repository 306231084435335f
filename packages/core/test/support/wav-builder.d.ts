export interface FmtSpec {
    formatTag: number;
    channels: number;
    sampleRate: number;
    bits: number;
    /** Writes WAVE_FORMAT_EXTENSIBLE with this sub-format tag. */
    extensibleSubFormat?: number;
    validBits?: number;
    blockAlign?: number;
}
export declare function chunk(id: string, body: Uint8Array, declaredSize?: number): Uint8Array;
export declare function fmtChunk(spec: FmtSpec): Uint8Array;
export declare function riff(chunks: Uint8Array[], magic?: string, form?: string): Uint8Array;
/** Encodes interleaved integer sample values (already in the container's integer range). */
export declare function intSamples(values: readonly number[], bits: number): Uint8Array;
export declare function floatSamples(values: readonly number[], bits: 32 | 64): Uint8Array;
