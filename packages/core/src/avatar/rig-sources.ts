/**
 * What an avatar offers to bind, platform-neutral: its meshes' morph target names, its VRM
 * expressions, its head/neck/jaw/eye bones and lookAt. Read here from a parsed glTF JSON
 * document; a renderer builds the same description from the objects it actually loaded, so the
 * coverage it reports is what bound at run time.
 */

/** A humanoid bone a drive pose can turn. */
export type PoseBoneName = 'head' | 'neck' | 'jaw' | 'leftEye' | 'rightEye';

/** One mesh's morph targets. */
export interface MeshSource {
  /** Mesh name (or `mesh<i>` when the file gives none). */
  name: string;
  /** Morph target names in target order (empty strings where the file names none). */
  targets: readonly string[];
  /** Indices of targets a VRM expression already drives (not bound directly, so not driven twice). */
  owned?: readonly number[];
}

/** One VRM expression (VRM 0.x blend shape groups use their VRM 1.0 preset names). */
export interface ExpressionSource {
  /** `aa`, `blinkLeft`, `lookUp`, … for presets; the author's name for custom ones. */
  name: string;
  /** Whether it is a VRM preset (custom names are read like morph target names). */
  preset: boolean;
  /** Whether it changes anything (morph, material colour or texture binds). */
  bindsSomething: boolean;
}

