/** Small scalar helpers for the procedural modelling (kept free of three so fields stay cheap). */

export const clamp = (x: number, lo = 0, hi = 1): number => Math.max(lo, Math.min(hi, x));

export const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** Hermite step from 0 at `edge0` to 1 at `edge1` (either order). */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = clamp((x - edge0) / (edge1 - edge0));
  return t * t * (3 - 2 * t);
}

/** Unnormalised Gaussian falloff of a squared distance. */
export const gauss = (d2: number, sigma: number): number => Math.exp(-d2 / (2 * sigma * sigma));

export type V3 = [number, number, number];

export const v3 = (x: number, y: number, z: number): V3 => [x, y, z];
export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const len = (a: V3): number => Math.hypot(a[0], a[1], a[2]);
export const norm = (a: V3): V3 => scale(a, 1 / (len(a) || 1));
export const dist2 = (a: V3, b: V3): number => {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  const dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
};
/** `a·(1-t) + b·t` per component. */
export const mix3 = (a: V3, b: V3, t: number): V3 => [
  lerp(a[0], b[0], t),
  lerp(a[1], b[1], t),
  lerp(a[2], b[2], t),
];

/** Rotates `p` about the x axis through `pivot` by `angle` radians (positive: +z swings towards -y). */
export function rotX(p: V3, pivot: V3, angle: number): V3 {
  const y = p[1] - pivot[1];
  const z = p[2] - pivot[2];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [p[0], pivot[1] + y * c - z * s, pivot[2] + y * s + z * c];
}

/** Rotates `p` about the y axis through `pivot` by `angle` radians (positive: +z swings towards +x). */
export function rotY(p: V3, pivot: V3, angle: number): V3 {
  const x = p[0] - pivot[0];
  const z = p[2] - pivot[2];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [pivot[0] + x * c + z * s, p[1], pivot[2] - x * s + z * c];
}

/** sRGB hex colour to linear RGB (glTF vertex colours and factors are linear). */
export function linearRgb(hex: number): V3 {
  const toLinear = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return [toLinear((hex >> 16) & 255), toLinear((hex >> 8) & 255), toLinear(hex & 255)];
}
