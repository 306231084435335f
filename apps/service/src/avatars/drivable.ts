/**
 * Whether the rig can drive a checked avatar file at all: morph targets whose names the rig
 * mapping of @avatar-drive/avatars understands (ARKit, Oculus visemes, VRM/VRoid presets), or a
 * VRM with expressions. Which channels bind exactly is the coverage report's job.
 */
import { mapMorphTargets } from '@avatar-drive/avatars';
import { ARKIT_BLENDSHAPES, VISEMES } from '@avatar-drive/core';
import { fileProblem } from './file-problem.js';
import type { PrecheckResult } from './glb-precheck.js';

const ARKIT_NAMES = new Set<string>(ARKIT_BLENDSHAPES);
const OCULUS_VISEME_NAMES = new Set<string>(VISEMES.map((v) => `viseme_${v}`));

/** ARKit and Oculus viseme target counts, by exact name (shown in manifests). */
export function morphTargetCounts(result: PrecheckResult): { arkit: number; visemes: number } {
  return {
    arkit: result.targetNames.filter((n) => ARKIT_NAMES.has(n)).length,
    visemes: result.targetNames.filter((n) => OCULUS_VISEME_NAMES.has(n)).length,
  };
}

/** Throws `notDrivable` when nothing in the file can follow the rig. */
export function assertDrivable(result: PrecheckResult): void {
  if (mapMorphTargets(result.targetNames).bindings.length > 0) return;
  if (result.vrmVersion !== undefined && hasVrmExpressions(result)) return;
  throw fileProblem(
    'notDrivable',
    'No morph targets the rig can drive: name them after ARKit blendshapes (jawOpen, …), Oculus visemes (viseme_aa, …) or VRM presets (in mesh.extras.targetNames), or export a VRM with expressions.',
  );
}

function hasVrmExpressions(result: PrecheckResult): boolean {
  const extensions = result.gltf.extensions as Record<string, Record<string, unknown>> | undefined;
  if (result.vrmVersion === 1) {
    const expressions = extensions?.VRMC_vrm?.expressions as Record<string, object> | undefined;
    return Object.keys(expressions?.preset ?? {}).length + Object.keys(expressions?.custom ?? {}).length > 0;
  }
  const master = extensions?.VRM?.blendShapeMaster as { blendShapeGroups?: unknown[] } | undefined;
  return (master?.blendShapeGroups?.length ?? 0) > 0;
}
