/** Builds tiny glTF 2.0 binaries for tests: one triangle with named morph targets. */

/** A valid .glb whose mesh has one morph target per name (mesh.extras.targetNames). */
export function makeGlb(targetNames: readonly string[], options: { assetVersion?: string } = {}): Buffer {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const delta = new Float32Array([0, 0, 0.01, 0, 0, 0.01, 0, 0, 0.01]);
  const bin = Buffer.alloc(36 * (1 + targetNames.length));
  Buffer.from(positions.buffer).copy(bin, 0);
  targetNames.forEach((_, i) => {
    Buffer.from(delta.buffer).copy(bin, 36 * (i + 1));
  });
  const accessor = (i: number) => ({
    bufferView: i,
    componentType: 5126,
    count: 3,
    type: 'VEC3',
    // Exact bounds (the Khronos validator checks them): base triangle, then +0.01 z deltas.
    min: i === 0 ? [0, 0, 0] : [0, 0, Math.fround(0.01)],
    max: i === 0 ? [1, 1, 0] : [0, 0, Math.fround(0.01)],
  });
  const gltf = {
    asset: { version: options.assetVersion ?? '2.0', generator: 'avatar-drive service tests' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'Head' }],
    meshes: [
      {
        name: 'Head',
        primitives: [
          {
            attributes: { POSITION: 0 },
            targets: targetNames.map((_, i) => ({ POSITION: i + 1 })),
          },
        ],
        weights: targetNames.map(() => 0),
        extras: { targetNames },
      },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [0, ...targetNames.map((_, i) => i + 1)].map((i) => ({
      buffer: 0,
      byteOffset: i * 36,
      byteLength: 36,
    })),
    accessors: [0, ...targetNames.map((_, i) => i + 1)].map(accessor),
  };
  let json = Buffer.from(JSON.stringify(gltf), 'utf8');
  if (json.length % 4) json = Buffer.concat([json, Buffer.alloc(4 - (json.length % 4), 0x20)]);
  const header = Buffer.alloc(12);
  const total = 12 + 8 + json.length + 8 + bin.length;
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(total, 8);
  const jsonHeader = Buffer.alloc(8);
  jsonHeader.writeUInt32LE(json.length, 0);
  jsonHeader.writeUInt32LE(0x4e4f534a, 4);
  const binHeader = Buffer.alloc(8);
  binHeader.writeUInt32LE(bin.length, 0);
  binHeader.writeUInt32LE(0x004e4942, 4);
  return Buffer.concat([header, jsonHeader, json, binHeader, bin]);
}
