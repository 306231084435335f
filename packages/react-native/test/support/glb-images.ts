/**
 * Test helpers over a GLB's embedded images: read the JSON and BIN chunks, strip every texture
 * (the avatar in its base colours only), or rewrite one image's bytes.
 */

interface Glb {
  json: Record<string, unknown> & {
    images?: { bufferView?: number; mimeType?: string }[];
    bufferViews: { byteOffset?: number; byteLength: number }[];
    materials?: Record<string, unknown>[];
  };
  bin: Uint8Array;
}

export function readGlb(bytes: Uint8Array): Glb {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const binLength = view.getUint32(binAt, true);
  return { json, bin: bytes.subarray(binAt + 8, binAt + 8 + binLength) };
}

export function writeGlb({ json, bin }: Glb): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const binLength = Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + binLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLength);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out;
}

/** Removes every `…Texture` reference (core and extension material slots) and the textures, images and samplers. */
export function stripTextures(bytes: Uint8Array): Uint8Array {
  const glb = readGlb(bytes);
  const strip = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const key of Object.keys(value)) {
      if (key.endsWith('Texture')) delete (value as Record<string, unknown>)[key];
      else strip((value as Record<string, unknown>)[key]);
    }
  };
  strip(glb.json.materials);
  delete glb.json.textures;
  delete glb.json.images;
  delete glb.json.samplers;
  return writeGlb(glb);
}

/** The bytes of image `index` (a view into the GLB's BIN chunk). */
export function imageBytes(glb: Glb, index: number): Uint8Array {
  const image = glb.json.images![index]!;
  const bufferView = glb.json.bufferViews[image.bufferView!]!;
  const at = bufferView.byteOffset ?? 0;
  return glb.bin.subarray(at, at + bufferView.byteLength);
}
