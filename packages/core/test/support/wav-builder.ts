// Builds WAV files in memory for tests, independently of encodeWav (so the parser is checked
// against hand-laid bytes, not against its own writer).

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

export function chunk(id: string, body: Uint8Array, declaredSize = body.length): Uint8Array {
  const pad = body.length & 1;
  const out = new Uint8Array(8 + body.length + pad);
  for (let i = 0; i < 4; i++) out[i] = id.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, declaredSize, true);
  out.set(body, 8);
  return out;
}

export function fmtChunk(spec: FmtSpec): Uint8Array {
  const ext = spec.extensibleSubFormat !== undefined;
  const body = new Uint8Array(ext ? 40 : 16);
  const v = new DataView(body.buffer);
  const align = spec.blockAlign ?? (spec.channels * spec.bits) / 8;
  v.setUint16(0, ext ? 0xfffe : spec.formatTag, true);
  v.setUint16(2, spec.channels, true);
  v.setUint32(4, spec.sampleRate, true);
  v.setUint32(8, spec.sampleRate * align, true);
  v.setUint16(12, align, true);
  v.setUint16(14, spec.bits, true);
  if (ext) {
    v.setUint16(16, 22, true);
    v.setUint16(18, spec.validBits ?? spec.bits, true);
    v.setUint32(20, 0, true); // channel mask
    v.setUint16(24, spec.extensibleSubFormat!, true);
    body.set([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 26);
  }
  return chunk('fmt ', body);
}

export function riff(chunks: Uint8Array[], magic = 'RIFF', form = 'WAVE'): Uint8Array {
  const size = 4 + chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(8 + size);
  for (let i = 0; i < 4; i++) out[i] = magic.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, size, true);
  for (let i = 0; i < 4; i++) out[8 + i] = form.charCodeAt(i);
  let at = 12;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Encodes interleaved integer sample values (already in the container's integer range). */
export function intSamples(values: readonly number[], bits: number): Uint8Array {
  const bytes = bits / 8;
  const out = new Uint8Array(values.length * bytes);
  values.forEach((value, i) => {
    // 8-bit WAV is unsigned with a 128 offset; wider sizes are two's complement little-endian.
    let u = bits === 8 ? value + 128 : value < 0 ? value + 2 ** bits : value;
    for (let b = 0; b < bytes; b++) {
      out[i * bytes + b] = u % 256;
      u = Math.floor(u / 256);
    }
  });
  return out;
}

export function floatSamples(values: readonly number[], bits: 32 | 64): Uint8Array {
  const out = new Uint8Array(values.length * (bits / 8));
  const v = new DataView(out.buffer);
  values.forEach((x, i) => {
    if (bits === 32) v.setFloat32(i * 4, x, true);
    else v.setFloat64(i * 8, x, true);
  });
  return out;
}
