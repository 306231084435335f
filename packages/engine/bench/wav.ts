/** Minimal RIFF/WAVE reader and writer for 16-bit PCM, as the bench needs (mono, or mixed down). */

/** Decoded 16-bit PCM. */
export interface Wav {
  sampleRate: number;
  samples: Int16Array;
}

/** Parses a 16-bit PCM WAV; multi-channel audio is averaged to mono. */
export function readWav(buf: Uint8Array): Wav {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const tag = (o: number) => String.fromCharCode(buf[o]!, buf[o + 1]!, buf[o + 2]!, buf[o + 3]!);
  if (buf.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let off = 12;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let format = 0;
  while (off + 8 <= buf.byteLength) {
    const id = tag(off);
    // streaming writers (sox, espeak to a pipe) leave sizes at 0 or 0xffffffff: clamp to the file
    let size = view.getUint32(off + 4, true);
    const body = off + 8;
    if (id === 'data' && (size === 0 || body + size > buf.byteLength)) size = buf.byteLength - body;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === 0xfffe && size >= 40) format = view.getUint16(body + 24, true);
    } else if (id === 'data') {
      if (format !== 1 || bits !== 16)
        throw new Error(`unsupported WAV encoding (format ${format}, ${bits} bit)`);
      const frames = Math.floor(size / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let acc = 0;
        for (let c = 0; c < channels; c++) acc += view.getInt16(body + 2 * (i * channels + c), true);
        samples[i] = Math.round(acc / channels);
      }
      return { sampleRate, samples };
    }
    off = body + size + (size & 1);
  }
  throw new Error('WAV has no data chunk');
}

/** Encodes mono 16-bit PCM as a WAV file. */
export function writeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const put = (o: number, s: string) => {
    for (let i = 0; i < 4; i++) out[o + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  put(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + 2 * i, samples[i]!, true);
  return out;
}
