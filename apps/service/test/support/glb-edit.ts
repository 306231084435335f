/** Takes GLBs apart and puts them back together, so tests can build broken files from valid ones. */

/** The JSON and BIN chunks of a GLB. */
export interface GlbParts {
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into arbitrary glTF JSON to break it
  json: Record<string, any>;
  bin: Buffer;
}

export function splitGlb(glb: Buffer): GlbParts {
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength;
  const bin =
    binStart + 8 <= glb.length
      ? glb.subarray(binStart + 8, binStart + 8 + glb.readUInt32LE(binStart))
      : Buffer.alloc(0);
  return { json, bin: Buffer.from(bin) };
}

/** Packs JSON (an object or raw text) and BIN into a GLB with correct lengths and padding. */
export function packGlb(json: Record<string, unknown> | string, bin: Buffer): Buffer {
  let text = Buffer.from(typeof json === 'string' ? json : JSON.stringify(json), 'utf8');
  if (text.length % 4) text = Buffer.concat([text, Buffer.alloc(4 - (text.length % 4), 0x20)]);
  let data = bin;
  if (data.length % 4) data = Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + text.length + (data.length ? 8 + data.length : 0), 8);
  const jsonHeader = Buffer.alloc(8);
  jsonHeader.writeUInt32LE(text.length, 0);
  jsonHeader.writeUInt32LE(0x4e4f534a, 4);
  if (!data.length) return Buffer.concat([header, jsonHeader, text]);
  const binHeader = Buffer.alloc(8);
  binHeader.writeUInt32LE(data.length, 0);
  binHeader.writeUInt32LE(0x004e4942, 4);
  return Buffer.concat([header, jsonHeader, text, binHeader, data]);
}

/** The GLB with its JSON changed by `edit` (which may return replacement JSON text). */
export function editGlb(glb: Buffer, edit: (json: GlbParts['json'], bin: Buffer) => unknown): Buffer {
  const { json, bin } = splitGlb(glb);
  const replaced = edit(json, bin);
  return packGlb(typeof replaced === 'string' ? replaced : json, bin);
}

/**
 * A VRM from a GLB with morph targets: VRM 1.0 (`VRMC_vrm`, expressions aa/ih/ou/ee/oh/blink bound
 * to targets 0–5) or VRM 0.x (`VRM`, the A I U E O / BLINK blend shape groups).
 */
export function toVrm(glb: Buffer, version: 0 | 1, name = 'Test VRM'): Buffer {
  return editGlb(glb, (json) => {
    const targets = json.meshes[0].primitives[0].targets.length as number;
    const bind = (i: number) => Math.min(i, targets - 1);
    if (version === 1) {
      json.extensionsUsed = ['VRMC_vrm'];
      json.extensions = {
        VRMC_vrm: {
          specVersion: '1.0',
          meta: {
            name,
            version: '1',
            authors: ['avatar-drive tests'],
            licenseUrl: 'https://vrm.dev/licenses/1.0/',
          },
          humanoid: { humanBones: { head: { node: 0 } } },
          expressions: {
            preset: Object.fromEntries(
              ['aa', 'ih', 'ou', 'ee', 'oh', 'blink'].map((n, i) => [
                n,
                { morphTargetBinds: [{ node: 0, index: bind(i), weight: 1 }] },
              ]),
            ),
          },
        },
      };
    } else {
      json.extensionsUsed = ['VRM'];
      json.extensions = {
        VRM: {
          exporterVersion: 'avatar-drive tests',
          meta: { title: name, version: '1', author: 'avatar-drive tests' },
          humanoid: { humanBones: [{ bone: 'head', node: 0 }] },
          blendShapeMaster: {
            blendShapeGroups: ['a', 'i', 'u', 'e', 'o', 'blink'].map((p, i) => ({
              name: p.toUpperCase(),
              presetName: p,
              binds: [{ mesh: 0, index: bind(i), weight: 100 }],
            })),
          },
        },
      };
    }
  });
}
