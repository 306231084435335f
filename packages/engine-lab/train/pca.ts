/**
 * Principal axes of the standardised feature hops, for the model's per-hop projection
 * (ModelHeader.projection): the covariance over all training hops, diagonalised by cyclic Jacobi
 * rotations (the matrix is only FEATURE_DIM × FEATURE_DIM, so simple and exact enough).
 */

/** Eigen-decomposition of a symmetric n × n matrix (row-major): eigenvalues descending, eigenvectors as rows. */
export function symmetricEigen(
  matrix: Float64Array,
  n: number,
): { values: number[]; vectors: Float64Array[] } {
  const a = Float64Array.from(matrix);
  // v holds the accumulated rotations; its columns end up as the eigenvectors.
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        // The rotation angle that zeroes a[p][q] (Golub & Van Loan, the stable form).
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j]! - a[i * n + i]!);
  return {
    values: order.map((i) => a[i * n + i]!),
    vectors: order.map((i) => Float64Array.from({ length: n }, (_, k) => v[k * n + i]!)),
  };
}

/**
 * The `rows` leading principal axes of hops (count × dim, row-major, already standardised) as a
 * row-major rows × dim projection, and the share of the variance they keep.
 */
export function principalProjection(
  sets: { hops: Float32Array; count: number }[],
  dim: number,
  rows: number,
): { projection: number[]; kept: number } {
  const mean = new Float64Array(dim);
  const cov = new Float64Array(dim * dim);
  let n = 0;
  for (const s of sets) {
    for (let h = 0; h < s.count; h++) {
      const o = h * dim;
      for (let i = 0; i < dim; i++) {
        const x = s.hops[o + i]!;
        mean[i] = mean[i]! + x;
        for (let j = i; j < dim; j++) cov[i * dim + j] = cov[i * dim + j]! + x * s.hops[o + j]!;
      }
      n++;
    }
  }
  for (let i = 0; i < dim; i++) mean[i] = mean[i]! / n;
  for (let i = 0; i < dim; i++) {
    for (let j = i; j < dim; j++) {
      const c = cov[i * dim + j]! / n - mean[i]! * mean[j]!;
      cov[i * dim + j] = c;
      cov[j * dim + i] = c;
    }
  }
  const { values, vectors } = symmetricEigen(cov, dim);
  const total = values.reduce((sum, v) => sum + Math.max(0, v), 0);
  const kept = values.slice(0, rows).reduce((sum, v) => sum + Math.max(0, v), 0) / total;
  const projection: number[] = [];
  for (let r = 0; r < rows; r++) {
    // Sign convention: the largest component positive, so reruns give the same file.
    const vec = vectors[r]!;
    let big = 0;
    for (let i = 1; i < dim; i++) if (Math.abs(vec[i]!) > Math.abs(vec[big]!)) big = i;
    const sign = vec[big]! < 0 ? -1 : 1;
    for (let i = 0; i < dim; i++) projection.push(sign * vec[i]!);
  }
  return { projection, kept };
}
