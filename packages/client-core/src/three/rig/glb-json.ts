/**
 * Reads the JSON chunk of a binary glTF (`.glb` / `.vrm`) without parsing geometry, so the view
 * can tell a VRM from a plain glTF before choosing its loader. Pure: no three.js, no DOM.
 */

const GLB_MAGIC = 0x46546c67; // 'glTF'
const JSON_CHUNK = 0x4e4f534a; // 'JSON'

/**
 * The parsed JSON document of a GLB, or `undefined` when `bytes` is not a GLB with a JSON chunk
 * (the loader then reports the real parse error).
 */
export function readGlbJson(bytes: ArrayBuffer): Record<string, unknown> | undefined {
  if (bytes.byteLength < 20) return undefined;
  const view = new DataView(bytes);
  if (view.getUint32(0, true) !== GLB_MAGIC) return undefined;
  const length = view.getUint32(12, true);
  if (view.getUint32(16, true) !== JSON_CHUNK || 20 + length > bytes.byteLength) return undefined;
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 20, length)));
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `vrm1`, `vrm0` or `gltf`, from the document's `extensionsUsed` (or its extensions). */
export function gltfKind(json: Record<string, unknown> | undefined): 'vrm1' | 'vrm0' | 'gltf' {
  if (!json) return 'gltf';
  const used = Array.isArray(json.extensionsUsed) ? json.extensionsUsed : [];
  const extensions =
    typeof json.extensions === 'object' && json.extensions !== null ? (json.extensions as object) : {};
  if (used.includes('VRMC_vrm') || 'VRMC_vrm' in extensions) return 'vrm1';
  if (used.includes('VRM') || 'VRM' in extensions) return 'vrm0';
  return 'gltf';
}
