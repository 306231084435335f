/**
 * Noa's short hair as cards (the generator's strand texture and card strips, hair/cards.ts) on
 * the real scalp: roots spread over the skin inside the hairline (hairline.ts), each lock combed
 * back and down from a crown whorl, with a side parting swept to the avatar's right at the front,
 * lying over the scalp (its distance from the skull centre read off the mesh) in three layers
 * that stand a little further out each.
 */
import { mulberry32 } from '@avatar-drive/core';
import { appendCard, type CardMesh, cardsPart, lockSlice } from '../hair/cards.js';
import type { LockPoint } from '../hair/locks.js';
import { add, clamp, cross, linearRgb, mix3, norm, scale, smoothstep, sub, type V3 } from '../math.js';
import type { Part } from '../part.js';
import { hairCover, type Skull } from './hairline.js';
import type { ObjFace, ObjMesh } from './hm08.js';

/** Cards per layer (inner to outer) and how far each layer stands off the scalp (metres). */
const LAYERS = [
  { cards: 420, lift: 0.0014, length: [0.03, 0.05], width: 0.0048 },
  { cards: 320, lift: 0.0032, length: [0.035, 0.06], width: 0.0042 },
  { cards: 200, lift: 0.0052, length: [0.04, 0.065], width: 0.0036 },
] as const;
const SAMPLES = 8;

/** The scalp as a radius per direction from the skull centre (binned), read off the skin vertices. */
function scalpRadius(points: readonly V3[], skull: Skull): (dir: V3) => number {
  const BINS = 48;
  const bins = new Float64Array(BINS * BINS);
  const binOf = (d: V3): number => {
    const az = Math.atan2(d[0], d[2]);
    const el = Math.asin(clamp(d[1], -1, 1));
    const i = Math.min(BINS - 1, Math.floor(((az + Math.PI) / (2 * Math.PI)) * BINS));
    const j = Math.min(BINS - 1, Math.floor(((el + Math.PI / 2) / Math.PI) * BINS));
    return j * BINS + i;
  };
  // Mean radius per bin (the max would follow the ears out), then smoothed over neighbours.
  const counts = new Float64Array(BINS * BINS);
  for (const p of points) {
    const v = sub(p, skull.centre);
    const r = Math.hypot(...v);
    const b = binOf(scale(v, 1 / r));
    bins[b]! += r;
    counts[b]! += 1;
  }
  for (let b = 0; b < bins.length; b++) bins[b] = counts[b]! > 0 ? bins[b]! / counts[b]! : 0;
  const neighbours = (b: number): number[] =>
    [b - 1, b + 1, b - BINS, b + BINS].filter((x) => x >= 0 && x < bins.length);
  // Empty bins (few vertices there) take their neighbours' radius.
  for (let pass = 0; pass < 6; pass++)
    for (let b = 0; b < bins.length; b++) {
      if (bins[b]! > 0) continue;
      const around = neighbours(b)
        .map((x) => bins[x]!)
        .filter((r) => r > 0);
      if (around.length > 0) bins[b] = around.reduce((s, r) => s + r, 0) / around.length;
    }
  for (let pass = 0; pass < 2; pass++) {
    const prev = bins.slice();
    for (let b = 0; b < bins.length; b++) {
      const around = neighbours(b).map((x) => prev[x]!);
      bins[b] = Math.max(prev[b]!, (prev[b]! * 2 + around.reduce((s, r) => s + r, 0)) / (2 + around.length));
    }
  }
  return (dir) => bins[binOf(dir)]!;
}

