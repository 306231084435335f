/**
 * The cheaper surface path for slow renderers: removes the per-pixel relief maps (tangent-space
 * normal maps, bump maps, baked ambient occlusion) from a loaded model's materials. Colour and
 * roughness maps stay, so the avatar keeps its colours and its matte/glossy zones; pores, fine
 * lines and creases go. Under software WebGL the normal map is most of the fragment cost a
 * textured skin adds (figures in docs/benchmarks.md, "Client rendering cost").
 */
import type * as THREE from 'three';

/** Material slots that only add relief or occlusion, never colour or the gloss of a zone. */
const DETAIL_SLOTS = ['normalMap', 'clearcoatNormalMap', 'bumpMap', 'aoMap'] as const;

/**
 * Drops the detail maps of every material under `root` (textures disposed, shaders recompiled on
 * the next render). Returns how many maps it removed.
 */
export function dropSurfaceDetail(root: THREE.Object3D): number {
  let dropped = 0;
  const seen = new Set<THREE.Material>();
  root.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    for (const material of [mesh.material].flat()) {
      if (seen.has(material)) continue;
      seen.add(material);
      const slots = material as unknown as Record<string, THREE.Texture | null | undefined>;
      let changed = false;
      for (const slot of DETAIL_SLOTS) {
        const texture = slots[slot];
        if (!texture) continue;
        // The occlusion map often shares its image with the roughness map (glTF's ORM texture):
        // dispose the texture only when no slot that stays still uses it.
        const stillUsed = Object.entries(slots).some(
          ([key, value]) => value === texture && !(DETAIL_SLOTS as readonly string[]).includes(key),
        );
        if (!stillUsed) texture.dispose();
        slots[slot] = null;
        dropped++;
        changed = true;
      }
      if (changed) material.needsUpdate = true;
    }
  });
  return dropped;
}
