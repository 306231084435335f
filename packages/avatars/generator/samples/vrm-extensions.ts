/**
 * Writes the VRM extensions into an exported GLB: VRM 1.0 (`VRMC_vrm`, MToon materials, spring
 * bones) or VRM 0.x (`VRM`). The geometry stays as exported; only the JSON chunk grows.
 */
import { readGlb, writeGlb } from '../export-glb.js';
import type { HumanBones } from './skeleton.js';

type Json = Record<string, unknown>;
type Mix = Readonly<Record<string, number>>;

interface GltfDoc {
  nodes: { name?: string; mesh?: number }[];
  meshes: { name?: string; extras?: { targetNames?: string[] } }[];
  materials?: { name?: string; extensions?: Json }[];
  extensions?: Json;
  extensionsUsed?: string[];
}

/** What the extensions say beyond the geometry. */
export interface VrmDescription {
  name: string;
  version: string;
  authors: string[];
  /** The licence beyond the VRM Public License's permission fields (VRM 1.0 `otherLicenseUrl`). */
  otherLicenseUrl: string;
  bones: HumanBones;
  /** Preset expression → morph target name → weight (0..1). */
  expressions: Readonly<Record<string, Mix>>;
  /** Node names of one spring chain, root first (optional). */
  spring?: string[];
  /** Shade colour of each material by name (linear RGB), for MToon. */
  shade: Readonly<Record<string, [number, number, number]>>;
}

function nodeIndex(doc: GltfDoc, name: string): number {
  const index = doc.nodes.findIndex((n) => n.name === name);
  if (index < 0) throw new Error(`node ${name} not found in the exported scene`);
  return index;
}

/** Every (node, mesh, target index) carrying morph target `target`. */
function targetsNamed(doc: GltfDoc, target: string): { node: number; mesh: number; index: number }[] {
  const out: { node: number; mesh: number; index: number }[] = [];
  doc.nodes.forEach((node, i) => {
    if (node.mesh === undefined) return;
    const index = doc.meshes[node.mesh]?.extras?.targetNames?.indexOf(target) ?? -1;
    if (index >= 0) out.push({ node: i, mesh: node.mesh, index });
  });
  return out;
}

/** The VRM Public License 1.0, the only `meta.licenseUrl` VRM 1.0 allows. */
const VRM_PUBLIC_LICENSE = 'https://vrm.dev/licenses/1.0/';

const addUsed = (doc: GltfDoc, ...names: string[]): void => {
  doc.extensionsUsed = [...new Set([...(doc.extensionsUsed ?? []), ...names])];
};

/** The GLB with VRM 1.0 extensions. */
export function withVrm1(glb: Uint8Array, vrm: VrmDescription): Uint8Array {
  const { json, bin } = readGlb(glb) as unknown as { json: GltfDoc; bin: Uint8Array };
  const humanBones: Json = {};
  for (const [bone, node] of Object.entries(vrm.bones)) humanBones[bone] = { node: nodeIndex(json, node) };
  const preset: Json = {};
  for (const [name, mix] of Object.entries(vrm.expressions)) {
    preset[name] = {
      morphTargetBinds: Object.entries(mix).flatMap(([target, weight]) =>
        targetsNamed(json, target).map(({ node, index }) => ({ node, index, weight })),
      ),
      isBinary: false,
      overrideBlink: 'none',
      overrideLookAt: 'none',
      overrideMouth: 'none',
    };
  }
  json.extensions = {
    ...(json.extensions ?? {}),
    VRMC_vrm: {
      specVersion: '1.0',
      meta: {
        name: vrm.name,
        version: vrm.version,
        authors: vrm.authors,
        // VRM 1.0 fixes licenseUrl to the VRM Public License (players refuse others); the
        // permission fields below fill it in, and otherLicenseUrl names the package's own licence.
        licenseUrl: VRM_PUBLIC_LICENSE,
        otherLicenseUrl: vrm.otherLicenseUrl,
        avatarPermission: 'everyone',
        allowExcessivelyViolentUsage: false,
        allowExcessivelySexualUsage: false,
        commercialUsage: 'corporation',
        allowPoliticalOrReligiousUsage: false,
        allowAntisocialOrHateUsage: false,
        creditNotation: 'unnecessary',
        allowRedistribution: true,
        modification: 'allowModificationRedistribution',
      },
      humanoid: { humanBones },
      lookAt: {
        // From the head bone (the neck pivot) to between the eyes.
        offsetFromHeadBone: [0, 0.075, 0.1],
        type: 'bone',
        rangeMapHorizontalInner: { inputMaxValue: 90, outputScale: 12 },
        rangeMapHorizontalOuter: { inputMaxValue: 90, outputScale: 15 },
        rangeMapVerticalDown: { inputMaxValue: 90, outputScale: 10 },
        rangeMapVerticalUp: { inputMaxValue: 90, outputScale: 10 },
      },
      expressions: { preset, custom: {} },
    },
  };
  addUsed(json, 'VRMC_vrm');
  for (const material of json.materials ?? []) {
    const shade = vrm.shade[material.name ?? ''];
    if (!shade) continue;
    // Only MToon: a loader picks the first material type an extension asks for, and the PBR
    // extensions the exporter wrote (sheen, clearcoat) would win over it.
    material.extensions = {
      VRMC_materials_mtoon: {
        specVersion: '1.0',
        transparentWithZWrite: false,
        renderQueueOffsetNumber: 0,
        shadeColorFactor: shade,
        shadingShiftFactor: -0.1,
        shadingToonyFactor: 0.75,
        giEqualizationFactor: 0.9,
        parametricRimColorFactor: [0.12, 0.1, 0.1],
        rimLightingMixFactor: 1,
        parametricRimFresnelPowerFactor: 4,
        parametricRimLiftFactor: 0,
        outlineWidthMode: 'none',
        outlineWidthFactor: 0,
        outlineColorFactor: [0, 0, 0],
        outlineLightingMixFactor: 1,
      },
    };
    addUsed(json, 'VRMC_materials_mtoon');
  }
  const stillUsed = new Set((json.materials ?? []).flatMap((m) => Object.keys(m.extensions ?? {})));
  json.extensionsUsed = (json.extensionsUsed ?? []).filter(
    (name) => !name.startsWith('KHR_materials_') || stillUsed.has(name),
  );
  if (vrm.spring && vrm.spring.length > 1) {
    json.extensions.VRMC_springBone = {
      specVersion: '1.0',
      colliders: [],
      colliderGroups: [],
      springs: [
        {
          name: 'Ponytail',
          joints: vrm.spring.map((node) => ({
            node: nodeIndex(json, node),
            hitRadius: 0.015,
            stiffness: 0.6,
            gravityPower: 0.4,
            gravityDir: [0, -1, 0],
            dragForce: 0.35,
          })),
        },
      ],
    };
    addUsed(json, 'VRMC_springBone');
  }
  return writeGlb(json, bin);
}

