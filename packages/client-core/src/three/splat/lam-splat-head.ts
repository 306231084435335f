/**
 * A LAM Gaussian-splat head drawn with Spark (`@sparkjsdev/spark`, loaded on first use) and driven
 * by the same rig as a mesh: skin.glb is loaded and bound like any ARKit glTF (its morph weights
 * and bones follow the drive frames) but not drawn; each Gaussian sits on its vertex and follows it
 * on the GPU, in a Spark dyno modifier:
 *
 *   centre = vertex rest position + the Gaussian's offset + Σₖ wₖ · Δₖ[vertex]   (ARKit morphs)
 *   then linear-blend skinning with the vertex's joints and weights (centre and orientation).
 *
 * The CPU only uploads, per frame, the weights that are not zero and the bones' skinning matrices.
 */
import type { LamArchive } from '@avatar-drive/core';
import type * as Spark from '@sparkjsdev/spark';
import * as THREE from 'three';

/** Width of the data textures (index → texel: x = i % WIDTH, y = i / WIDTH). */
const WIDTH = 2048;
/** Most morph targets driven at once (the active list's texels). */
const MAX_ACTIVE = 256;

type SparkModule = typeof Spark;
let sparkModule: Promise<SparkModule> | undefined;

/** Spark, imported once (a separate chunk: pages without splat avatars never fetch it). */
export function loadSpark(): Promise<SparkModule> {
  sparkModule ??= import('@sparkjsdev/spark');
  return sparkModule;
}

const LAM_DRIVE_TYPE = { type: 'LamDrive' } as const;

const DEFINE_LAM_DRIVE = `
struct LamDrive {
  int numSplats;
  int activeCount;
  int skinned;
  sampler2D deltas;
  sampler2D weights;
  sampler2D skin;
  sampler2D bones;
};
`;

const DEFINE_APPLY_LAM_DRIVE = `
ivec2 lamTexel(int index) {
  return ivec2(index % ${WIDTH}, index / ${WIDTH});
}

mat4 lamBone(sampler2D bones, int bone) {
  return mat4(
    texelFetch(bones, ivec2(0, bone), 0),
    texelFetch(bones, ivec2(1, bone), 0),
    texelFetch(bones, ivec2(2, bone), 0),
    texelFetch(bones, ivec2(3, bone), 0)
  );
}

void applyLamDrive(LamDrive drive, int index, inout vec3 center, inout vec3 scales, inout vec4 quaternion) {
  if (index < 0 || index >= drive.numSplats) return;
  for (int a = 0; a < ${MAX_ACTIVE}; a++) {
    if (a >= drive.activeCount) break;
    vec4 kw = texelFetch(drive.weights, ivec2(a, 0), 0);
    int k = int(kw.x + 0.5);
    center += kw.y * texelFetch(drive.deltas, lamTexel(k * drive.numSplats + index), 0).xyz;
  }
  if (drive.skinned == 0) return;
  vec4 joints = texelFetch(drive.skin, lamTexel(2 * index), 0);
  vec4 weights = texelFetch(drive.skin, lamTexel(2 * index + 1), 0);
  mat4 m = weights.x * lamBone(drive.bones, int(joints.x + 0.5))
    + weights.y * lamBone(drive.bones, int(joints.y + 0.5))
    + weights.z * lamBone(drive.bones, int(joints.z + 0.5))
    + weights.w * lamBone(drive.bones, int(joints.w + 0.5));
  center = (m * vec4(center, 1.0)).xyz;
  // Rigs whose bones carry a scale (LAM's skeleton is in centimetres under a 0.01 root) scale the
  // Gaussians with them; for rigid bones this is 1.
  scales *= vec3(length(m[0].xyz), length(m[1].xyz), length(m[2].xyz));
  // Orientation: the weighted bone rotations (kept in one hemisphere), normalised.
  vec4 q = weights.x * texelFetch(drive.bones, ivec2(4, int(joints.x + 0.5)), 0);
  vec4 q1 = texelFetch(drive.bones, ivec2(4, int(joints.y + 0.5)), 0);
  vec4 q2 = texelFetch(drive.bones, ivec2(4, int(joints.z + 0.5)), 0);
  vec4 q3 = texelFetch(drive.bones, ivec2(4, int(joints.w + 0.5)), 0);
  q += weights.y * (dot(q, q1) < 0.0 ? -q1 : q1);
  q += weights.z * (dot(q, q2) < 0.0 ? -q2 : q2);
  q += weights.w * (dot(q, q3) < 0.0 ? -q3 : q3);
  float n = length(q);
  if (n > 0.0) quaternion = quatQuat(q / n, quaternion);
}
`;

function floatTexture(data: Float32Array, width: number, height: number): THREE.DataTexture {
  const texture = new THREE.DataTexture(data, width, height, THREE.RGBAFormat, THREE.FloatType);
  texture.internalFormat = 'RGBA32F';
  texture.minFilter = THREE.NearestFilter;
  texture.magFilter = THREE.NearestFilter;
  texture.needsUpdate = true;
  return texture;
}