/** Everything an avatar offers to the drive. */
export interface AvatarRigSources {
  /** `vrm1` (VRMC_vrm), `vrm0` (VRM extension) or a plain `gltf`. */
  kind: 'vrm1' | 'vrm0' | 'gltf';
  meshes: readonly MeshSource[];
  /** VRM expressions (empty for plain glTF). */
  expressions: readonly ExpressionSource[];
  /** Node names of the bones found (VRM humanoid, else nodes named like them). */
  bones: Readonly<Partial<Record<PoseBoneName, string>>>;
  /** A VRM lookAt and how it moves the eyes; `undefined` without one. */
  lookAt?: 'bone' | 'expression';
  /** Parts of the document that were malformed and skipped, said plainly. */
  warnings: readonly string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** VRM 0.x blend shape preset → VRM 1.0 expression preset (the names three-vrm exposes). */
const VRM0_PRESETS: Readonly<Record<string, string>> = {
  a: 'aa',
  i: 'ih',
  u: 'ou',
  e: 'ee',
  o: 'oh',
  blink: 'blink',
  blink_l: 'blinkLeft',
  blink_r: 'blinkRight',
  joy: 'happy',
  angry: 'angry',
  sorrow: 'sad',
  fun: 'relaxed',
  lookup: 'lookUp',
  lookdown: 'lookDown',
  lookleft: 'lookLeft',
  lookright: 'lookRight',
  neutral: 'neutral',
};

const BONE_NAMES: readonly PoseBoneName[] = ['head', 'neck', 'jaw', 'leftEye', 'rightEye'];

/**
 * Reads what a glTF JSON document (a `.gltf`, or the JSON chunk of a `.glb` / `.vrm`) offers
 * to bind. Never throws on a malformed document: what cannot be read is skipped and said in
 * `warnings`.
 */
export function readRigSources(gltf: Json): AvatarRigSources {
  const warnings: string[] = [];
  const extensions = isObject(gltf.extensions) ? gltf.extensions : {};
  const nodes = list(gltf.nodes);
  const meshes = list(gltf.meshes).map((mesh, i) => readMesh(mesh, i));
  let kind: AvatarRigSources['kind'] = 'gltf';
  let expressions: ExpressionSource[] = [];
  let bones: Partial<Record<PoseBoneName, string>> = {};
  let lookAt: AvatarRigSources['lookAt'];
  const nodeName = (index: unknown): string | undefined => {
    if (!isIndex(index) || index >= nodes.length) return undefined;
    const node = nodes[index];
    return isObject(node) && typeof node.name === 'string' && node.name ? node.name : `node${index}`;
  };
  const own = (meshIndex: unknown, targetIndex: unknown): void => {
    if (!isIndex(meshIndex) || !isIndex(targetIndex) || meshIndex >= meshes.length) return;
    (meshes[meshIndex]!.owned as number[]).push(targetIndex);
  };

  if ('VRMC_vrm' in extensions) {
    kind = 'vrm1';
    const vrm = extensions.VRMC_vrm;
    if (!isObject(vrm)) warnings.push('extensions.VRMC_vrm is not an object; read as plain glTF.');
    else {
      const exprs = isObject(vrm.expressions) ? vrm.expressions : {};
      for (const [group, preset] of [
        ['preset', true],
        ['custom', false],
      ] as const) {
        const entries = exprs[group];
        if (entries === undefined) continue;
        if (!isObject(entries)) {
          warnings.push(`extensions.VRMC_vrm.expressions.${group} is not an object; skipped.`);
          continue;
        }
        for (const [name, expression] of Object.entries(entries)) {
          if (!isObject(expression)) {
            warnings.push(`VRM expression ${JSON.stringify(name)} is not an object; skipped.`);
            continue;
          }
          const morphBinds = list(expression.morphTargetBinds);
          for (const bind of morphBinds) {
            if (!isObject(bind)) continue;
            const node = isIndex(bind.node) ? nodes[bind.node] : undefined;
            own(isObject(node) ? node.mesh : undefined, bind.index);
          }
          const bindsSomething =
            morphBinds.length > 0 ||
            list(expression.materialColorBinds).length > 0 ||
            list(expression.textureTransformBinds).length > 0;
          expressions.push({ name, preset, bindsSomething });
        }
      }
      const humanBones = isObject(vrm.humanoid) ? vrm.humanoid.humanBones : undefined;
      if (isObject(humanBones)) {
        for (const bone of BONE_NAMES) {
          const entry = humanBones[bone];
          const name = isObject(entry) ? nodeName(entry.node) : undefined;
          if (name) bones[bone] = name;
        }
      } else warnings.push('extensions.VRMC_vrm.humanoid.humanBones is missing; bones found by name.');
      if (isObject(vrm.lookAt))
        lookAt =
          vrm.lookAt.type === 'expression' ? 'expression' : vrm.lookAt.type === 'bone' ? 'bone' : undefined;
    }
  } else if ('VRM' in extensions) {
    kind = 'vrm0';
    const vrm = extensions.VRM;
    if (!isObject(vrm)) warnings.push('extensions.VRM is not an object; read as plain glTF.');
    else {
      const master = isObject(vrm.blendShapeMaster) ? vrm.blendShapeMaster : {};
      const seen = new Set<string>();
      for (const group of list(master.blendShapeGroups)) {
        if (!isObject(group)) {
          warnings.push('A VRM blendShapeGroup is not an object; skipped.');
          continue;
        }
        const presetName = typeof group.presetName === 'string' ? group.presetName.toLowerCase() : 'unknown';
        const preset = VRM0_PRESETS[presetName];
        const name = preset ?? (typeof group.name === 'string' ? group.name : '');
        if (!name || seen.has(name)) continue; // three-vrm keeps the first of a repeated preset
        seen.add(name);
        const binds = list(group.binds);
        for (const bind of binds) if (isObject(bind)) own(bind.mesh, bind.index);
        expressions.push({
          name,
          preset: preset !== undefined,
          bindsSomething: binds.length > 0 || list(group.materialValues).length > 0,
        });
      }
      const humanBones = isObject(vrm.humanoid) ? list(vrm.humanoid.humanBones) : [];
      for (const entry of humanBones) {
        if (!isObject(entry) || !BONE_NAMES.includes(entry.bone as PoseBoneName)) continue;
        const name = nodeName(entry.node);
        if (name && !bones[entry.bone as PoseBoneName]) bones[entry.bone as PoseBoneName] = name;
      }
      if (humanBones.length === 0)
        warnings.push('extensions.VRM.humanoid.humanBones is missing; bones found by name.');
      const firstPerson = isObject(vrm.firstPerson) ? vrm.firstPerson : {};
      const type = typeof firstPerson.lookAtTypeName === 'string' ? firstPerson.lookAtTypeName : '';
      lookAt = type === 'BlendShape' ? 'expression' : type === 'Bone' ? 'bone' : undefined;
    }
  }
  if (Object.keys(bones).length === 0) bones = bonesByName(nodes);
  expressions = expressions.filter((e) => e.name.length > 0);
  return { kind, meshes, expressions, bones, lookAt, warnings };
}

function readMesh(mesh: unknown, index: number): MeshSource & { owned: number[] } {
  const m = isObject(mesh) ? mesh : {};
  const name = typeof m.name === 'string' && m.name ? m.name : `mesh${index}`;
  const primitives = list(m.primitives);
  const first = isObject(primitives[0]) ? primitives[0] : {};
  const count = list(first.targets).length;
  // Exporters put the names on the mesh (the convention three.js reads) or on the primitive.
  const names = [m.extras, first.extras]
    .map((extras) => (isObject(extras) ? list(extras.targetNames) : []))
    .find((n) => n.length > 0);
  const targets = Array.from({ length: Math.max(count, names?.length ?? 0) }, (_, i) =>
    typeof names?.[i] === 'string' ? (names[i] as string) : '',
  );
  return { name, targets, owned: [] };
}

/**
 * Bones of a file without a humanoid map, by node name (the same rule the web renderer uses):
 * `Head`, `Neck`, `Jaw`, `LeftEye` / `Eye_L`, `RightEye` / `Eye_R`, in any case.
 */
export function bonesByName(nodes: readonly unknown[]): Partial<Record<PoseBoneName, string>> {
  const bones: Partial<Record<PoseBoneName, string>> = {};
  for (const node of nodes) {
    if (!isObject(node) || typeof node.name !== 'string' || node.mesh !== undefined) continue;
    const bone = boneOfName(node.name);
    if (bone && !bones[bone]) bones[bone] = node.name;
  }
  return bones;
}

/** The pose bone a node name stands for (the web renderer's naming rule), or `undefined`. */
export function boneOfName(nodeName: string): PoseBoneName | undefined {
  const name = nodeName.toLowerCase();
  if (/(^|[^a-z])head$|^head/.test(name) && !/top|end/.test(name)) return 'head';
  if (/neck/.test(name)) return 'neck';
  if (/jaw/.test(name)) return 'jaw';
  if (/(left.?eye|eye.?(l|left))$/.test(name)) return 'leftEye';
  if (/(right.?eye|eye.?(r|right))$/.test(name)) return 'rightEye';
  return undefined;
}
