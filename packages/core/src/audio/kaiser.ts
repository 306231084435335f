/**
 * The Bessel function behind the Kaiser window, shared by every windowed-sinc filter design in the
 * project (core's resampler, the engine's half-band decimator and its training's rate changes).
 */

/**
 * Zeroth-order modified Bessel function of the first kind, I₀(x), by its power series, summed
 * until a term no longer changes the double-precision result. The Kaiser window of shape β at
 * u ∈ [-1, 1] is `besselI0(β·√(1 − u²)) / besselI0(β)`.
 */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 200; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}
