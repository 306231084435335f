// Decode time of the built-ins' embedded textures with the React Native view's JavaScript decoder
// (jpeg-js, fast-png), per image and per avatar: what a built-in's load spends before its first
// frame. Node's V8 here; Hermes on a phone runs the same code (not measured: no device).
// Usage: pnpm --filter @avatar-drive/react-native bench:textures [runs]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage, readImageSize, sniffImageKind } from '../src/image-decoding.js';
import { imageBytes, readGlb } from '../test/support/glb-images.js';

const runs = Number(process.argv[2] ?? 3);
const dist = join(import.meta.dirname, '../../avatars/dist');
console.log(`JavaScript texture decode, median of ${runs} runs (node ${process.version})`);
for (const id of ['noa', 'mika', 'juno']) {
  const glb = readGlb(new Uint8Array(readFileSync(join(dist, id, 'avatar.glb'))));
  let total = 0;
  let pixels = 0;
  for (let i = 0; i < (glb.json.images?.length ?? 0); i++) {
    const bytes = imageBytes(glb, i);
    const kind = sniffImageKind(bytes)!;
    const { width, height } = readImageSize(bytes, kind);
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      decodeImage(bytes);
      times.push(performance.now() - t);
    }
    const median = times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    total += median;
    pixels += width * height;
    console.log(
      `  ${id} image ${i}: ${kind} ${width}×${height} ${(bytes.length / 1024).toFixed(0)} KiB → ${median.toFixed(0)} ms`,
    );
  }
  console.log(
    `${id}: ${total.toFixed(0)} ms for ${(pixels / 1e6).toFixed(1)} Mpixel (${((pixels * 4) / 2 ** 20).toFixed(0)} MiB RGBA)`,
  );
}
