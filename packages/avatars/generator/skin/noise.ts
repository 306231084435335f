/**
 * Deterministic 3D value noise (no random state: the same point gives the same value on every
 * build, so the GLB bytes are reproducible). Inputs are in cells; callers scale metres to cells.
 */

/** A 32-bit integer hash of a lattice point, mapped to [0, 1). */
function hash3(x: number, y: number, z: number, seed: number): number {
  let h = (x * 374761393 + y * 668265263 + z * 2147483647 + seed * 144665) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const fade = (t: number): number => t * t * t * (t * (t * 6 - 15) + 10);

/** Smooth value noise in [0, 1). */
export function valueNoise(x: number, y: number, z: number, seed = 0): number {
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const zi = Math.floor(z);
  const fx = fade(x - xi);
  const fy = fade(y - yi);
  const fz = fade(z - zi);
  let out = 0;
  for (let dz = 0; dz < 2; dz++) {
    const wz = dz ? fz : 1 - fz;
    for (let dy = 0; dy < 2; dy++) {
      const wy = dy ? fy : 1 - fy;
      for (let dx = 0; dx < 2; dx++) {
        const wx = dx ? fx : 1 - fx;
        out += wx * wy * wz * hash3(xi + dx, yi + dy, zi + dz, seed);
      }
    }
  }
  return out;
}

/** Sum of `octaves` octaves of value noise, each twice the frequency and half the weight; in [0, 1). */
export function fbm(x: number, y: number, z: number, octaves: number, seed = 0): number {
  let sum = 0;
  let weight = 0.5;
  let total = 0;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += weight * valueNoise(x * f, y * f, z * f, seed + o * 31);
    total += weight;
    weight *= 0.5;
    f *= 2.03;
  }
  return sum / total;
}