/** The comb direction at a scalp direction `d`: from the whorl back and down, swept right at the front. */
function combAt(d: V3, skull: Skull): V3 {
  const whorl = norm([-0.15, 0.85, -0.5]);
  // Away from the whorl along the sphere, and down.
  let dir = sub(d, whorl);
  if (Math.hypot(...dir) < 1e-3) dir = [0, 0, -1];
  dir = add(norm(dir), [0, -0.35, 0]);
  // Front: swept to the avatar's right (−x) off a parting on the left.
  const front = smoothstep(0.1, 0.6, d[2]) * smoothstep(0.1, 0.5, d[1]);
  dir = add(scale(dir, 1 - front), scale([-0.9, -0.15, 0.35], front));
  // Tangent to the sphere there.
  const n = d;
  const along = sub(dir, scale(n, dir[0] * n[0] + dir[1] * n[1] + dir[2] * n[2]));
  void skull;
  return norm(along);
}

export function buildHairCards(
  obj: ObjMesh,
  world: readonly V3[],
  skinFaces: readonly ObjFace[],
  skull: Skull,
  colors: { root: number; tip: number },
): Part {
  // The skull only (the neck and shoulders are not under the hair).
  const vertices = [...new Set(skinFaces.flatMap((f) => f.v))]
    .map((v) => world[v]!)
    .filter((p) => hairCover(p, skull) > 0.2 && Math.hypot(...sub(p, skull.centre)) < 0.14);
  void obj;
  const radius = scalpRadius(vertices, skull);
  const rootColor = linearRgb(colors.root);
  const tipColor = linearRgb(colors.tip);
  const mesh: CardMesh = { positions: [], colors: [], uvs: [], indices: [] };
  const rand = mulberry32(20251128);
  const onScalp = (d: V3, lift: number): V3 => add(skull.centre, scale(d, radius(d) + lift));
  LAYERS.forEach((layer, li) => {
    for (let c = 0; c < layer.cards; c++) {
      // Roots spread evenly over the hair region (uniform directions, kept where hair grows).
      let d: V3 = [0, 1, 0];
      for (let tries = 0; tries < 100; tries++) {
        const z = 2 * rand() - 1;
        const a = 2 * Math.PI * rand();
        const r = Math.sqrt(1 - z * z);
        const candidate: V3 = [r * Math.cos(a), z, r * Math.sin(a)];
        if (hairCover(onScalp(candidate, 0), skull) > 0.6) {
          d = candidate;
          break;
        }
      }
      const length = layer.length[0] + (layer.length[1] - layer.length[0]) * rand();
      // Shorter round the ears and at the nape.
      const lengthHere = length * (0.55 + 0.45 * smoothstep(-0.1, 0.5, d[1]));
      const step = lengthHere / (SAMPLES - 1);
      const shade = 0.75 + 0.5 * rand();
      const points: LockPoint[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const k = s / (SAMPLES - 1);
        // A lock ends where the hair does (a short cut: no strands over skin).
        if (s > 2 && hairCover(onScalp(d, 0), skull) < 0.15) break;
        // Lift: off the scalp at the root, a little more mid-lock for volume, settling at the tip.
        const lift = layer.lift * (0.6 + 0.8 * Math.sin(Math.PI * Math.min(1, k * 1.2)));
        const p = onScalp(d, lift);
        points.push({
          p,
          up: d,
          width: layer.width * (1 - 0.35 * k) * (0.8 + 0.4 * rand()),
          thickness: 0.0006,
          color: scale(mix3(rootColor, tipColor, k * (0.4 + 0.2 * li)), shade),
        });
        // Walk along the comb direction, turning slightly at random, staying over the hair region.
        const comb = combAt(d, skull);
        const wiggle = norm(cross(d, comb));
        const dirStep = add(comb, scale(wiggle, (rand() - 0.5) * 0.1));
        const next = add(onScalp(d, 0), scale(norm(dirStep), step));
        d = norm(sub(next, skull.centre));
      }
      if (points.length < 3) continue;
      const [u0, u1] = lockSlice(rand);
      appendCard(points, u0, u1, mesh, 0.85 + 0.15 * rand(), 1.3);
    }
  });
  return cardsPart(mesh);
}