/** The splat head of one LAM avatar. */
export class LamSplatHead {
  /** The Spark object drawn in place of skin.glb's mesh. */
  readonly splats: THREE.Object3D;
  /** Gaussians drawn (one per vertex). */
  readonly count: number;
  readonly #mesh: THREE.Mesh;
  readonly #skinned: THREE.SkinnedMesh | undefined;
  readonly #activeData: Float32Array;
  readonly #active: THREE.DataTexture;
  readonly #boneData: Float32Array | undefined;
  readonly #bones: THREE.DataTexture | undefined;
  readonly #textures: THREE.Texture[];
  readonly #drive: { numSplats: number; activeCount: number; skinned: number } & Record<string, unknown>;
  readonly #packed: Spark.PackedSplats;
  readonly #splatMesh: Spark.SplatMesh;
  #lastWeights: number[] = [];

  private constructor(spark: SparkModule, lam: LamArchive, mesh: THREE.Mesh) {
    this.#mesh = mesh;
    const n = lam.vertexCount;
    this.count = n;
    const geometry = mesh.geometry;
    const position = geometry.getAttribute('position');
    const cloud = lam.splats;

    // Rest centres: the vertex plus the Gaussian's offset (the morphs and skinning are on the GPU).
    this.#packed = new spark.PackedSplats({ maxSplats: n });
    const center = new THREE.Vector3();
    const scale = new THREE.Vector3();
    const quaternion = new THREE.Quaternion();
    const color = new THREE.Color();
    for (let i = 0; i < n; i++) {
      center.set(
        position.getX(i) + cloud.positions[i * 3]!,
        position.getY(i) + cloud.positions[i * 3 + 1]!,
        position.getZ(i) + cloud.positions[i * 3 + 2]!,
      );
      scale.set(cloud.scales[i * 3]!, cloud.scales[i * 3 + 1]!, cloud.scales[i * 3 + 2]!);
      quaternion.set(
        cloud.rotations[i * 4]!,
        cloud.rotations[i * 4 + 1]!,
        cloud.rotations[i * 4 + 2]!,
        cloud.rotations[i * 4 + 3]!,
      );
      color.setRGB(cloud.colors[i * 3]!, cloud.colors[i * 3 + 1]!, cloud.colors[i * 3 + 2]!);
      this.#packed.pushSplat(center, scale, quaternion, cloud.opacities[i]!, color);
    }

    // Morph deltas: target k of vertex i at texel k·n + i.
    const targets = geometry.morphAttributes.position ?? [];
    const relative = geometry.morphTargetsRelative;
    const deltaTexels = Math.max(1, targets.length * n);
    const deltaData = new Float32Array(WIDTH * Math.ceil(deltaTexels / WIDTH) * 4);
    targets.forEach((target, k) => {
      for (let i = 0; i < n; i++) {
        const at = (k * n + i) * 4;
        deltaData[at] = target.getX(i) - (relative ? 0 : position.getX(i));
        deltaData[at + 1] = target.getY(i) - (relative ? 0 : position.getY(i));
        deltaData[at + 2] = target.getZ(i) - (relative ? 0 : position.getZ(i));
      }
    });
    const deltas = floatTexture(deltaData, WIDTH, deltaData.length / 4 / WIDTH);
    this.#activeData = new Float32Array(MAX_ACTIVE * 4);
    this.#active = floatTexture(this.#activeData, MAX_ACTIVE, 1);

    // Skinning: joints and weights per vertex (two texels), one matrix + quaternion per bone.
    const skinned = (mesh as THREE.SkinnedMesh).isSkinnedMesh ? (mesh as THREE.SkinnedMesh) : undefined;
    this.#skinned = skinned;
    const skinData = new Float32Array(WIDTH * Math.ceil((2 * n) / WIDTH) * 4);
    const joints = geometry.getAttribute('skinIndex');
    const weights = geometry.getAttribute('skinWeight');
    if (skinned && joints && weights) {
      for (let i = 0; i < n; i++) {
        for (let c = 0; c < 4; c++) {
          skinData[i * 8 + c] = joints.getComponent(i, c);
          skinData[i * 8 + 4 + c] = weights.getComponent(i, c);
        }
      }
      const boneCount = skinned.skeleton.bones.length;
      this.#boneData = new Float32Array(5 * boneCount * 4);
      this.#bones = floatTexture(this.#boneData, 5, boneCount);
    }
    const skin = floatTexture(skinData, WIDTH, skinData.length / 4 / WIDTH);
    this.#textures = [deltas, this.#active, skin, ...(this.#bones ? [this.#bones] : [])];

    this.#drive = {
      numSplats: n,
      activeCount: 0,
      skinned: this.#bones ? 1 : 0,
      deltas,
      weights: this.#active,
      skin,
      bones: this.#bones ?? deltas,
    };
    const { dyno } = spark;
    const uniform = new dyno.DynoUniform({
      key: 'lamDrive',
      type: LAM_DRIVE_TYPE,
      globals: () => [DEFINE_LAM_DRIVE],
      value: this.#drive,
    });
    const modifier = dyno.dynoBlock({ gsplat: dyno.Gsplat }, { gsplat: dyno.Gsplat }, ({ gsplat }) => {
      const apply = new dyno.Dyno({
        inTypes: { gsplat: dyno.Gsplat, drive: LAM_DRIVE_TYPE },
        outTypes: { gsplat: dyno.Gsplat },
        inputs: { gsplat, drive: uniform },
        globals: () => [DEFINE_LAM_DRIVE, DEFINE_APPLY_LAM_DRIVE],
        statements: ({ inputs, outputs }) => [
          `${outputs.gsplat} = ${inputs.gsplat};`,
          `if (isGsplatActive(${outputs.gsplat}.flags)) {`,
          `  applyLamDrive(${inputs.drive}, ${outputs.gsplat}.index, ${outputs.gsplat}.center, ${outputs.gsplat}.scales, ${outputs.gsplat}.quaternion);`,
          '}',
        ],
      });
      return { gsplat: apply.outputs.gsplat };
    });
    this.#splatMesh = new spark.SplatMesh({ packedSplats: this.#packed, objectModifier: modifier });
    // Same place as the mesh: the skinning and morphs are in the mesh's space.
    this.#splatMesh.position.copy(mesh.position);
    this.#splatMesh.quaternion.copy(mesh.quaternion);
    this.#splatMesh.scale.copy(mesh.scale);
    this.splats = this.#splatMesh;
    mesh.parent?.add(this.#splatMesh);
    // The mesh is bound and posed but not drawn.
    mesh.visible = false;
  }

