/**
 * A test avatar whose mouth shows in pixels: a red square "face" (a 16 × 16 vertex grid) whose
 * `jawOpen` target pulls its lower half down by 0.25, plus blink targets so the rig binds like a
 * real ARKit avatar. Written as a glTF 2.0 binary by hand (no three.js exporter in Node).
 */

const GRID = 16;

export function makeFaceGlb(): Buffer {
  const count = GRID * GRID;
  const positions = new Float32Array(count * 3);
  const jaw = new Float32Array(count * 3);
  const blink = new Float32Array(count * 3);
  for (let row = 0; row < GRID; row++) {
    for (let col = 0; col < GRID; col++) {
      const i = row * GRID + col;
      const x = col / (GRID - 1) - 0.5;
      const y = row / (GRID - 1) - 0.5;
      positions.set([x, y, 0], i * 3);
      if (y < 0) jaw.set([0, -0.25 * (-y / 0.5), 0], i * 3);
      if (y > 0.2) blink.set([0, -0.02, 0], i * 3);
    }
  }
  const indices = new Uint16Array((GRID - 1) * (GRID - 1) * 6);
  let k = 0;
  for (let row = 0; row < GRID - 1; row++) {
    for (let col = 0; col < GRID - 1; col++) {
      const a = row * GRID + col;
      indices.set([a, a + 1, a + GRID, a + 1, a + GRID + 1, a + GRID], k);
      k += 6;
    }
  }
  const targetNames = ['jawOpen', 'eyeBlinkLeft', 'eyeBlinkRight'];
  const chunks = [positions, jaw, blink, blink, indices];
  const views: Array<{ buffer: 0; byteOffset: number; byteLength: number }> = [];
  let offset = 0;
  for (const chunk of chunks) {
    views.push({ buffer: 0, byteOffset: offset, byteLength: chunk.byteLength });
    offset += Math.ceil(chunk.byteLength / 4) * 4;
  }
  const bin = Buffer.alloc(offset);
  chunks.forEach((chunk, i) => {
    Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).copy(bin, views[i]!.byteOffset);
  });
  const vec3 = (view: number, min: number[], max: number[]) => ({
    bufferView: view,
    componentType: 5126,
    count,
    type: 'VEC3',
    min,
    max,
  });
  const gltf = {
    asset: { version: '2.0', generator: 'avatar-drive react-native tests' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'Face' }],
    materials: [
      {
        pbrMetallicRoughness: {
          baseColorFactor: [0.85, 0.1, 0.1, 1],
          metallicFactor: 0,
          roughnessFactor: 0.8,
        },
      },
    ],
    meshes: [
      {
        name: 'Face',
        primitives: [
          {
            attributes: { POSITION: 0 },
            indices: 4,
            material: 0,
            targets: [{ POSITION: 1 }, { POSITION: 2 }, { POSITION: 3 }],
          },
        ],
        weights: [0, 0, 0],
        extras: { targetNames },
      },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: views,
    accessors: [
      vec3(0, [-0.5, -0.5, 0], [0.5, 0.5, 0]),
      vec3(1, [0, -0.25, 0], [0, 0, 0]),
      vec3(2, [0, -0.02, 0], [0, 0, 0]),
      vec3(3, [0, -0.02, 0], [0, 0, 0]),
      { bufferView: 4, componentType: 5123, count: indices.length, type: 'SCALAR' },
    ],
  };
  let json = Buffer.from(JSON.stringify(gltf), 'utf8');
  if (json.length % 4) json = Buffer.concat([json, Buffer.alloc(4 - (json.length % 4), 0x20)]);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0); // glTF
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + bin.length, 8);
  const jsonHeader = Buffer.alloc(8);
  jsonHeader.writeUInt32LE(json.length, 0);
  jsonHeader.writeUInt32LE(0x4e4f534a, 4); // JSON
  const binHeader = Buffer.alloc(8);
  binHeader.writeUInt32LE(bin.length, 0);
  binHeader.writeUInt32LE(0x004e4942, 4); // BIN
  return Buffer.concat([header, jsonHeader, json, binHeader, bin]);
}