/** VRM 0.x blend shape preset names of VRM 1.0 expressions. */
const VRM0_PRESET: Readonly<Record<string, string>> = {
  aa: 'a',
  ih: 'i',
  ou: 'u',
  ee: 'e',
  oh: 'o',
  blink: 'blink',
  blinkLeft: 'blink_l',
  blinkRight: 'blink_r',
  happy: 'joy',
};

/**
 * The GLB with the VRM 0.x extension. VRM 0.x models face −Z, so the scene must have been turned
 * half a turn about Y before export (see `turnToFaceMinusZ`).
 */
export function withVrm0(glb: Uint8Array, vrm: VrmDescription): Uint8Array {
  const { json, bin } = readGlb(glb) as unknown as { json: GltfDoc; bin: Uint8Array };
  const blendShapeGroups = Object.entries(vrm.expressions).map(([name, mix]) => ({
    name,
    presetName: VRM0_PRESET[name] ?? 'unknown',
    binds: Object.entries(mix).flatMap(([target, weight]) =>
      targetsNamed(json, target).map(({ mesh, index }) => ({ mesh, index, weight: weight * 100 })),
    ),
    materialValues: [],
    isBinary: false,
  }));
  const range = (degrees: number) => ({ curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 90, yRange: degrees });
  json.extensions = {
    ...(json.extensions ?? {}),
    VRM: {
      exporterVersion: 'avatar-drive-samples',
      specVersion: '0.0',
      meta: {
        title: vrm.name,
        version: vrm.version,
        author: vrm.authors.join(', '),
        allowedUserName: 'Everyone',
        violentUssageName: 'Disallow',
        sexualUssageName: 'Disallow',
        commercialUssageName: 'Allow',
        licenseName: 'Other',
        otherLicenseUrl: vrm.otherLicenseUrl,
      },
      humanoid: {
        humanBones: Object.entries(vrm.bones).map(([bone, node]) => ({
          bone,
          node: nodeIndex(json, node),
          useDefaultValues: true,
        })),
        armStretch: 0.05,
        legStretch: 0.05,
        upperArmTwist: 0.5,
        lowerArmTwist: 0.5,
        upperLegTwist: 0.5,
        lowerLegTwist: 0.5,
        feetSpacing: 0,
        hasTranslationDoF: false,
      },
      firstPerson: {
        firstPersonBone: nodeIndex(json, vrm.bones.head!),
        firstPersonBoneOffset: { x: 0, y: 0.075, z: -0.1 },
        meshAnnotations: [],
        lookAtTypeName: 'Bone',
        lookAtHorizontalInner: range(12),
        lookAtHorizontalOuter: range(15),
        lookAtVerticalDown: range(10),
        lookAtVerticalUp: range(10),
      },
      blendShapeMaster: { blendShapeGroups },
      secondaryAnimation: {
        // VRM 0.x lists a chain by its root: every descendant becomes a joint.
        boneGroups: vrm.spring?.length
          ? [
              {
                comment: 'Ponytail',
                stiffiness: 0.6,
                gravityPower: 0.4,
                gravityDir: { x: 0, y: -1, z: 0 },
                dragForce: 0.35,
                center: -1,
                hitRadius: 0.015,
                bones: [nodeIndex(json, vrm.spring[0]!)],
                colliderGroups: [],
              },
            ]
          : [],
        colliderGroups: [],
      },
      materialProperties: [],
    },
  };
  addUsed(json, 'VRM');
  return writeGlb(json, bin);
}