  /**
   * Builds the splat head of `lam` over `mesh` (skin.glb's mesh with its morph targets, as loaded
   * by three's GLTFLoader). Resolves once Spark has loaded and the splats are packed.
   */
  static async create(lam: LamArchive, mesh: THREE.Mesh): Promise<LamSplatHead> {
    const spark = await loadSpark();
    const head = new LamSplatHead(spark, lam, mesh);
    await head.#splatMesh.initialized;
    return head;
  }

  /** A Spark renderer for `renderer`, to add to the scene once (it draws every SplatMesh in it). */
  static async renderer(renderer: THREE.WebGLRenderer): Promise<THREE.Object3D> {
    const spark = await loadSpark();
    return new spark.SparkRenderer({ renderer });
  }

  /**
   * Uploads what the drive set since the last frame — the non-zero morph weights and the bones'
   * skinning matrices — and asks Spark to regenerate the splats when either changed.
   */
  update(): void {
    let changed = false;
    const influences = this.#mesh.morphTargetInfluences ?? [];
    let count = 0;
    for (let k = 0; k < influences.length && count < MAX_ACTIVE; k++) {
      const w = influences[k]!;
      if (w !== this.#lastWeights[k]) changed = true;
      this.#lastWeights[k] = w;
      if (w === 0) continue;
      this.#activeData[count * 4] = k;
      this.#activeData[count * 4 + 1] = w;
      count++;
    }
    if (changed || count !== this.#drive.activeCount) {
      this.#drive.activeCount = count;
      this.#active.needsUpdate = true;
      changed = true;
    }
    if (this.#skinned && this.#boneData && this.#bones && this.#updateBones()) changed = true;
    if (changed) this.#splatMesh.updateVersion();
  }

  /** Frees the splats, Spark's buffers and the data textures. */
  dispose(): void {
    this.#splatMesh.removeFromParent();
    this.#splatMesh.dispose();
    this.#packed.dispose();
    for (const texture of this.#textures) texture.dispose();
  }

  #matrix = new THREE.Matrix4();
  #position = new THREE.Vector3();
  #rotation = new THREE.Quaternion();
  #scale = new THREE.Vector3();

  /** Writes bindMatrixInverse · boneMatrix · bindMatrix (three's skinning) per bone; true when any changed. */
  #updateBones(): boolean {
    const skinned = this.#skinned!;
    const data = this.#boneData!;
    skinned.updateMatrixWorld(true);
    skinned.skeleton.bones[0]?.parent?.updateMatrixWorld(true);
    skinned.skeleton.update();
    const matrices = skinned.skeleton.boneMatrices!;
    let changed = false;
    for (let b = 0; b < skinned.skeleton.bones.length; b++) {
      const m = this.#matrix.fromArray(matrices, b * 16);
      m.premultiply(skinned.bindMatrixInverse).multiply(skinned.bindMatrix);
      m.decompose(this.#position, this.#rotation, this.#scale);
      const e = m.elements;
      const at = b * 20;
      for (let c = 0; c < 16; c++) {
        if (data[at + c] !== e[c]) changed = true;
        data[at + c] = e[c]!;
      }
      data[at + 16] = this.#rotation.x;
      data[at + 17] = this.#rotation.y;
      data[at + 18] = this.#rotation.z;
      data[at + 19] = this.#rotation.w;
    }
    if (changed) this.#bones!.needsUpdate = true;
    return changed;
  }
}
