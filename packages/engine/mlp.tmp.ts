import { MlpRunner } from './src/model.ts';
import { defaultModelWeights } from './src/weights.ts';

const w = defaultModelWeights();
function layer4(x: Float32Array, y: Float32Array, w: Float64Array, b: Float64Array, relu: boolean) {
  const fanIn = x.length,
    fanOut = y.length;
  let o = 0;
  for (; o + 3 < fanOut; o += 4) {
    const r0 = o * fanIn,
      r1 = r0 + fanIn,
      r2 = r1 + fanIn,
      r3 = r2 + fanIn;
    let p0 = b[o]!,
      p1 = b[o + 1]!,
      p2 = b[o + 2]!,
      p3 = b[o + 3]!;
    let q0 = 0,
      q1 = 0,
      q2 = 0,
      q3 = 0;
    let i = 0;
    for (; i + 1 < fanIn; i += 2) {
      const x0 = x[i]!,
        x1 = x[i + 1]!;
      p0 += w[r0 + i]! * x0;
      q0 += w[r0 + i + 1]! * x1;
      p1 += w[r1 + i]! * x0;
      q1 += w[r1 + i + 1]! * x1;
      p2 += w[r2 + i]! * x0;
      q2 += w[r2 + i + 1]! * x1;
      p3 += w[r3 + i]! * x0;
      q3 += w[r3 + i + 1]! * x1;
    }
    if (i < fanIn) {
      const x0 = x[i]!;
      p0 += w[r0 + i]! * x0;
      p1 += w[r1 + i]! * x0;
      p2 += w[r2 + i]! * x0;
      p3 += w[r3 + i]! * x0;
    }
    const s0 = p0 + q0,
      s1 = p1 + q1,
      s2 = p2 + q2,
      s3 = p3 + q3;
    y[o] = relu && s0 < 0 ? 0 : s0;
    y[o + 1] = relu && s1 < 0 ? 0 : s1;
    y[o + 2] = relu && s2 < 0 ? 0 : s2;
    y[o + 3] = relu && s3 < 0 ? 0 : s3;
  }
  for (; o < fanOut; o++) {
    let s = b[o]!;
    const r = o * fanIn;
    for (let i = 0; i < fanIn; i++) s += w[r + i]! * x[i]!;
    y[o] = relu && s < 0 ? 0 : s;
  }
}
const m = new MlpRunner(w);
for (let i = 0; i < m.input.length; i++) m.input[i] = Math.sin(i);
const N = 200000;
for (let rep = 0; rep < 3; rep++) {
  let t = process.hrtime.bigint();
  for (let k = 0; k < N; k++) m.run();
  console.log('current', Number(process.hrtime.bigint() - t) / N / 1000, 'us');
  const W = w.weights.map((a) => Float64Array.from(a));
  const B = w.biases.map((a) => Float64Array.from(a));
  const acts = w.header.layers.map((n) => new Float32Array(n));
  acts[0]!.set(m.input);
  t = process.hrtime.bigint();
  for (let k = 0; k < N; k++) for (let l = 0; l < 3; l++) layer4(acts[l]!, acts[l + 1]!, W[l]!, B[l]!, l < 2);
  console.log('4x2', Number(process.hrtime.bigint() - t) / N / 1000, 'us');
}
