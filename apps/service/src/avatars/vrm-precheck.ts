/**
 * The VRM extension of an avatar file, checked before anything reads it: `VRMC_vrm` (VRM 1.0) or
 * `VRM` (0.x) — metadata, humanoid bones, expression / blend shape binds pointing at existing
 * nodes, meshes and morph targets, weights in range.
 */
import { fileProblem } from './file-problem.js';
import { type GltfJson, isIndex, isObject, list } from './gltf-json.js';

/** Checks the VRM extension when the file has one; returns its major version. */
export function checkVrm(gltf: GltfJson): 0 | 1 | undefined {
  const extensions = isObject(gltf.extensions) ? gltf.extensions : {};
  const used = Array.isArray(gltf.extensionsUsed) ? gltf.extensionsUsed : [];
  const nodes = list(gltf.nodes, 'nodes');
  const meshes = list(gltf.meshes, 'meshes');
  // Morph target count per mesh, computed once: binds may be many, and each names a mesh.
  const targetCounts = new Map<number, number>();
  const targetsOf = (mesh: number) => {
    let known = targetCounts.get(mesh);
    if (known === undefined) {
      known = 0;
      for (const p of list(meshes[mesh]?.primitives, 'primitives')) {
        if (Array.isArray(p.targets)) known = Math.max(known, p.targets.length);
      }
      targetCounts.set(mesh, known);
    }
    return known;
  };
  const malformed = (detail: string) =>
    fileProblem(
      'vrmMalformed',
      `The VRM extension is malformed: ${detail}. Export the avatar again (VRoid Studio, UniVRM or the VRM Blender add-on).`,
    );

  if ('VRMC_vrm' in extensions || used.includes('VRMC_vrm')) {
    const vrm = extensions.VRMC_vrm;
    if (!isObject(vrm)) throw malformed('extensions.VRMC_vrm is missing or not an object');
    if (typeof vrm.specVersion !== 'string') throw malformed('VRMC_vrm.specVersion is not a string');
    if (!isObject(vrm.meta) || typeof vrm.meta.name !== 'string')
      throw malformed('VRMC_vrm.meta.name is missing');
    if (!isObject(vrm.humanoid) || !isObject(vrm.humanoid.humanBones))
      throw malformed('VRMC_vrm.humanoid.humanBones is missing');
    for (const [bone, value] of Object.entries(vrm.humanoid.humanBones)) {
      if (!isObject(value) || !isIndex(value.node, nodes.length))
        throw malformed(`humanoid bone "${bone}" names no node of this file`);
    }
    if (vrm.expressions !== undefined) {
      if (!isObject(vrm.expressions)) throw malformed('VRMC_vrm.expressions is not an object');
      for (const group of ['preset', 'custom'] as const) {
        const entries = vrm.expressions[group];
        if (entries === undefined) continue;
        if (!isObject(entries)) throw malformed(`VRMC_vrm.expressions.${group} is not an object`);
        for (const [name, expression] of Object.entries(entries)) {
          if (!isObject(expression)) throw malformed(`expression "${name}" is not an object`);
          const binds = expression.morphTargetBinds ?? [];
          if (!Array.isArray(binds)) throw malformed(`expression "${name}".morphTargetBinds is not a list`);
          for (const bind of binds) {
            const node =
              isObject(bind) && isIndex(bind.node, nodes.length) ? nodes[bind.node as number]! : undefined;
            const mesh = node?.mesh;
            if (!isObject(bind) || !node || !isIndex(mesh, meshes.length))
              throw malformed(`expression "${name}" binds to no mesh node`);
            if (!isIndex(bind.index, targetsOf(mesh as number)))
              throw malformed(`expression "${name}" binds to a morph target its mesh lacks`);
            if (typeof bind.weight !== 'number' || !(bind.weight >= 0 && bind.weight <= 1)) {
              throw malformed(`expression "${name}" has a weight outside 0–1`);
            }
          }
        }
      }
    }
    return 1;
  }
  if ('VRM' in extensions || used.includes('VRM')) {
    const vrm = extensions.VRM;
    if (!isObject(vrm)) throw malformed('extensions.VRM is missing or not an object');
    if (!isObject(vrm.meta)) throw malformed('VRM.meta is missing');
    if (!isObject(vrm.humanoid) || !Array.isArray(vrm.humanoid.humanBones))
      throw malformed('VRM.humanoid.humanBones is not a list');
    for (const bone of vrm.humanoid.humanBones) {
      if (!isObject(bone) || typeof bone.bone !== 'string' || !isIndex(bone.node, nodes.length)) {
        throw malformed('a humanoid bone names no node of this file');
      }
    }
    if (vrm.blendShapeMaster !== undefined) {
      const groups = isObject(vrm.blendShapeMaster) ? vrm.blendShapeMaster.blendShapeGroups : undefined;
      if (!Array.isArray(groups)) throw malformed('VRM.blendShapeMaster.blendShapeGroups is not a list');
      for (const group of groups) {
        if (!isObject(group)) throw malformed('a blend shape group is not an object');
        const name = String(group.name ?? group.presetName ?? '?');
        const binds = group.binds ?? [];
        if (!Array.isArray(binds)) throw malformed(`blend shape group "${name}".binds is not a list`);
        for (const bind of binds) {
          if (!isObject(bind) || !isIndex(bind.mesh, meshes.length))
            throw malformed(`blend shape group "${name}" binds to no mesh`);
          if (!isIndex(bind.index, targetsOf(bind.mesh as number)))
            throw malformed(`blend shape group "${name}" binds to a morph target its mesh lacks`);
          if (typeof bind.weight !== 'number' || !(bind.weight >= 0 && bind.weight <= 100)) {
            throw malformed(`blend shape group "${name}" has a weight outside 0–100`);
          }
        }
      }
    }
    return 0;
  }
  return undefined;
}
