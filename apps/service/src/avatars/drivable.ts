/**
 * Coverage and the one refusal it implies: an avatar whose mouth nothing can move is useless for
 * lip-sync. Which channels bind, and how the rest fall back, is @avatar-drive/core's coverage
 * report (the same planner the renderers bind with).
 */
import { ARKIT_BLENDSHAPES, type AvatarCoverage, describeAvatarCoverage, VISEMES } from '@avatar-drive/core';
import { fileProblem } from './file-problem.js';
import type { PrecheckResult } from './glb-precheck.js';

const ARKIT_NAMES = new Set<string>(ARKIT_BLENDSHAPES);
const OCULUS_VISEME_NAMES = new Set<string>(VISEMES.map((v) => `viseme_${v}`));

/** ARKit and Oculus viseme target counts, by exact name (the `morphTargets` of manifests). */
export function morphTargetCounts(result: PrecheckResult): { arkit: number; visemes: number } {
  return {
    arkit: result.targetNames.filter((n) => ARKIT_NAMES.has(n)).length,
    visemes: result.targetNames.filter((n) => OCULUS_VISEME_NAMES.has(n)).length,
  };
}

/** The coverage report of a checked file; throws `notDrivable` when nothing moves its mouth. */
export function drivableCoverage(result: PrecheckResult): AvatarCoverage {
  const coverage = describeAvatarCoverage(result.gltf);
  if (coverage.mouth === 'none') {
    throw fileProblem(
      'notDrivable',
      'Nothing in this avatar can move its mouth: give it morph targets named after ARKit blendshapes (jawOpen, …), Oculus visemes (viseme_aa, …) or vowels (A I U E O; names in mesh.extras.targetNames), or export a VRM with the aa/ih/ou/ee/oh expressions.',
    );
  }
  return coverage;
}

/** What manifests and lists carry of the coverage (the upload response carries all of it). */
export function summariseCoverage(coverage: AvatarCoverage): Record<string, unknown> {
  return {
    format: coverage.format,
    mouth: coverage.mouth,
    counts: coverage.counts,
    missing: coverage.missing,
    fallbacks: coverage.fallbacks,
    warnings: coverage.warnings,
  };
}
