// src/driver.ts
// src/animator.ts
// src/expressive-motion.ts
import {
  ARKIT_INDEX,
  ARKIT_INDEX as ARKIT_INDEX3,
  AvatarError as AvatarError3,
  createDriveFrame,
  FPS,
  frameCountForSamples,
  isSupportedSampleRate,
  SUPPORTED_SAMPLE_RATES,
  VISEMES as VISEMES2,
} from '@avatar-drive/core';

// src/prng.ts
var Prng = class {
  state;
  constructor(seed) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next() {
    this.state = (this.state + 1831565813) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Standard normal (Box–Muller, one value per call). */
  gaussian() {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
};

// src/expressive-motion.ts
var DT = 0.04;
var BLINK_PROFILE = [0.55, 1, 0.75, 0.35, 0.1];
var NOD_PEAK_S = 0.12;
var ExpressiveMotion = class {
  constructor(seed) {
    this.seed = seed;
    this.rng = new Prng(seed);
    this.reset();
  }
  seed;
  rng;
  // Head drift: Ornstein–Uhlenbeck per axis (pitch, yaw, roll).
  drift = new Float64Array(3);
  nodAge = Number.POSITIVE_INFINITY;
  nodAmplitude = 0;
  framesSinceNod = 1e3;
  energyHistory = [-20, -20];
  blinkFrame = -1;
  framesSinceBlink = 0;
  nextBlinkIn = 0;
  speechFrames = 0;
  pauseFrames = 0;
  pitchMean = 0;
  pitchVar = 4;
  voicedFrames = 0;
  brow = 0;
  gaze = new Float64Array(2);
  gazeTarget = new Float64Array(2);
  framesToSaccade = 0;
  reset() {
    this.rng = new Prng(this.seed);
    this.drift.fill(0);
    this.nodAge = Number.POSITIVE_INFINITY;
    this.nodAmplitude = 0;
    this.framesSinceNod = 1e3;
    this.energyHistory = [-20, -20];
    this.blinkFrame = -1;
    this.framesSinceBlink = 0;
    this.nextBlinkIn = this.blinkInterval();
    this.speechFrames = 0;
    this.pauseFrames = 0;
    this.pitchMean = 0;
    this.pitchVar = 4;
    this.voicedFrames = 0;
    this.brow = 0;
    this.gaze.fill(0);
    this.gazeTarget.fill(0);
    this.framesToSaccade = 25 + Math.floor(this.rng.next() * 50);
  }
  /** Frames until the next spontaneous blink: 2–6 s, skewed short like human blink intervals. */
  blinkInterval() {
    const u = this.rng.next();
    return Math.round((2 + 4 * u * u) / DT);
  }
  /** Writes head, eyes and brows of `frame`. */
  step(input, frame) {
    const speaking = input.activity > 0.5;
    this.updateNod(input, speaking);
    this.updateDrift(speaking);
    this.updateBlink(speaking);
    this.updateBrow(input, speaking);
    this.updateGaze();
    const nod =
      this.nodAge < 1
        ? this.nodAmplitude * (this.nodAge / NOD_PEAK_S) * Math.exp(1 - this.nodAge / NOD_PEAK_S)
        : 0;
    frame.rotation[0] = this.drift[0] + nod;
    frame.rotation[1] = this.drift[1];
    frame.rotation[2] = this.drift[2];
    frame.translation[2] = 4e-3 * nod;
    const blink = this.blinkFrame >= 0 ? (BLINK_PROFILE[this.blinkFrame] ?? 0) : 0;
    frame.eyeLid[0] = blink;
    frame.eyeLid[1] = blink;
    const e = frame.expression;
    e[ARKIT_INDEX.eyeBlinkLeft] = blink;
    e[ARKIT_INDEX.eyeBlinkRight] = blink;
    e[ARKIT_INDEX.browInnerUp] = 0.55 * this.brow;
    e[ARKIT_INDEX.browOuterUpLeft] = 0.4 * this.brow;
    e[ARKIT_INDEX.browOuterUpRight] = 0.4 * this.brow;
    e[ARKIT_INDEX.eyeWideLeft] = 0.15 * this.brow;
    e[ARKIT_INDEX.eyeWideRight] = 0.15 * this.brow;
    const [gx, gy] = [this.gaze[0], this.gaze[1]];
    frame.eyePose[0] = gy;
    frame.eyePose[1] = gx;
    frame.eyePose[3] = gy;
    frame.eyePose[4] = gx;
    const look = (v) => Math.min(1, Math.max(0, v / 0.25));
    e[ARKIT_INDEX.eyeLookOutLeft] = look(gx);
    e[ARKIT_INDEX.eyeLookInRight] = look(gx);
    e[ARKIT_INDEX.eyeLookInLeft] = look(-gx);
    e[ARKIT_INDEX.eyeLookOutRight] = look(-gx);
    e[ARKIT_INDEX.eyeLookDownLeft] = look(gy);
    e[ARKIT_INDEX.eyeLookDownRight] = look(gy);
    e[ARKIT_INDEX.eyeLookUpLeft] = look(-gy);
    e[ARKIT_INDEX.eyeLookUpRight] = look(-gy);
  }
  /** A nod starts on a local energy peak that stands out from the speaker's level. */
  updateNod(input, speaking) {
    const [older, previous] = this.energyHistory;
    const current = speaking ? input.relativeEnergy : -20;
    if (previous > older && previous >= current && previous > -0.4 && this.framesSinceNod > 12) {
      this.nodAge = 0;
      this.nodAmplitude = (0.025 + 0.02 * Math.min(1, previous + 0.4)) * (0.8 + 0.4 * this.rng.next());
      this.framesSinceNod = 0;
    } else {
      this.nodAge += DT;
      this.framesSinceNod++;
    }
    this.energyHistory = [previous, current];
  }
  updateDrift(speaking) {
    const sigma = speaking ? 0.02 : 0.01;
    const theta = 0.6;
    for (let axis = 0; axis < 3; axis++) {
      const scale = axis === 2 ? 0.5 : 1;
      this.drift[axis] =
        this.drift[axis] * (1 - theta * DT) + scale * sigma * Math.sqrt(2 * theta * DT) * this.rng.gaussian();
    }
  }
  updateBlink(speaking) {
    if (speaking) {
      this.speechFrames++;
      this.pauseFrames = 0;
    } else {
      this.pauseFrames++;
    }
    this.framesSinceBlink++;
    if (this.blinkFrame >= 0) {
      this.blinkFrame++;
      if (this.blinkFrame >= BLINK_PROFILE.length) this.blinkFrame = -1;
      return;
    }
    const pauseStart = this.pauseFrames === 3 && this.speechFrames > 12;
    if (pauseStart) this.speechFrames = 0;
    const due = this.framesSinceBlink >= this.nextBlinkIn;
    const atPause = pauseStart && this.framesSinceBlink > 25 && this.rng.next() < 0.7;
    if (due || atPause) {
      this.blinkFrame = 0;
      this.framesSinceBlink = 0;
      this.nextBlinkIn = this.blinkInterval();
    }
  }
  /** Brows rise on pitch accents: voiced frames well above the speaker's running pitch. */
  updateBrow(input, speaking) {
    let target = 0;
    if (speaking && input.f0 > 0) {
      const semitones = 12 * Math.log2(input.f0 / 100);
      if (this.voicedFrames === 0) this.pitchMean = semitones;
      this.voicedFrames++;
      const rate = Math.max(1 / this.voicedFrames, 0.03);
      const d = semitones - this.pitchMean;
      this.pitchMean += rate * d;
      this.pitchVar += rate * (d * d - this.pitchVar);
      const z = d / Math.sqrt(Math.max(this.pitchVar, 1));
      if (this.voicedFrames > 8) target = Math.min(1, Math.max(0, (z - 0.8) / 1.2));
    }
    this.brow += (target > this.brow ? 0.45 : 0.12) * (target - this.brow);
  }
  updateGaze() {
    if (--this.framesToSaccade <= 0) {
      this.gazeTarget[0] = 0.08 * this.rng.gaussian();
      this.gazeTarget[1] = 0.04 * this.rng.gaussian();
      this.framesToSaccade = 30 + Math.floor(this.rng.next() * 70);
    }
    for (let i = 0; i < 2; i++) this.gaze[i] = this.gaze[i] + 0.7 * (this.gazeTarget[i] - this.gaze[i]);
  }
};

// src/mouth-shapes.ts
import { ARKIT_INDEX as ARKIT_INDEX2, VISEMES } from '@avatar-drive/core';

var VISEME_POSES = {
  sil: {},
  PP: {
    jawOpen: 0.02,
    mouthClose: 0.8,
    mouthPress: 0.45,
    mouthRollLower: 0.2,
    mouthRollUpper: 0.15,
    mouthShrugLower: 0.2,
  },
  FF: {
    jawOpen: 0.08,
    mouthRollLower: 0.6,
    mouthShrugUpper: 0.25,
    mouthUpperUp: 0.2,
    mouthClose: 0.1,
    mouthPress: 0.1,
  },
  TH: { jawOpen: 0.16, tongueOut: 0.55, mouthLowerDown: 0.15, mouthUpperUp: 0.1 },
  DD: { jawOpen: 0.2, mouthStretch: 0.15, mouthLowerDown: 0.2, mouthUpperUp: 0.1, tongueOut: 0.05 },
  kk: { jawOpen: 0.26, mouthStretch: 0.2, mouthLowerDown: 0.15 },
  CH: {
    jawOpen: 0.14,
    mouthFunnel: 0.45,
    mouthPucker: 0.3,
    mouthUpperUp: 0.3,
    mouthLowerDown: 0.3,
    mouthShrugUpper: 0.2,
    mouthShrugLower: 0.15,
  },
  SS: {
    jawOpen: 0.07,
    mouthStretch: 0.35,
    mouthSmile: 0.2,
    mouthUpperUp: 0.2,
    mouthLowerDown: 0.25,
    mouthClose: 0.1,
  },
  nn: { jawOpen: 0.14, mouthStretch: 0.1, mouthLowerDown: 0.1, mouthClose: 0.08 },
  RR: { jawOpen: 0.18, mouthFunnel: 0.25, mouthPucker: 0.35, mouthShrugUpper: 0.1, mouthRollLower: 0.05 },
  aa: { jawOpen: 0.7, mouthLowerDown: 0.4, mouthUpperUp: 0.15, mouthStretch: 0.1 },
  E: {
    jawOpen: 0.42,
    mouthStretch: 0.35,
    mouthSmile: 0.25,
    mouthLowerDown: 0.35,
    mouthUpperUp: 0.25,
    mouthDimpleLeft: 0.1,
    mouthDimpleRight: 0.1,
  },
  I: {
    jawOpen: 0.22,
    mouthSmile: 0.5,
    mouthStretch: 0.4,
    mouthUpperUp: 0.2,
    mouthLowerDown: 0.2,
    cheekSquint: 0.15,
  },
  O: { jawOpen: 0.48, mouthFunnel: 0.6, mouthPucker: 0.25, mouthLowerDown: 0.15 },
  U: { jawOpen: 0.2, mouthPucker: 0.75, mouthFunnel: 0.4, mouthRollLower: 0.05 },
};
var SYMMETRIC = {
  mouthStretch: ['mouthStretchLeft', 'mouthStretchRight'],
  mouthSmile: ['mouthSmileLeft', 'mouthSmileRight'],
  mouthPress: ['mouthPressLeft', 'mouthPressRight'],
  mouthLowerDown: ['mouthLowerDownLeft', 'mouthLowerDownRight'],
  mouthUpperUp: ['mouthUpperUpLeft', 'mouthUpperUpRight'],
  cheekSquint: ['cheekSquintLeft', 'cheekSquintRight'],
};
var MOUTH_CHANNELS = (() => {
  const set = /* @__PURE__ */ new Set();
  for (const pose of Object.values(VISEME_POSES)) {
    for (const name of Object.keys(pose)) {
      for (const target of SYMMETRIC[name] ?? [name]) set.add(ARKIT_INDEX2[target]);
    }
  }
  set.add(ARKIT_INDEX2.cheekPuff);
  return [...set].sort((a, b) => a - b);
})();
var POSE_MATRIX = (() => {
  const m = new Float32Array(VISEMES.length * 52);
  VISEMES.forEach((viseme, v) => {
    for (const [name, value] of Object.entries(VISEME_POSES[viseme])) {
      for (const target of SYMMETRIC[name] ?? [name]) m[v * 52 + ARKIT_INDEX2[target]] = value;
    }
  });
  return m;
})();
var PP = VISEMES.indexOf('PP');
var JAW = ARKIT_INDEX2.jawOpen;
var CLOSE = ARKIT_INDEX2.mouthClose;
var PUFF = ARKIT_INDEX2.cheekPuff;
function mixMouth(visemes, bilabial, loudness, expression) {
  for (const c of MOUTH_CHANNELS) expression[c] = 0;
  for (let v = 1; v < VISEMES.length; v++) {
    const w = visemes[v];
    if (w <= 1e-4) continue;
    const row = v * 52;
    for (const c of MOUTH_CHANNELS) expression[c] = expression[c] + w * POSE_MATRIX[row + c];
  }
  expression[JAW] = expression[JAW] * (0.75 + 0.45 * loudness);
  const closure = Math.min(1, Math.max(0, (Math.max(bilabial, visemes[PP]) - 0.05) / 0.2));
  if (closure > 0) {
    expression[JAW] = expression[JAW] * (1 - 0.9 * closure);
    expression[CLOSE] = Math.max(expression[CLOSE], 0.85 * closure);
    expression[PUFF] = 0.2 * closure * loudness;
  }
  for (const c of MOUTH_CHANNELS) expression[c] = Math.min(1, Math.max(0, expression[c]));
}

// src/animator.ts
var JAW_MAX_RAD = 0.3;
var V = VISEMES2.length;
var PP2 = VISEMES2.indexOf('PP');
var RELEASE = 0.7;
var FrameAnimator = class {
  smoothed = new Float32Array(V);
  gated = new Float32Array(V);
  expressive;
  constructor(seed) {
    this.expressive = new ExpressiveMotion(seed);
    this.reset();
  }
  reset() {
    this.smoothed.fill(0);
    this.smoothed[0] = 1;
    this.expressive.reset();
  }
  /** Builds frame `index` from the model's posteriors (softmax over the 15 visemes). */
  frame(index, posteriors, acoustics) {
    const frame = createDriveFrame(index);
    const snr = acoustics.energy - acoustics.noiseFloor;
    const activity = Math.min(1, Math.max(0, (snr - 0.25) / 0.6));
    const gated = this.gated;
    let speech = 0;
    for (let v = 1; v < V; v++) {
      gated[v] = posteriors[v] * activity;
      speech += gated[v];
    }
    gated[0] = 1 - speech;
    const s = this.smoothed;
    for (let v = 0; v < V; v++) {
      const target = gated[v];
      const prev = s[v];
      s[v] = target >= prev ? target : prev + RELEASE * (target - prev);
      frame.visemes[v] = target;
    }
    let sum = 0;
    for (let v = 0; v < V; v++) sum += s[v];
    for (let v = 0; v < V; v++) s[v] = s[v] / sum;
    const relativeEnergy = acoustics.energy - acoustics.level;
    const loudness = Math.min(1, Math.max(0, (relativeEnergy + 2.5) / 2.5));
    mixMouth(s, gated[PP2], loudness, frame.expression);
    frame.jawPose[0] = JAW_MAX_RAD * frame.expression[ARKIT_INDEX3.jawOpen];
    this.expressive.step({ activity, relativeEnergy, f0: acoustics.f0 }, frame);
    return frame;
  }
};

// src/fft.ts
var RealFft = class {
  /** Transform length (a power of two). */
  size;
  /** Number of power bins, `size / 2 + 1`. */
  bins;
  half;
  re;
  im;
  bitReverse;
  cosHalf;
  sinHalf;
  cosFull;
  sinFull;
  constructor(size) {
    if (size < 16 || (size & (size - 1)) !== 0)
      throw new RangeError(`FFT size ${size} is not a power of two`);
    this.size = size;
    this.half = size >> 1;
    this.bins = this.half + 1;
    const m = this.half;
    this.re = new Float64Array(m);
    this.im = new Float64Array(m);
    this.bitReverse = new Uint32Array(m);
    const bits = Math.log2(m);
    for (let i = 0; i < m; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReverse[i] = r;
    }
    this.cosHalf = new Float64Array(m >> 1);
    this.sinHalf = new Float64Array(m >> 1);
    for (let i = 0; i < m >> 1; i++) {
      this.cosHalf[i] = Math.cos((-2 * Math.PI * i) / m);
      this.sinHalf[i] = Math.sin((-2 * Math.PI * i) / m);
    }
    this.cosFull = new Float64Array(m + 1);
    this.sinFull = new Float64Array(m + 1);
    for (let k = 0; k <= m; k++) {
      this.cosFull[k] = Math.cos((-2 * Math.PI * k) / size);
      this.sinFull[k] = Math.sin((-2 * Math.PI * k) / size);
    }
  }
  /**
   * Writes `|X[k]|²` for k = 0..size/2 of the real input `frame` (length `size`) into `out`.
   */
  power(frame, out) {
    const m = this.half;
    const re = this.re;
    const im = this.im;
    const rev = this.bitReverse;
    for (let i = 0; i < m; i++) {
      const j = rev[i];
      re[j] = frame[2 * i];
      im[j] = frame[2 * i + 1];
    }
    for (let a = 0; a < m; a += 4) {
      const r0 = re[a];
      const i0 = im[a];
      const r1 = re[a + 1];
      const i1 = im[a + 1];
      const r2 = re[a + 2];
      const i2 = im[a + 2];
      const r3 = re[a + 3];
      const i3 = im[a + 3];
      const s0r = r0 + r1;
      const s0i = i0 + i1;
      const d0r = r0 - r1;
      const d0i = i0 - i1;
      const s1r = r2 + r3;
      const s1i = i2 + i3;
      const d1r = i2 - i3;
      const d1i = r3 - r2;
      re[a] = s0r + s1r;
      im[a] = s0i + s1i;
      re[a + 2] = s0r - s1r;
      im[a + 2] = s0i - s1i;
      re[a + 1] = d0r + d1r;
      im[a + 1] = d0i + d1i;
      re[a + 3] = d0r - d1r;
      im[a + 3] = d0i - d1i;
    }
    const cw = this.cosHalf;
    const sw = this.sinHalf;
    for (let len = 8; len <= m; len <<= 1) {
      const halfLen = len >> 1;
      const step = m / len;
      for (let k = 0, t = 0; k < halfLen; k++, t += step) {
        const wr = cw[t];
        const wi = sw[t];
        for (let a = k; a < m; a += len) {
          const b = a + halfLen;
          const br = re[b];
          const bi = im[b];
          const xr = br * wr - bi * wi;
          const xi = br * wi + bi * wr;
          const ar = re[a];
          const ai = im[a];
          re[a] = ar + xr;
          im[a] = ai + xi;
          re[b] = ar - xr;
          im[b] = ai - xi;
        }
      }
    }
    const cf = this.cosFull;
    const sf = this.sinFull;
    for (let k = 0; k <= m; k++) {
      const k1 = k === m ? 0 : k;
      const k2 = k === 0 ? 0 : m - k;
      const zr = re[k1];
      const zi = im[k1];
      const cr = re[k2];
      const ci = -im[k2];
      const er = 0.5 * (zr + cr);
      const ei = 0.5 * (zi + ci);
      const dr = 0.5 * (zi - ci);
      const di = -0.5 * (zr - cr);
      const wr = cf[k];
      const wi = sf[k];
      const xr = er + dr * wr - di * wi;
      const xi = ei + dr * wi + di * wr;
      out[k] = xr * xr + xi * xi;
    }
  }
};

// src/features.ts
var ANALYSIS_RATE = 16e3;
var HOP = 320;
var WINDOW = 400;
var FFT_SIZE = 256;
var HOPS_PER_FRAME = 2;
var MEL_BANDS = 20;
var FEATURE_DIM = MEL_BANDS + 3;
var MEL_LOW_HZ = 100;
var MEL_HIGH_HZ = 7600;
var POWER_FLOOR = 1e-10;
var CHANNEL_PRIOR_HOPS = 50;
var CHANNEL_MIN_RATE = 6e-3;
function hzToMel(hz) {
  return 2595 * Math.log10(1 + hz / 700);
}
function melToHz(mel) {
  return 700 * (10 ** (mel / 2595) - 1);
}
function melFilters(bins) {
  const start = new Int32Array(MEL_BANDS);
  const weights = [];
  const lo = hzToMel(MEL_LOW_HZ);
  const hi = hzToMel(MEL_HIGH_HZ);
  const edges = [];
  for (let i = 0; i < MEL_BANDS + 2; i++) edges.push(melToHz(lo + ((hi - lo) * i) / (MEL_BANDS + 1)));
  const binHz = ANALYSIS_RATE / 2 / (bins - 1);
  for (let b = 0; b < MEL_BANDS; b++) {
    const f0 = edges[b];
    const f1 = edges[b + 1];
    const f2 = edges[b + 2];
    const first = Math.max(0, Math.floor(f0 / binHz));
    const last = Math.min(bins - 1, Math.ceil(f2 / binHz));
    const row = new Float32Array(last - first + 1);
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const f = k * binHz;
      const w = Math.max(0, Math.min((f - f0) / (f1 - f0), (f2 - f) / (f2 - f1)));
      row[k - first] = w;
      sum += w;
    }
    if (sum === 0) {
      const k = Math.round(f1 / binHz);
      row[k - first] = 1;
      sum = 1;
    }
    for (let i = 0; i < row.length; i++) row[i] = row[i] / sum;
    start[b] = first;
    weights.push(row);
  }
  return { start, weights };
}
var FeatureExtractor = class {
  constructor(onHop, channelPrior) {
    this.onHop = onHop;
    this.power = new Float32Array(this.fft.bins);
    let windowPower = 0;
    for (let i = 0; i < WINDOW; i++) {
      const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / WINDOW);
      this.window[i] = w;
      windowPower += w * w;
    }
    this.energyScale = 2 / (FFT_SIZE * windowPower);
    const filters = melFilters(this.fft.bins);
    this.melStart = filters.start;
    this.melWeights = filters.weights;
    this.prior = new Float32Array(MEL_BANDS);
    if (channelPrior) for (let b = 0; b < MEL_BANDS; b++) this.prior[b] = channelPrior[b] ?? 0;
    this.reset();
  }
  onHop;
  fft = new RealFft(FFT_SIZE);
  ring = new Float32Array(WINDOW);
  frame = new Float32Array(FFT_SIZE);
  power;
  window = new Float32Array(WINDOW);
  melStart;
  melWeights;
  prior;
  channelMean = new Float32Array(MEL_BANDS);
  features = new Float32Array(FEATURE_DIM);
  acoustics = { energy: 0, level: 0, noiseFloor: 0 };
  energyScale;
  writePos = 0;
  sinceHop = 0;
  /** Zero crossings since the last hop, and the sample before. */
  crossings = 0;
  lastSample = 0;
  hops = 0;
  speechHops = 0;
  level = 0;
  noiseFloor = 0;
  /** Forgets all audio and adaptation. */
  reset() {
    this.ring.fill(0);
    this.writePos = 0;
    this.sinceHop = 0;
    this.crossings = 0;
    this.lastSample = 0;
    this.hops = 0;
    this.speechHops = 0;
    this.channelMean.set(this.prior);
  }
  /**
   * Starts a new utterance: forgets the audio but keeps the level, noise-floor and channel
   * adaptation (same speaker, same microphone).
   */
  restart() {
    this.ring.fill(0);
    this.writePos = 0;
    this.sinceHop = 0;
    this.crossings = 0;
    this.lastSample = 0;
  }
  /** Samples still needed to complete the current hop. */
  samplesToNextHop() {
    return HOP - this.sinceHop;
  }
  /** Feeds 16 kHz samples (full scale ±1). */
  push(samples, from = 0, to = samples.length) {
    const ring = this.ring;
    let pos = this.writePos;
    let since = this.sinceHop;
    let last = this.lastSample;
    for (let i = from; i < to; i++) {
      const x = samples[i];
      if (x >= 0 !== last >= 0) this.crossings++;
      last = x;
      ring[pos] = x;
      pos = pos + 1 === WINDOW ? 0 : pos + 1;
      if (++since === HOP) {
        this.writePos = pos;
        this.computeHop();
        since = 0;
      }
    }
    this.writePos = pos;
    this.sinceHop = since;
    this.lastSample = last;
  }
  computeHop() {
    const frame = this.frame;
    const ring = this.ring;
    const win = this.window;
    const start = this.writePos;
    const firstRun = WINDOW - start;
    for (let i = 0; i < firstRun; i++) {
      const v = ring[start + i] * win[i];
      if (i < FFT_SIZE) frame[i] = v;
      else frame[i - FFT_SIZE] = frame[i - FFT_SIZE] + v;
    }
    for (let i = firstRun; i < WINDOW; i++) {
      const v = ring[i - firstRun] * win[i];
      if (i < FFT_SIZE) frame[i] = v;
      else frame[i - FFT_SIZE] = frame[i - FFT_SIZE] + v;
    }
    const crossings = this.crossings;
    this.crossings = 0;
    const power = this.power;
    this.fft.power(frame, power);
    const scale = this.energyScale;
    let total = 0;
    for (let k = 0; k < power.length; k++) total += power[k];
    const energy = Math.log(total * scale + POWER_FLOOR);
    if (this.hops === 0) {
      this.level = energy;
      this.noiseFloor = energy;
    } else {
      this.level += (energy > this.level ? 0.6 : 4e-3) * (energy - this.level);
      if (energy < this.noiseFloor) this.noiseFloor += 0.5 * (energy - this.noiseFloor);
      else this.noiseFloor += 0.01;
      if (this.level < this.noiseFloor) this.level = this.noiseFloor;
    }
    this.hops++;
    const snr = energy - this.noiseFloor;
    const f = this.features;
    const isSpeech = snr > 2.3;
    let rate = 0;
    if (isSpeech) {
      this.speechHops++;
      rate = Math.max(1 / (this.speechHops + CHANNEL_PRIOR_HOPS), CHANNEL_MIN_RATE);
    }
    const bandFloor = POWER_FLOOR / MEL_BANDS;
    for (let b = 0; b < MEL_BANDS; b++) {
      const row = this.melWeights[b];
      const first = this.melStart[b];
      let s = 0;
      for (let i = 0; i < row.length; i++) s += row[i] * power[first + i];
      const shape = Math.log(s * scale + bandFloor) - energy;
      if (rate > 0) this.channelMean[b] = this.channelMean[b] + rate * (shape - this.channelMean[b]);
      f[b] = shape - this.channelMean[b];
    }
    f[MEL_BANDS] = Math.max(-12, energy - this.level);
    f[MEL_BANDS + 1] = Math.min(14, snr);
    f[MEL_BANDS + 2] = crossings / HOP;
    const a = this.acoustics;
    a.energy = energy;
    a.level = this.level;
    a.noiseFloor = this.noiseFloor;
    this.onHop(f, a);
  }
};

// src/hop-history.ts
var CAPACITY = 64;
var CLIP = 6;
var HopHistory = class {
  constructor(mean, std) {
    this.mean = mean;
    this.invStd = new Float32Array(FEATURE_DIM);
    for (let i = 0; i < FEATURE_DIM; i++) this.invStd[i] = 1 / Math.max(1e-6, std[i] ?? 1);
  }
  mean;
  /** Hops pushed so far; hop indices run 0..count-1. */
  count = 0;
  features = new Float32Array(CAPACITY * FEATURE_DIM);
  energy = new Float32Array(CAPACITY);
  level = new Float32Array(CAPACITY);
  noiseFloor = new Float32Array(CAPACITY);
  invStd;
  reset() {
    this.count = 0;
  }
  push(features, acoustics) {
    const slot = this.count % CAPACITY;
    const dim = FEATURE_DIM;
    const base = slot * dim;
    const mean = this.mean;
    const inv = this.invStd;
    for (let i = 0; i < dim; i++) {
      const z = (features[i] - mean[i]) * inv[i];
      this.features[base + i] = z > CLIP ? CLIP : Math.max(z, -CLIP);
    }
    this.energy[slot] = acoustics.energy;
    this.level[slot] = acoustics.level;
    this.noiseFloor[slot] = acoustics.noiseFloor;
    this.count++;
  }
  /** Ring slot of hop `index` (caller keeps it within the stored range). */
  slot(index) {
    return index % CAPACITY;
  }
  /**
   * Fills `out` with the context of the frame whose first hop is `base`: each slot is the mean of
   * its hops, hop indices clamped to [0, newest] (the utterance start repeats its first hop;
   * nothing beyond the allowed lookahead is read, whatever has arrived).
   */
  assemble(out, base, context, newest) {
    const feats = this.features;
    const dim = FEATURE_DIM;
    let o = 0;
    for (const [from, to] of context) {
      const n = to - from + 1;
      const scale = 1 / n;
      for (let i = 0; i < dim; i++) out[o + i] = 0;
      for (let h = base + from; h <= base + to; h++) {
        const idx = h < 0 ? 0 : Math.min(h, newest);
        const src = (idx % CAPACITY) * dim;
        for (let i = 0; i < dim; i++) out[o + i] = out[o + i] + feats[src + i];
      }
      if (n > 1) for (let i = 0; i < dim; i++) out[o + i] = out[o + i] * scale;
      o += dim;
    }
  }
};

// src/model.ts
import { AvatarError } from '@avatar-drive/core';

var MAGIC = 1397507137;
function invalid(message) {
  return new AvatarError(
    'invalidRequest',
    `${message} Pass the weights file produced by \`pnpm --filter @avatar-drive/engine train\` (weights/lipsync.bin) or omit the weights option to use the bundled ones.`,
  );
}
function parseModelWeights(bytes) {
  if (bytes.byteLength < 8) throw invalid('The weights file is too short.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw invalid('The weights file does not start with "ADLS".');
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.byteLength) throw invalid('The weights header is truncated.');
  let header;
  try {
    header = JSON.parse(asciiToString(bytes.subarray(8, 8 + headerLength)));
  } catch {
    throw invalid('The weights header is not valid JSON.');
  }
  if (header.format !== 'avatar-drive-lipsync' || header.version !== 1) {
    throw invalid('The weights header has an unknown format or version.');
  }
  const sizes = header.layers;
  if (!Array.isArray(sizes) || sizes.length < 2) throw invalid('The weights header lists no layers.');
  if (sizes[0] !== header.context.length * header.featureDim) {
    throw invalid('The first layer does not match the context size.');
  }
  let offset = 8 + headerLength;
  offset += (4 - (offset % 4)) % 4;
  const count = sizes.slice(1).reduce((sum, out, i) => sum + out * (sizes[i] + 1), 0);
  if (offset + count * 4 !== bytes.byteLength) throw invalid('The weights file has the wrong length.');
  const params = new Float32Array(count);
  for (let i = 0; i < count; i++) params[i] = view.getFloat32(offset + 4 * i, true);
  const weights = [];
  const biases = [];
  let p = 0;
  for (let l = 1; l < sizes.length; l++) {
    const fanIn = sizes[l - 1];
    const fanOut = sizes[l];
    weights.push(params.subarray(p, p + fanIn * fanOut));
    p += fanIn * fanOut;
    biases.push(params.subarray(p, p + fanOut));
    p += fanOut;
  }
  return { header, weights, biases };
}
function serializeModelWeights(model) {
  const text = JSON.stringify(model.header).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const json = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) json[i] = text.charCodeAt(i);
  let offset = 8 + json.byteLength;
  const pad = (4 - (offset % 4)) % 4;
  const count = model.weights.reduce((sum, w, i) => sum + w.length + model.biases[i].length, 0);
  const out = new Uint8Array(offset + pad + 4 * count);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, json.byteLength, true);
  out.set(json, 8);
  offset += pad;
  for (let l = 0; l < model.weights.length; l++) {
    for (const array of [model.weights[l], model.biases[l]]) {
      for (let i = 0; i < array.length; i++, offset += 4) view.setFloat32(offset, array[i], true);
    }
  }
  return out;
}
function asciiToString(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 4096)));
  }
  return text;
}
var BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
var BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;
function base64ToBytes(base64) {
  const clean = base64.replace(/[^A-Za-z0-9+/]/g, '');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | BASE64_VALUE[clean.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[o++] = (acc >> bits) & 255;
    }
  }
  return bytes;
}
var MlpRunner = class {
  constructor(model) {
    this.model = model;
    const sizes = model.header.layers;
    this.activations = sizes.map((n) => new Float32Array(n));
    this.input = this.activations[0];
    this.output = this.activations[sizes.length - 1];
  }
  model;
  /** The input vector to fill before {@link run}. */
  input;
  /** Softmax output after {@link run}. */
  output;
  activations;
  run() {
    const { weights, biases } = this.model;
    const acts = this.activations;
    const last = weights.length - 1;
    for (let l = 0; l <= last; l++) {
      const x = acts[l];
      const y = acts[l + 1];
      const w = weights[l];
      const b = biases[l];
      const fanIn = x.length;
      for (let o = 0, row = 0; o < y.length; o++, row += fanIn) {
        let s0 = b[o];
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let i = 0;
        for (; i + 3 < fanIn; i += 4) {
          const r = row + i;
          s0 += w[r] * x[i];
          s1 += w[r + 1] * x[i + 1];
          s2 += w[r + 2] * x[i + 2];
          s3 += w[r + 3] * x[i + 3];
        }
        for (; i < fanIn; i++) s0 += w[row + i] * x[i];
        const s = s0 + s1 + s2 + s3;
        y[o] = l < last && s < 0 ? 0 : s;
      }
    }
    const out = acts[last + 1];
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < out.length; i++) if (out[i] > max) max = out[i];
    let sum = 0;
    for (let i = 0; i < out.length; i++) {
      const e = Math.exp(out[i] - max);
      out[i] = e;
      sum += e;
    }
    for (let i = 0; i < out.length; i++) out[i] = out[i] / sum;
    return out;
  }
};

// src/pitch.ts
var DECIMATION = 8;
var PITCH_RATE = ANALYSIS_RATE / DECIMATION;
var SPAN = 48;
var MIN_LAG = 6;
var MAX_LAG = 27;
var RING = 512;
var PitchTracker = class {
  ring = new Float32Array(RING);
  scores = new Float32Array(MAX_LAG + 2);
  span = new Float32Array(SPAN + MAX_LAG);
  /** Decimated samples written so far. */
  written = 0;
  phase = 0;
  // Butterworth low-pass at 600 Hz (fs 16 kHz), direct form I.
  b0;
  b1;
  b2;
  a1;
  a2;
  x1 = 0;
  x2 = 0;
  y1 = 0;
  y2 = 0;
  constructor() {
    const w = Math.tan((Math.PI * 600) / ANALYSIS_RATE);
    const q = Math.SQRT1_2;
    const n = 1 / (1 + w / q + w * w);
    this.b0 = w * w * n;
    this.b1 = 2 * this.b0;
    this.b2 = this.b0;
    this.a1 = 2 * (w * w - 1) * n;
    this.a2 = (1 - w / q + w * w) * n;
  }
  reset() {
    this.ring.fill(0);
    this.written = 0;
    this.phase = 0;
    this.x1 = this.x2 = this.y1 = this.y2 = 0;
  }
  push(samples, from = 0, to = samples.length) {
    const { b0, b1, b2, a1, a2, ring } = this;
    let { x1, x2, y1, y2, phase, written } = this;
    for (let i = from; i < to; i++) {
      const x = samples[i];
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      if (++phase === DECIMATION) {
        phase = 0;
        ring[written % RING] = y;
        written++;
      }
    }
    this.x1 = x1;
    this.x2 = x2;
    this.y1 = y1;
    this.y2 = y2;
    this.phase = phase;
    this.written = written;
  }
  /**
   * Fundamental frequency (Hz) of the 24 ms ending at decimated sample `end` (exclusive), or 0
   * when unvoiced. `end` must be within the last 256 ms written.
   */
  f0At(end) {
    const first = end - SPAN;
    if (first - MAX_LAG < 0 || end > this.written || this.written - (first - MAX_LAG) > RING) return 0;
    const x = this.span;
    for (let i = 0, t = first - MAX_LAG; i < x.length; i++, t++) x[i] = this.ring[t % RING];
    let e0 = 0;
    for (let t = MAX_LAG; t < x.length; t++) e0 += x[t] * x[t];
    if (e0 < 1e-9) return 0;
    const scores = this.scores;
    let best = 0;
    let bestLag = 0;
    for (let lag2 = MIN_LAG; lag2 <= MAX_LAG; lag2++) {
      let cross = 0;
      let el = 0;
      for (let t = MAX_LAG; t < x.length; t++) {
        const b = x[t - lag2];
        cross += x[t] * b;
        el += b * b;
      }
      const r = el > 1e-12 ? cross / Math.sqrt(e0 * el) : 0;
      scores[lag2] = r;
      if (r > best) {
        best = r;
        bestLag = lag2;
      }
    }
    for (let lag2 = MIN_LAG + 1; lag2 < bestLag; lag2++) {
      const r = scores[lag2];
      if (r >= 0.9 * best && r >= scores[lag2 - 1] && r >= scores[lag2 + 1]) {
        bestLag = lag2;
        break;
      }
    }
    if (best <= 0.5) return 0;
    let lag = bestLag;
    if (bestLag > MIN_LAG && bestLag < MAX_LAG) {
      const a = scores[bestLag - 1];
      const b = scores[bestLag];
      const c = scores[bestLag + 1];
      const d = a - 2 * b + c;
      if (d < 0) lag += Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / d));
    }
    return PITCH_RATE / lag;
  }
};

// src/resampling.ts
import { AvatarError as AvatarError2 } from '@avatar-drive/core';

function createStreamResampler(fromRate, toRate) {
  if (fromRate === toRate) return null;
  throw new AvatarError2(
    'unsupportedSampleRate',
    `This build of the engine analyses ${toRate} Hz input only; resample ${fromRate} Hz audio to ${toRate} Hz first.`,
  );
}

// src/gen/weights.ts
var LIPSYNC_WEIGHTS_BASE64 =
  'QURMUx8HAAB7ImZvcm1hdCI6ImF2YXRhci1kcml2ZS1saXBzeW5jIiwidmVyc2lvbiI6MSwiZmVhdHVyZURpbSI6MjMsImNvbnRleHQiOltbLTEyLC05XSxbLTgsLTZdLFstNSwtNF0sWy0zLC0yXSxbLTEsLTFdLFswLDBdLFsxLDFdLFsyLDJdXSwibGF5ZXJzIjpbMTg0LDQ4LDI0LDE1XSwiYWN0aXZhdGlvbiI6InJlbHUiLCJjbGFzc2VzIjpbInNpbCIsIlBQIiwiRkYiLCJUSCIsIkREIiwia2siLCJDSCIsIlNTIiwibm4iLCJSUiIsImFhIiwiRSIsIkkiLCJPIiwiVSJdLCJmZWF0dXJlTWVhbiI6Wy0xLjAzNzMyNzA0NjgzNTY4ODUsLTEuMDc2ODc4ODI0NDY0NzUzNiwtMS4xMTQxODExMTYwODY5MDksLTEuMTMyNzE5NTkyMzI2Nzk2LC0xLjEzMTAxODkxMTUwNTE3NjMsLTEuMTQyOTg3NTIxNDc5NjcyMywtMS4xNTk4ODE4Mjk2NDg1NTkxLC0xLjEzMjExNjYxNTI1OTI4NywtMS4xMTk2MzM4NjgwOTYyMTMyLC0xLjEzMzMxMzg1NzExNTIxOSwtMS4xNDU4NDMyMDAyMTI4MDgsLTEuMTczODA1MDg2MzY1MTc2LC0xLjE5OTAwODkxNTU4NzIyNDMsLTEuMjMwMzAwNzA0MDk0NDI3NiwtMS4yMzMwMzI2MjcyNjg3ODU3LC0xLjMwMTExMDIxOTIwMzQ3NTYsLTEuNDcxMzY4NDEwNDcxODUyNSwtMS40NzcxNTk0MjcwOTk2NTY2LC0xLjUyNDAxMjU3NTg4NDgwMTMsLTEuNTMwMDI2MTI5MTQ3NTc0MywtMy4xODc2ODQ5NTg0MzEyMjg2LDUuNzQ5NTA2NTIyNjU1MTQ2LDAuMTYzODE4ODcxOTg0NjA2NjVdLCJmZWF0dXJlU3RkIjpbMS42OTYwMTUzNzU5NDQyMTc4LDEuNTUwMDYxNDM5NjE1MDA2MywxLjUyODY5NTgyOTAyNTg3MTYsMS42OTY4NzI1OTIyMDM0ODc1LDIuMTIyNjA3OTIzOTEzODQ5MywyLjUxOTI3NTYzNTI2NjI3MjQsMi43MDc5OTM1NDc4NTA3ODUsMi43NDg5NjI3Mjk1NzE4NDEzLDIuNzE3MzUzOTIzNDM1MDE1LDIuNjg1MDMwNzk5MDYwMTcxLDIuNzE1OTIxNDMwMDk5MzM2NCwyLjQ4ODg3NzY0Nzg4OTEzMjYsMi40OTY5MjY4ODgxNDg3MzEsMi41MTAxOTc3OTAzNTExNDY1LDIuNjA2ODYwNDI2MzkyNjU3LDMuMTczMDUzMjYzNDQzOTQ1Nyw0LjQwNjUyOTEyNDY1OTUxNCw0LjYzNTM0ODE4MDYyMTczNSw0LjY1NDUzODM2NjQzODM2MSw0LjU1MTg5OTU2NzQxMjA2MSwzLjU3MDM3NjU2MTk2Mzg5Miw1LjQ1NzcxMTgxOTQyOTI2MywwLjEyNjEyODYzNzY2MjQzMTJdLCJjaGFubmVsUHJpb3IiOlstMS43NDY5OTE4MjUxNzkyNzI3LC0xLjUyMzg2Mzg5NDU2Njk4ODIsLTEuNTIzMTM4NzQ5MDkzNjkyMywtMS44MzczNDY4MjAyODgwOTksLTIuNDk5NzQxODQ4NTUyNzA4MywtMy4wMzU0MzA4Mjc2NjM5NjksLTMuMzIxMTA0MzM5ODg1MzIwNCwtMy40MjQ4OTk4MTg3MjgzODIzLC0zLjQ3MjMxNDUyNDcxNjM1MDMsLTMuNTE0NzA4ODM1MTEyMjk0LC0zLjY0MTE0Nzk0NzUyMjYxNDcsLTMuNTQyMDM5OTExMDk2MTkzLC0zLjU2MDU1MzI4MTc5NzcyNzUsLTMuNjkxMjYzNDExMDAyMjQ5MywtMy43NzExMTM3OTgxMDAzNjc3LC00LjM3MzkxNzQyMDM2NjUzNSwtNS4yOTY5MzQ1NjcwOTA1OTMsLTUuNTk0ODQzMDgwMzExMTY0LC01LjcxNzU4MTA5ODY2MjU3OSwtNS42Njg2NTQ4MDQ2NjkwOTNdLCJwcm92ZW5hbmNlIjp7InRyYWluZWRBdCI6IjIwMjYtMTEtMjFUMTI6MDE6NTMuNDM0WiIsImNvcnB1cyI6eyJ1dHRlcmFuY2VzIjo2MzAsInNlcXVlbmNlcyI6NjMwLCJob3VycyI6MC43MDJ9LCJhdWdtZW50YXRpb24iOiJub25lIiwiZXhhbXBsZXMiOnsidHJhaW4iOjEyMDE2MSwidmFsaWRhdGlvbiI6NjUzOX0sImJlc3RFcG9jaCI6NiwidmFsaWRhdGlvbkZyYW1lQWNjdXJhY3kiOjAuNjg5NCwicGFyYW1ldGVycyI6MTA0MzF9fQDjjXy9OGwZPR/TCL4Cy5G+jzNrPTi79r0BbgG9CsFbPvPvb704DAm+NzoyPljAjbxxi5M9xSv6PS4Pb7w5hyk+p2MyvrmaIj1vwdQ9mSEnvRMt37yVUSw+MDCcvZLZlz2bPdy8YZ56u/MmAjrWKKo8pjV3vO557z209Zq9keaDPRyf7ryOvqs99ULGPT7xwr1gpss8wFoivUlaVj3qbEW+VQ7pvfZ7ZT4FrOM9VBpuPbwJVT5OOi88V/HZvMwOBT2zRwQ8qX5IveiEHT2Cjhy+/WbgPb9a8j2XSCq9Rt07PeWn7T0vZ8C9bf4TvAuWYT0UnnO97WlnPZVhpL5Pydm9djijPcti7T1IjEC+HJScvZuZBz2WapA+IfNJvdGHyL0hGra9219JvTzHmz0zQyS8y6ccvux72D2hPp097f+QPZsD/LzSCl09uAGvvQ03Ez5E16e9AYehvqeXRz643vC9xGQIPbzqAr3xXAC6rIrsu5Xphj15bCW92X1NPBkLnb0PSFg5D7rnPRSUFD0GXua7RbAWPsEpSz2zNRU7PisTPA95CT42RjC+JW96Pv6daT3aTDK+YqsoPkXDFz7j+Qy+mV+LPQTAGL3vKcE9C4+6PdiGR71ho4u951DwPUF/DD29nzQ+NxVavtuTxj1CmUk+vyIhvfUzq72NOG6+ljj2vYETfb6EH609wUsePjE8BL3Hu6w91lISvat/XT6leAQ/5ISpvcmWoT4gu9E9zPZGvljpVz6Olao9kRoKPI7EJz5145G9KQFyPFbpPj2nRYW9IzKKvXpdm76g2QO+VlFovmJMOL3UAVc9u4oGPYlxiz7s7949n8fWPlP6Mj9AJhq+0hRNPmb8Uj6nPfM9YTJrvNWphT0M3R4+vV3XPGiIJr7QTEi+ex5hOynCE7zzbIi9nK0qvoM5sjzKjfG+JIMTPd79473Xl5k9itdkPpN4Mz563ho+hBAOP/S+x74zEpM9UWXou8prAz2D/y28HSa9PQugQ73KtC++hPYEvYN477kfl+M8DED9O1RBujqG1EO+ogkMvGC87r3leI88FmbQPZCZDL7YBI89dy6mPXGmQ7w0plm9yp7gvWjg+byKgEm8hUGYvQdvnT0dL5m7+KyHu68LXT0h6j68KnIrPmZ+mb21Y327IOPWPS7Qfr6Cc7G99suhvUmc2jznE5q9X56cvbFv4D2tAwy8gGWCvNlKgjyT0EQ83BVBPRl90D2lWos9zeWCPfJgm70AaZw7bNJ5PUXcQL7v9RU+tVjuPQmF/71z3HI9WIN+PZ9UpL23rQA+brwLPrlYib0jM2Q9flxkvN4AxzxSw8W8/4ebPuXlAT3LBSW+kTOSPR+Kwz3nGiU+ZZRiPujwiT7r19w9VxO3vY3z7zvo3WY+zrKIvu2jjr7rBfo8euHUvWSdDr5HDhq88BCGPaFQK75sIZu9so42PRm7kr1uHg8/DuusPQVLQL0weIO+U6/nPDEGkj5kIAs+GYCqvGy+T71/YiI+RxyePSEZpT3aIK68NbgaPnIe3T3Vt1++C8csvti5YD3Fkx0+BhP/PNJjNb4mowi+mQCPvep+Ej8weI8+wu6QPXYp8r6Y5bm9KCpXPcXbJz7Sxsy+hfMFvnUA1j6jGJM9qvSJvcrOPj2WUcA9atgyPc+Por6zcqy9umAoPUHugz7G2gi90vzPPSZ7sT3qwKW9Y9wkPk5kFD1F8xq91j2xvrPE5b3M41Y9NYdPvq8tB7+fsOW9KC+dPrc8jT1+3Mc9VV5gvM7ZGT624ms+7K79vS31yDw294w9GTTEPmT1xDzLU/c9pcOIPmiuML5XyNu+ly2Xvcnm5rxvRna9+CohvnvA9jyf1Su+QP35vjqlIb7lIIQ+CU+HPrTkBj5qi7A9smwSPs6Rsz4EGKG8UpUuvncUvr1wbs0+SnY0Pqpmir3dmdA8pF8SvXB8Ir6Ucis9MLBVvoNAFz22VGA9WaVpvaQQRL6vFh48uvrrPSsntb1TP068/rzIvTsK7D3H7Dk+y5TKPGBP/D3lNXe94KYEvMHzr73tP9y9LzsavPwmEr51TCI9/b1fvLds1jyZnzy+0a4OPUs4qL3fxHu+5TV3PeqKBD35oQ++m+zqvVsIb73eQgg+zSEHPbe39L0w47O9LXAwPb29fTsvnpe9kZpRPkY3wT2BPsc8GjWgvCHDrL3hlsO9qmUYvvmMW76r1fc8wmG6vcsIcL5zke89+/nPvIrfGr7AZHq9PwnIvAkp4b1f7Ig9MTxtPZU6jDyTqPo91D+XvdXuSz3LIIc9rTHrO4JuJT4Kl5Y9R4qLPIHBoT3g6wm9yofMvXg7zL0C0pu7IpSnvqMLOj3pE5o9lt8FPYmqf77yHRG+INv9vazZ4j1Kgsw8A/9avsMlvz3HdaA8eUlPvcVfHD1ysS0+ttiQPp7bEj5L7kg+KhZoO/yKjbs/kOK8R3ucPXn+QL6oiZG+SbiUvr2cxjxwGG8+LySmPvjBQj7U/vO9u9VDvBzuwj0+oHS+KL3GPezKHr7DJY88YJVMvezpAz5G1SY+TZRvPiVOWD4bdOg9pZYTvbUPk7yzhJM867oGvrszpL51496+VJaivUXspj2jUtk+RYTWPkPHLj7Bqxm+jLOFPtZXib2unMe9FXrOvIFIeD2p4tQ8daYMPvLV/z2CIAg+D25FPfxeeD3k8bU9uPoxvgzKnj1/fEO+EPK8vmo1075WHrK9+96RPcB2cz5KtpM+1Z4rPor5vLwew1k+oGQnPRrWjb3A+mc9DPOBPqentb3ug8i9gUpzuldTIzzESLi9gmEgvTg4g72i1C48tlOTvE6cA75FvMu+yopkvsyuRD5nIcA7Lb+oPcM3uz6/dYi9TZAwvm8uJz6W0Gm+sZYZPkqWt7zOv0g+xDWAvZGK+L0+YCm9BfivPQ2msDxUeEy+TiiKvFQgGj5lbMi9KcknPZlS5r2AQfM9Skesui+ruL2utVI9I+G4vGMZ0L2Ii5g9n1QfvJqiyL24tJO8kRRmPcO2kj2cJRY+hG7/vJ5WsbwKixA+PnGevOG3SL5pkdA93nCCvR699D3VPnu7FLCwPVxu9D2bWWW+1QcrPef9T732k/49DSlEPcCcET7rc/S98pmuPK7co7sdyBE9hsCVPeaIAL5cahg+rsD3vBbKOz2UwIE9dL5Lvn2tEj1tusq8Cuvvvd2L17yPoKk9KnH2vS8Wyb0T6I081TGCPV8w2j2+/Z29zV+1vd6NuTzOocM9DrECPVlHXzs/kQu+UtldvOSdqz2q7ak9BYhJPdLHhj7ztH++Fy4WvtflUzzm4N+967qDPtHIMj6HoIm+tIUYvnVfSL0hdi89WoXFPfZW2b2zwsS9ae9qvnGCgj0lCXc938Kgu7hw5j3O3hw+HgYNvZnUnD6GxE0911SjPWSKbr4/MEK+gygmPol9lbxt0Yk+6S+VPvDxnL1qA4G+DoT+vNX8LbzpN4m949YEvm1HnD1iYce90hYsPUb6Cz1QnkC6/zHLPdyDMr3s8My8BimavYXkBL2n8PS9WT/mPXs0MT0r/lq+2GdevtiLWT0XxRQ+tuwgPhKpiL0F0FG+noE0vgdBg76tpye+K74bPkwYOD3p5CI+BxczPLv2Ej0S7Ug+WEEcvmcFsrzVHAy+gr/5vcFrib4vRtA+qqypPhD0+77jUEC+dwu8vhoEHL548Lo+OFUuvmhFK75K09O9l0EjvqhZlj1IN7a6/oxJPZ2zhT6BuyA+9FKFPq5Ovz2IgYW9PNcBvrPbnL1IGVi9RAw2vdSpGT81E2Q+eGTBPZiSRD5ztBu+pIlvvfAHkzzZ6D48sQjhvWrs6D3ytF098GpVPi1Y7jy3VRS9hhEIPcSWCL75xSU+QZqJvskoybzJWLO9MkouvZ1nVj6pXLK99vlUvodejT0QtpW9aIOavMYWIr3xKzw++PhZvbbbtbssY1g923mFvU6HsDvKIuO9VG8lPZu5Qr1+LP88IXMcvtHFuT0KPQQ+e46jPBfS7zwChS4+gE+PPfnsDL7IVIG+5QRCPv2H6DuM1tc9s8A8vVGRLj1Xgu68TyvFPbwPl7ypuwE9pZCYvVEHZb3Q5bM7lVK1PawflL2C8R885Qqqvfxsfj0TXeE9lOlPvNzK/T0IlXQ9luUFvgpABL7jLci7VD7IvLQdwj1faEo9RR0YvN7twDwzGta9G6+wPQ7rsj0oFwK+pyHxO94GUzz1Z4+8yUddvvmyyD2D5IM7gIVBPbX2170cI8g8zITruzGXXT1OnFs8b2btvd4gRj2U+2o+wJxYPhlUqr6b/hE99fe7PboGSz7tuC49FqN8u9HvoT2hqJY9VAUuPdx9ED4/wlc+BRX6u1gLIbxadLi9FIhvPj4sOr4tK6k8o72XvAf6Iz5qBaO9M2IQPpJiwD304+g8zblUvdUPGz6lJKI+4KOMPlZ8qL0+5wS9+mpRPldxhDxRb3I+xqHaPeuGZDviN02+h9DrvV9Wm730flm9HzklvsUWHj1LIQy+eorNvdeG3j71Oig+hWYvPqdOjz2ufg6+gJdLPs2Z+z6X7jM+Ho1pvdee1bvgS2s+7BEIvm59Sj2pEs097M8zvUSF4b00cKS+Lgchvo99JL46c5S+5qmIvSjoAr6PxpG9hTB+P0biCj7wAyk8J2qWve7av728fYq9VP+Bvqi8Sb19RNa9U9WDvDpNJ77C+mq+iCHfvAtIID4dlmA97dZaPUDAIb7C7Qa+iAIfPkKjkD0BORS+iR3ZvKnbXTxI3fc+nmetvSyhlj4NfhG+ODbDvKDHLL2L3ky+NLM3vumBzj0LQgm9Chk6vs9Zlb72UNW8ECRducnn0L1xyU8+/Z1CvNxvL71IC0M+04diPu/Gwj395eW9mLEbPtEuTzv/lBO/UsoVPsYJBT291VQ9bKOFPGMt2r2DQwK8r8aUPVBsOD6MdO89NI11vVUvD77pHRI9KQFFPhAjlj4fGys+2gNbuncrprsieOE8s/JCvqBnhDstwbe9aN6QPmPHzr1eYE++jK43vYYvzL37Eua8A38avp0cb71auOi997ejvDgGID42U7S7o691vDx/Tr7MSXU92NBBPjucyz3DtjG+xBZZvj8SiTzwDB8+bXrAPUwzhj7gUjO9hDn5PB8dN73cUCM9tM+jPNBJo737EAm+rsreuheLN771Xxa9GEthvYoFZT5HM02+PdZNvUBO/b0FNZc+T+zePYgkD76rjAM+4WFEvvd3pj2fRe47vS75PazLLr5FmQY+cEfjvBQqQD6kLWi95ECOvgU+YL5H9Pw8oUQCvtUvAb7j50E+XyMwvk/X6TxeOmi9AQWtvSgKnj7f4yk+cbEiPIOHQ7umNza+EqQzPkySOD1ADSs9ScAAvb7mw72K/Me95F2xPvcfsL3cDT++rkyGvrNyE76ya/+8b7XOPcNcAL50bEa+azP7PJWqGT5J15s72kLGPHjX/D0coAU+ZnX4PHADnL2zZJk8bUWCvT3s4T2pDAG+rkYMvUQ4Tb6kjKw+lk6yPJ28vL7Q5C6+xyswvmFsiz0FSGQ9nOhuPQxh771MskI9dnQQPc5MFj6/lOm71SmVPp/gU7w+DqE9FF1OvQJJND3glYa9vNn4vd/iFL75aWS+ulmxvRp1Xz7nf+C9vUd4vjxUGL46CoK+KHUIPo8MQjqJihq9boCzvT/3ED4EHF4900nAPRG77T0yTA49BfxnPVv9iD5meZ+9u6cHvbvvxTwjN9k8QMyBvS+cc73meVS+e0dePkeefr1t2IO+LtzGvn8La77JTx89fBqWPXL/zbxVc8m9SEMKPCNg+Lxtdy6+GpASPokSATx7BzY+MGvqu3vsyz0Bvqq+UzCwvbVvkbxDgb++zaDTveKxAb6uAwM9NuLdPJQwQb19JAG+mz3ovYMqKTuTVaS9UTtQvBmVN71NvaI9LqYevth4Pj64gbW9H8NJvmOtwz0s25o9IEFSPrAXDr7R6fi9QJlbPReKUj5E0pK+fm5fPYdbWD48ktO9CWhLukCiM70j3w49KIQOPk9/rj3FqgO+1qOmPSJI973aY8A8PMFTPhLPyr07Aw++F7/iPSIXQ73lcdq9RbpWvkbhUb45oyi+gKgaPg4pc77HhTw++t4fvhAiULyQkQk9nZG4vfmArz2VyfE7x57IPcWCEb60HzU9/NJFOCDsK7vaP+c7IMwbvl4DfD3jgzu9S7UEuxvgCD5jLKG98uy5u7iwA7wDC48+k2iCvh8wHL0xApm8Pz/VO44Ujb27hBS+nsalPVnIBr5YAki9AARVPl4F/L3Zji66skJEO9CjjD1k28I9lKtWve1IEr23rvq92vrBPQVdvL1kkWc+nggsPpUsMD5ZQI++Lp2fvbPQB74nlmQ85NUdPXLeib0/pAQ9zJoHvreNxLyw3ug7FgCWvFQMOD4LonO8q+2UPvRzaT0rf7a8nkndPXS3+r3w9PG967W9veYmIT0Vf0I+1DmMPkrB0b0HjXu9cFeZveUEGbysPAS99toLPtb1jr4vQbI9YRbEPKP9nbzBTge9WR5dvnU1H71+5oI+j9m7PkQUSj7nhpC9+uj5veyXH77IBZA9vknqOZD4GzwwDoM+hW+qvgToSLzDuwi+hDZZPQjAbr0tCUA9z7HXu4mJyb3kURS+QpF6vDGDQz2/7oW+N86bvRqZ87xsW4g+vM4IPgzYaj0NpMC9zBN4vRByAb6XrK69DTFAPTfkZT6Jpgy+OLmUPjKExzzHRbi8PCQTPYGI8LzXBse9yoaZPR0PGT0w9Jw8YlHMPVfyQL6ARR2+UoP4PRZQ5D1Wp7U9SjrlO2SbVL5Jtgq+y+uMvcxhG751GIK9OwtJPnnwLj42qm0+aq+CPc5JZz2HI369m+YYO6B5Cj0McgI73k1wuZ60fD7CWng9BTopvc3BEj5YvKU9E9EHvoTs/T3tZ6S9ImoEPvSj272usaS+ACFGPY7RmLxwf7y92l5XPlBC2D0esCK8Hu8sPGjbZ70okWa9Ht8iPCg+ST3DZ6K9bJZRPrPaSr1RN+E8u3t1PZjTyD1lwsI9BhERu8Q397zU8G69lOzxvSSHqj2evGQ6ylj5vSqDTb2HUi88AlBZveeypb3WQ087TCAKvVK18TtKCwO8GufKPF5D/z1DzDk852d1vY05Br1n5EG8htBAPs28IT3UN4e8TgynvffcHT6aJA2+txEBvvQaHT4+Ppy9+a4Cvmi1zLy34Na8GW6vvW1Zkz3rFTc+JF6aPV4mo71+F+67C2Jwvnztkb0PYsA9ZkpPOxFRKr5jMkO8pxENPhOgprx1P4E9d14YvvOnNT0cURK99XTfPeo+gL2QfXm+ZnaNPenhhDuN0ic9faEKPfPnA7vI9w++3h6APtr3N75key++KC2bvUMfBD44VYU9Ntp4vTTORr7aO2Y9lPIjvsRaOLutsrI+6wl3PBxd/j2oDOg93eSTvcH3WL4/I4U9An9gPI3Oqz3epPQ9pIJrO31J9z0O+nI9lGsyu1mn47z9Vt08SsgvPrCruT0QAwq9JsTQvn7FEj27kKu+8ijKPeVIjj6Dgck9RNN+PTTWlj2oYIO+GdNMPhaw1D1RHaQ9sJCJPXIKHz3QvDq+q3wxPiWnpz5JKkO9FWZTvo4CjD4meMc+e63TPcrkLb7tLtG+FhsfPTKbtb7vJh49A++PPm8IFD6sh0a+ne85vmXvDb42myI/c8JcPnCy8jzCGHw9O+fDvRrCAb6U5G29d4oXPgMfdjyr4/i9fqgtPul5rj5+ZFs+yooYPQGlor5tzi28RUUyvtcEIj7tAGA+cVjaPaCvML73Xy2+DbgCvoyK6z54c0u+W2JRu8aYpbyv8yi9I8L8Pb8Nfz06Cnw9DV20vVR+3jx8HFs94ZSAvJ+u07w9Mia+HnP6vStZvj1FIU0+D62HPSLdn71rEYO+fYHSvfqrkLx0SAa+5nvnvYGpz701bkI+4FoZvvFoELybAda6pJ0Qvd2UMz1L3Iy97Fu1vU1ohz2+t2c9mj6NPCoCFTzzAYs9IqHSPZtwszwW9yc+7KsqPF/caL2PNlO+ddoZPHcUjDy2Lce9yPowPhCbbrottf27OHmjvRcajb1OjoI9HOnkPOcTc72H0Tg9AlcXvtZc4rwsgEK8+NWDPZJC3b2NjIi9NKJwPR8fF72aJSC+gL/DvG1znz1MHpE7Z6JgvuQ8tj2yjoC9bUCqPY76lr2iwzG+eLnfvZXYAzxER+A9/E7APJ4PoT2UOIe9AsJNvSD4Sj5jai67Uy5svRmQfD3pDSq9JZQhPlv3fb0xyuy98Csyuq/yvD0uJWa+OwJAPj/KeDyF/w0+kZaOPUaMVb5hQqy90M+tPZY5zL38Rns9FsOtPhTD/LroTi29u4p/vX9qCD3fY3U+XRSWvf5LoL3Tims+NaUWvfo0xL2CDiG9F1skPlJ2XD3by6M9AgB+vrLbST3VuOw+zn/WPZ4GAj4dooq9BqiavhmkljoqbcM+k+N4Pue3HD18jEW+Aeo+vjQ7kLw/1bK9p1UDvkffU730NBc9yZANvY1Vrz3X95s+nJavPMcnnr5x2nY7UtQivl7L/T6sri0+pjAePpXMwz3hSZK+UKydvQ+V2D7WChg+VsIPPjkbgr5lu0O+KTI7vuTLCb4wCQu+rClxveaBNb5R7ik+KXYAPgVWAT5BOdE9uT3QvV7I8L14vke+wi2EPu2/2L2cyUS8pNELPpGxOr3sUPa7bpuHujCwiT7/6Qw+vuzjPZcz8L0r+YM8qYYEvsFp2L0JfuC8O1LyvcdzJT4FctK9RgeiPjsTZ7yOhZA+paVrPSN0DL7PBwK+zMh2PUiaerwEsRO9p2eOvRYy3T1JCto+xpN4PmeKpT32Lwa9n4B8PorixT05DLm87yygPui3mz5mNJk+xFSHPhY5Iz7uMIY+YUBPPi2PAj9wBbu+3UiIvh5UCr3OlpA9gG+ovaHzdbyMDay8N6u+PYe+Qj6QYio+67exvYbWKb7pDbg9Yz/JPALN771ceTs+3khMPnfgmD4JO/M6MLGFPa12cD7+uKo+JsZqPtXb671v6ga+us6aPcFhvb1ZDby8mgveu//7Mz0uAnS+9pn6Pdcudj72Q4S+hJoDvfwzND0trOO9JobMPSWuO72FndU90dJ5PqPDjL6ovUU8ROaXPfdrZD7o6Aq+asiBvubyubwO0rS8C3+5Osgk2TuXwkE88tjrvfhfvb2toDE+tAK3uxc2lL4D9oE9Jqe/PWbf7r2vlPy9AkAoPtK7s718og0+FSi+vUvTub0F1F4+auxAPmpVlr62VMW+vj8Qvvy1Kj7439O8kLv0vdovtruKbSK+X9KzPXYkNz5IHXg9Y0ctvvZVRjyRuPc9CdUavsA/kz1RF/M8qfMPvka+5T35X6068FvkvTBKLT1Fp8W88nt7voTasb5t4TC+DmazusdHqr3vnkE+ojplvlnrvbywqeK9T9nwuFcaYD6QC4e++cnFPC+GPD4DDJA8VinuPYkhAr6xUfw8pMe1Pdxppr48kB++kGrgvNf3Kz7BkG++DZfQvglmzDsLyy69oid0vYPeDj3VQiK9ISmGPIiYCzsvjEE+PiUyvcJRLb7Gh6W6X24nvRbacTzVNwa+GoiYPQXdSj3ZuuE89m+4vmDoSL5q8Ou8yTk4PsAjYb4jMAy+4NiyPcDz/b2B8hW+iTALvU3NDj0Tq+07zNefvZxZBD7BCaK7WHmyvOHefL1iHgg+cpjfvS+q4r3lNfm8e/3cvXiRdj33ow++Y848vsnOkL5shB8+CLgxv6dtob4KXR09btA3PSNhdb1+jOu729/SvGi/B758jvI9N08Svs8HHj2XOI0+QGJEvi09G77aaPQ9lNGMvepHxb0fQNA9HiDtvTl+aD6lX409Ec+OvcMl1TppzJQ8f8blvfRI8L0WE5k8XAcJvmRDkT1CMVK95n3GvbFZNz30b1i+imH0Pe5Haj7tYwC+y+H5Pf/JEL4bBQi9fyuIPTlY8T0I/AC9zKIgvgFiOb0ATb69qcBxPZyQjr0rhJG9vR2vvbTOJDtDyy+9+GAJvogiwb0oeXq9+yWSPn0GML5CBR4+1c8EPqT+A74Cv4g9pqpJPXzBIb4UIGc9vrCHvInUlr0PkAQ+jYM5viKUFr5RW9m9h/6IPX4K9r05aUu9olDzPbFLsL17nY6+yJF9vrj3OD6LxRw/x2/Zu2VrxT4jF4g+bikGPoNObDzEPxQ+W6XrvaE1SL4bWP09XDmQvr0MJr32+fe960Uivte+iL7gae0+fWLBPcXLv73IabA9hkPduQf1sb3ms8m9CcNtPkYdvj7kpBE9tfWePlkqwz5Y5x6+VNK0vSI2KT2HR1q7r1llvaflDD5FzzO94jTKvdHSFb56Rlm+yJVHvZjV0T7AoRA+Tk93vfStKD6MMYW9h/RNvZdzuLx/4mU7HhELvVvLBr2k1C8+35EDPk8k4DwGK069aeMvvjjSoz34ogO+sWIdPlpGHT13OY67X/MUPZrqyb13LLg9axkPPnAqF75epmI92jBvvWOp8L3AnnI8lddYPQmBB768g3i9+LevvBr4Nr7fDAe+YKc9PIQB+b1Ur+U8xt0kPoKX5z0jjBI9+7zuuyF5Q7whP409T0ubPW1obz7o8x08gk0VvojlPD5h5RY+m+EKvhIQyDwnc649baILvnVzgb64vpm9TJsGvdHClL6boJq7wEbFvQ6YOLsDLT894PUlPk8HqD3p+LM913CwPXff8T21zWs+oTDPPo0/I75CtZ29LqEhPeYHBT5mz6w97c2APhDWUj4CedY81zoBPbpIkb0pf109YC7NvFnLGT7LkwK+T88Hvo9sjrymhRk8T53JPXsUuzwcHnc9NvG2vbb/m75ceFq+6nP/vStYvL6AsFo6no8xPI6Nkz0PRA4+mKSWPelquTzw01s+/zgbvqfLebwfhmO8YwMavTBNc71o0Zs9mhg+veqbBL1xFTc9e/mEPAzlmjuxTAm9qnqMvgafbb2Q1Ve+HwqVvgYjYr2ka4I9FM+aPOAo6z0FYfI95OICvm5qgD6WvuY9LRxnvoNX6zytTUS96X9DvWVZ9Dw5LBS+WR4nvU8dTj2m1h0+MMIBvd0g1b1b26S+ru2GvAPoyb3PU7q94dNcPfVKizw/hH48DjWTPUAO3z0WehK917tCPn/eHj058Pq9d8URvOUlOb5XFhI9D06DPCb7CzovjMq9OwgJPjdgGLwggBw+CLOVvU42db74PRy+lFUJvqKwi75314A9VEOKvfZjuj0uJwk9EsutPXIJ7j0BFSo+XXqGvVZYPL63Y629LtBvPLlcvb2iNmE8p5yZvX/eMb5XOok8/u3gPfrt1z2shem9mexOvX4eBb52hgW+TNe2vm5EED7s06299q8WPWYQy71gdQM+VCQTvSNTAj4qVqg9+bXkvJpwZr4kgJu8/NqevWkso70yvVq+lN4Ivi1ksbtICxQ+4xxnPn7gdz3MDGq+c5sVPoblRr6R5IS+JF0bPsPjCr6Mu7W9m2RFvlAGLz5Ko/+9nXgyPjaoQr3vEuy9xTMTvqJlpz2ow3W+OV46vp74GD3mkEe+B3drvWoj7D2XuY0+7pmtPRvCL75jZou8X7jBvpl2tL7VwWw+dTO8vXqmQ71gcMa8lKoxvQUIWLy7+MW9etBOvVskSL4z4Iu9fpaWPOhR1Dr0qwm+BwwWvkhDM770aNc9r+0MPrcNmD7i9IQ+556QveAk6z21xby+pFvwvtUMIr6UF/w9cpuoPbTqRD51xHs+8Ik3PbMd9b3FYBq+0blJPsH2Ur3qGEe+BqWsPRJZ0L3XYoM84VjUPLCO+D0nB4s9vpkWPW8emT0TBQu9ssKXvjNRXr5auys8igQqvjeUPz70OkI9W147PnKnjj5Y4TC+u23wuw+Q5b2V97E9gQccvuLw0jwpx4E95GpfvXvPTD7O7hw+yGMfPbodOb4fVi8+BiowPiwIk7xlPHs8ZQ9Qu1j1uDwqrXE9Qg3avVhnET4Lojc+4wCFPWgUEb0WdzC9yWRCu2hiqr1bF2g9GO0ivswxu7plhU0+7rnEPUn8WLxJvC2+KZVsPSPS4bs13829bUO5PEzjDLynKkO+/avgvOMfoj3mv/M9RzTovIXF273g/4S8ycOJvhSIrL0bIbM9WRgJPST1TL2BMUu+ayGxvD/uaz3enAI+kkGGvPx/1T1ta2M9EEESPmWGGT5ceAg9H3XOvSfgtL2L6rY8bou/vLkN6j0y+7G9MiIIvmX1nbywCau+PZSrvea+KT5CnC09JHJMvcx9xL1e11G9SHhzveBwoD4QZWi9l0ggPtgfP75nj+O8y5evPQAAST2b2+K8OiZovaMuUb4Ft5s7BhefvEzXHb4hB0Q+GaCMPfHPAL9Zeqy+UqJbPTm0fz1EU8I8qOcRvrCfIb7mlmY+ejRVPsLvqT2eAAA+9kOsvdB9H73T4am9BDKdvdKJb74gb7e9BgwDvXkWmD0+EA69NufEvb2gsT58wDk+yPHQvjNoub5C1L68py7NPPQcjb7UDbW+VOQivhosmD66JZs+xXZjPpqskj7k08U9DQCTO5gvmrxyyIq9fiXcvQwLiT48sy++yUfFPZeVCT7+afE77F/dPXuzWT7xuZ++2OqJvsoHqL1649O8KQRmOnJwvL5mGZS+qddfPgVxW7uHwhI+GjppPl6Y3D3TDLo9ZjkwPp2ejzxWUPC8psWyPTITgb4hVYM+qFlrPs2YqL13Hv68szUmPaAytr06p0k8CvA9vXqhxzxwFas8+aCDPR0mZb3GLEy8hZQ6PT5jQb4+SYi9ntlKPX32lT2dMk89pS7SvTQ4B75CyKi+wKe4vWPEDz6kTAa9K7dDvf9JA7xRMOu9z4cYPnUV2b1PUmU8uXIzPbFTmr0Yok++xJKVO9I6tTyLv+y75ObgvWLunD3j8QQ9a3MEvodnqT25xcQ9pksWPNMgKL6n4uO9dKBmO3JpJr28XTQ+h950PYT8NL5IqFc9GWPJPOh5qD0umia9PzwXPfXw1zyhdgo+HoJJPWO9BD12Sk++cfYJPQe4rD2QMq49M3AaPtafFz7RRB66k/YRPqFjer1xzom9ufLlvPR9Pj7trUc+C6EFPqhGFr4oTqC7ZO77vPfODj0YEM08uEXrPTCdwr3KkUU7jGs4PXqlL73U6w89qrVNvpYaUL71T0u+6463O7b0Mb0+cgg/QGSLPmyd5DzkOYc9/ighPrsVoj4qnDM+8FTrvDeO0Tz1YkS9opWXPfU6uDw/Mng9ZW1Xuyxjyz3tR9O7i42KPTpZXLzkuyy9orgzvc1aXL4M+x6+C9FZviC+AT/xR2Y+kYjgvpvHKT3ojL09Xr18PltMwz4NLWA9WT77vClwbzrF2K492N/ROzX8Ab3eb507xsRbvSomoD1yO7+9IXFnveAuzL2i7Hy+R+EAvpD7Hb4ieZe+UfxAvDJOGL7R44u+OMUBvOeYX71xzkS+bAqVvBFPk7suZSg+m7UuvRp8BT6abEw8dr+ZPbMHk71u7jG+pjwiPqAm7b2zCm89xIdjvsEeXD1xvno9oc6wPnTPjD4ClPO+v6KnvXY5Dz5z7u+8LaC1vpI54771f5G+wDwEvnKxfD0hSsC9A5cjvY8vo72+rn29ryuTPaVtGjyjwBE+ZknPPAXaTT4kPIM+kw5KPnmDyT5DtyA+UYJ4PvHNIb7yV/w8uBkQP5KwsbrksKE9QV1nvTuvsDoWxHM8bToLvkjbaL0Jqgu+nEE8vlTMqLz5kE08ixHnPLDZAL0bm3q+8KdIvYFOmDyuH389/oSzPPxzc72ohFS9LaBbPSliOr65QfK9terKPTdtDTzefQY9UUcKvsy1Yr519b89C5sovidbg7303rW9fpdLPmZ2YD3n/6u94Z1IveWJW75wEA+8nmglPoxSdb1oH9k7S2JFu38cT7zL4aA+NY3tvKNLB703OYk9VlnlPMmqxL2ZX9q9PoubvYfX6D2KsuI7dPfUPb4f+70bajw9D74TPleosDwwgg09mXABPSHFBr0O/JC97z0FPnjIjL36ne69DYGCvVDQqD5afAU9FMtVvbojQ73fVVO9UwgvvWaiDr0bvT29izTpvPUaIj1aqmE+gFvmvYoxtD0h/8Y9fKYvvZPTGD6AmO28GnO2PcDaDz1B2la8rMmevFtorb0diSq90pKaPW203ryBbyu+NYmKvqjrAb7HMHY9ndsMPqcWnT3a1MG8BntcvVbZKb1DuDY+hsb5PYDEgz6r1BM+j4Y5vEf2GL3HQ5M9306APXHakr06thK+4dQYviqbBL4yt1G+6W8UvlwcDr5Lgia+lZ8/u8C/mz268EQ+7nh1PXFH5D1nCJ++h7AWvu2RSr4dvZQ+hviKPlsQm73xsnC927NlvpCJlr0iWTu9wkShPdv/Uj2Lemm+0RfjPSQ3Nr9vdqq+n2npPevhfr5oqkW+5+pxPm86kz2qGDW+GZqpPZlsLb7mK9g9kKPDvI+/Rz4Yp/c+fDRqPvSXB74fwYe9o7EQvT/rkz23fIE+UnaBPmyxFj5HI+88ptgKvlgdbj0ORw88ngIJvqFqJr48Ta49ezcAPqq1LL5mIxu8vNzNvQo9Uz7F16q9C2cnPpK6lD7IfZQ75K3VO48Sir3tDhq+D790Pf/8trwe/8I9UhZiPtOPoj6awq09NIPyPrAQYL3R+Gy9BT4ovVjDPL41EGw9bCNFPb8Pa73gNwq+IIMevTFyAD4LXwO+6lcIPV9ddTy5+vc8MKSLPEodKz4/aW48zJsrPaZnAb5xk5G9zfQyvqHPDr58Jw++Hf6JvZ8rlL08FjO9cDWjPakYkb131z8958qFPH9P6LtWwEA9ZQn6PRuot72xble7XDVnPH6AcD6M6Ak+oDZ9vDSr273D3oy8Z1ThvZIBEb4AVQm+hGWpvNJdO74BX5m+t94dPcSlk72HShK9tzuXvaE8C76XMFk87v6ePR+8nL1bgrA9JdVlPaaKm7zpZ9g9bZoFvWueST0XbxW8YUTavIUyc708BkK+2dZ8vUa+vr0hlyC9FqVJvo0HQr2/64U9QuRNvcmEmD2Cy488fIFXvZnjg72CJe49Tr/lvRX5Dz5ql9y9dyP6vQCttrsW1B8+tHS9vfXPYz7lhoe+KLSkPZtyYL6Z7g++n5GwvA0o/b15XZC+uTOcPOMdJz6mYzg922YtvjhZor5zW2S9GwYiPpr0Bz5MbUQ+mQlWvRj3Rb6a2Eu+rk88vkwadb2A01y+DIeZPMhQmL3QY/I9oR2yPjjnOz6PTeI+lrrUvv+Gab4uxWg+KB6CPrtneb3g84i+g6KEvnecBL3YzVk6DjQLPpfdKb0Dv3a97m1FvhQ2DL7ggIk9YH+kvZT2VLzDofU9KbhHvD35s73e7QE/zuwNP3OnFj981a++tgwJPb4+YD6z94G9lUKhPefJdr7xXJO99YORPXmpWLziUPC8pgMfvvz34bxPOM29F0O1PYFY9D3XmrQ9idOrPf4kHb11Ix49s3yMvlkYcj77pE8+Co2BPm+zDz0sDcs+jQgMPvzkTTwTQei8+X5WPkddij4XdQ8+jJ40vsPLtbwUd2m7C4uRO01XMT6esnY8uRt3Pve7hD4CStA9pfapvdL2Hb72Oxe/gWxavYUijL6hOoe+7eUDPxpdKj+jL0y9ermVPJlTGDulij29z6qQvb26Sb03qmq+/c7au1HR0T1OS6I9dYqAPeIdAr5drgq9vavSOy+OtTxJG4C+GE3YvZofuT3EmmC9aSAPPQZN17x/dRO+Di3RPCYiy70woVa9AtiePWJZlb01IOg9CoXLu81BIr2fF3O9F4dIPZXP8b3VvhI+wo/+vUXekDwjy309OSYBvqiYv7wcB/a9jQMJPpkkCT5yVqg9KNAavoen+b0VOha9HdiqvVJ24zzo3JO9sxKXPRMuCb2ZgyI8cbvRPVbAmz2zYgC+UCN2PcQJfDy0foK9k6rTvVfx9Try4569lJ0jvEdIEL3Hcq697C+PPOq1ez2kIgM7sBBMvZGD9L3SKWk8TKQjvft+hb1OHTO9MNrTvakMVz0STJE9U1OMPaLaUz7QrWY9YOi+vV4xtz2RjkS+GpcdPvYEhr4vzA++uwR6vZdbFj7Jdtm8a8uoPX35pzzWW2O+AxtgvgrZMj5dr8o9V4iVPA9frD005+O8iJYlPLaFoD0gW6g99BKyPTNLAT731du84Iy7vfjFYL6X1Tg9W4U2vlLeAD3QHl89c8kevuFEgz47wBg96EISvVfZhr1cC8+8KGXTvCtGRD7Db24+ET/iPc42nb5kby2+vvK5PUsIPj2ZY5M+1WtSvSyWsjuYOqC+R9SLvqlaaD7XMAS+UINePpHeM74CTiS+88umPb90Kb2JG0q9bn5mPQ2n572uDvW+XrFKPjiVaT6uS4Q+FSSQviFeHb5F4O+9JvMeve7IbLzdQXO9hClKPsFkxDxq2fy9V6LoPqNfzr02eiE/zWGdvmLDSL2ivJg+tpY8vTkDe75sWd0+TEBRPoDSA786YQs+sj+FPXUzRj6Kf/G7X+QFPp4per15xnG+DE+pvTFqCz5twpE9/9xUvAJmvjxTkxM/TyBYPd19nT5TMRm+1hvqvPM0Gz6zq0y9YH2evTd8vj5UUiE+717WvmE467uik6u9dQMbvG9av73Lh8O9flNOvBohljxim/w90os6PWe3I71WDOC8lTAbPRBWoz2h5E0+K5v0PElGSbzsqXW+hn8PvjM0nLyD+rQ9fXI/vrx9oz1Na8a8V8FxPKNl2jzNMha+F2WyPbGewr0KpIw8JEyKPQOVfj0868K88CiEPR1CFz3AP1E8RIySvXcbUz37EhM+BHK7vO/eJL670tG98VIdPgD2sbxNKMI7JnWnvdU9fb2FAEM9g/9uvQ4J1L2VATg9MEbPPeIEhr2YHIs9glfjPdNQNDw6mzC9S3+EvTLb8zx0kPg9vGh1vY7xx716wke+IFpvvsMYcz2XBMg9OFqKvMUdkD4OJqW+hOdDPV7GaD0xk0S+GHkFvqkdsT0Hzsc8w8bHvBfeUT0sMgc9TKK/vcmhUj7qNIU6y0hpPB0Uw72BGfC9YRh3PJt+Fj18k6Q5N086PjgWOT70eLU+Gaoevr/D+b4N0JS+5qjWvkzSv70TLyw+79PhPdawGz7/jUY9gF9tPSg1bT1WtNI95Kk5Pg8RHz2Cyl4+63IzPoHtUD3HmV89a2u5PB8e5DsFMge9NXidPtg7Ib3PLkw+rs2PPdTG0b33A6G+yT7VveDkTj5PINs9KNzlPXQghrw0m0u96XCDvRa7qr1eh0e+N+cOPp9rAb6XB5u8dJiBvZd/pzxBvhC9J+ufvilfxb1Tn9C9LYLbvbnehD71Pwo/9nJMPmv/4z7FbAw7rWICvnLMdb7kc4w9DcaUPf9pSL0EiuC9ugAyvklkYb7Oaxa+KDpTvorawb1mrhS+VdaxPUX72T2AqLg8pyhWvY/V+z1t5rI9f/88v7SU1z4pqPC9x0oEP38eXT28TJW+IDxrvg8Xw71H1RY9SOy+vIe3c72sWEG+N5QKvowJKb6rpt69TlgFPpyMtbyEx7O9rUdLPiIptj3EEQg+1Mk+PptPXj16NhS/HtZPPse8ob58jt89ePrbvKFacjzRZgc+OQodvpFErL31wd49vEz8PJAkMD6qKzG9EEwsvQ+KMz1KWKC8ME4lvrpr5r0cocU9rnKYvcDbSz1zYDI9WahzPod8az55lIs9B/pMvSIKNz3iVDY97uZePb4l5jzBK7+9RYj9PUx/5r1dTzO9tlSwPFcEaj7ICAY+ggKDPO/6Tbxz1fQ5U43kPO1FIL68L3a9QHbyPXXmQ72Iuoc8nEjcPRNsjz7pGQw+TbJ6PXDMgz19E829KrlgvUi0dD1uTwC9bdLvvUn89D1Uzyu9+h1pvWCxEj4Aale+7SRAuiP87bsbd4y9k5iVPAbfTD7vDlI+HffQPQz3BT6TvAI+HVJzPrdJYD5BYbE9GQ2ePeA5Gj2dyi+9jio6vtS1WD5N+K29cyGjvBTnk721qYs9m1sBvsO1abvNxDg9czi9vZz3Or7SUhs+nV+IPpMbzT0KXT49KdAqPhDco72ZEp8+OWElvomvAr1FO5o9T45FPjPxtz0/Cw29HSyxva/lOb4rpiK+lMYRPXJjVz3rBqc8OXQAPTNQ2T2u9i+9Ey+oPfY2yb2ASIc99VQNvQ0JZTywlpy9yvX1vkHo+jybnk08KDOXvTI4wz3HCEk+Meb3PTOT172EtrU8jzdyPY4swbv/uZG9dKVAPgnGJ7300Bc+cigUPs4KXj1ui8q9CPtMPizXQr61v/69JcWVvUKY7D2R+v6+xMeBPE/M0z36pfa9YyRLvbwGnz4taVI+sBy2vGRoAb1XjmW9qFP+PW1+ab2HY1Y+Fp8WPhS+T75eqgA+UXUKvqmZaT71B2Y7lhhOvuPpPjxdu7C9bv1ZvbZDCr+gIk+93tEkPXhiBj3BiYc8wqUXPnQUHT6GAK69KU1zvTl9H70g7OU8JxnlPSU8H70Q3Yg8mi3hOu3vFr6sT4O9Gynbvfg0h70X9nK+kdT5vK/OoL2+eSO9CH9hvxATl76Gp8i5SHEOPU/Unj18/4A8rNk0vQE+0L2aQ9I9zIgjPqU/+71IMNQ8zi0bPmKrA75jXvg9tQ8LPk/v9D2WmgC9/Q1APqHJbT4Vwao9UJkEvosFOr5Lqt0923SNPk6i1D3znmg+2TYSPFgluDo9FTm+CIlGOq/kFz68gzy9WrUbvioHjbypoaq82msmu5/KH76ZkAg+3auUPFaW5T1OMTA+o6qZPcZlLr1aCaK9gU03PWRjDD6pnNg947IpPUQsdj6sm5c9j7QavhFXwby3rsm9AudEvOjSzT3cObM8/EdSPnYaAj4qRzQ7vXQVveMUjLy1LUw8VExNvR7yuD0ieQK+FRIEPo2VxrvEV409JqgVPto8BD4DcxM+WNg+PfQfjbzaksC8VbE5PCQKur0B3cy8lYETPXFml7zGog89ps/CPRtVtz3oB889LnLwPZsqzj3UKvC7E01yvVBFuL3ADAI8vHmivYj5hj6KP2276I9fvmi32Ds2T2a9Ho7BPmw2Cz4or5Y7bsm4vUsEKL05t5Y9pnMoO+kTgT0KuTm9llWpvQbupz2N2Hm+VhgJPsk6Zb3O6Tc+W5fKvV5akzzDJoS7ys4RvWialb7NIkC+QRFwPo+TbT18TAY//JEZPm92hD7S3Io7qLYOvkALRj1ME4s9sDeGvmbQ3r3doyG+K0SFvUlezr5sO7w9k1aQvoZMtj1YV4s9mgQVPQu+n70BOzi9uH0Cv0yjgb6hKiA+lXaGvsXqtL0xEnA9qtGQvQHTWT5QKBY94TQrPYisdr4pVge+3vktux32tr2M3oG856qEvoxr4T2Jlh++j2cwvdJeAL7Xrx2+t/q6vadlQj1S4Jo9D2Omvb14lz2OLRS/CxgJvua9vz3CpgA9qLsLPsq0Lj5rS7E9+VPJun1YN74MZ4m+c8ruva6e8j0uMRK+gzisPqH22by72L+9yG6MvTytsr7DAJ+9V6AavuBtBz8LTBo+U6E2PrT6WT3yckS9lfIfPdljvT1Rfra9roy2PKD0xj1NXs29fI9kPfSsIr3DdGC+dozRPb8ztbsv3Y+96sItPDJOPjyHFmO9vdwoPGfPAD4Yoj2+nG7Hu9qJh7209Sg+zjuePRtiGrtEw6W9Fm67veSflrxlwFW8VkSzPE6WA70l2aA9uFbyPTYGdb0mILY95/nHPUfeBL4hOUi9LawJPaMwUD3XQpG9es2jvWa4pD004IY9KiwdviSnZ7zvLa+6fYbZvHH+ubzgazq+EZ0WPRGtJLtIhc89MDc/vuCNIj7COJ48TyThvYSiF70qB549rOoxvjsurz0Rfns9tDEaPb8ejL3ctiM+yZWDPNESyDwNPx4+5XXAPdbsLz3xQiU+PnvUvfsN072u1a68aTGePbxFwb0U5xa+UHc5PmofUT2SAsW8Kv0SPoPDBj58zTI5hFVBvnPbRT1iWHo+c5+IPOObfT2p/IU+gUjNu8nHQT4n27M9LamdPIaG/Tt/zDu9xf0qPvdVHz7h8149LP0tvQ9Vlb4N5yC7FLG5vSnWfr1HnpE+sdSjPXJ17z0ZIMK9jQVlvA2c5zyMKNC99F05PtDP2T0OTus+X9UGPhRQxj0xyta9vd4QPjl9Hz57m0U+eCFfPg7TaT1KSI++E6Iavn4xIr5ER7C+9KyUvioTdz5fXVC9IzaiPhBPxzsJk5s9nt0mvjU9vL7pzbK9TDoHvsQDUz/vlbc+3r5xvVTZqT1D2xo+fME5Pjgikz4QRKg9fAi7vOj09z0RNaC+1nS2vGEKsL6/g2G9DJQlPmWAYr2K/3U+XnkBPiV1Or3edF++Umo1vmn/gb2RFYy+Hv/HPkIAiL4+unW9vc6RPthQAj5mq5c90xQ+PXYI/71xfgy88zWGPshL7b0DBXW9vcT7vY86o7yQGEY+S4mxve50sz1XwrG+P80XPqDfBD3HaQS8BydOPlf6VjxtwQG/U0kuv4vSMb7F/Y697xQavbTm2z2TgjW+EjjyPTB6lr2UdfA9Gd4uvZqC7D37Tre4CW5LPFar6r3TokI+ql/nPGa2S74w0Vs9Xo7nPUP5wbzp4969AAz1vEcrEz3tsxw87HpdvjNlFL1WZvi8b1Iavq2hID5zqog9bqwIvnHAsj2F23W91VbdvGRVm7vdhAs87+i/vf9jHT3PR7q9Prf8PVvkzb2rjGi9ORW3O80c5D0Dc5a9z6yWvGhC3jx5ghW8G8V/vSKO+T03qo28KUOkPJxmTjwjEGg++dz3vZSriz0MtDa9KsPGPboPAL6rIbU8yB8RvlEovbz2ViQ7xG/KvIP5AT2NLeQ9X3SZvATAcT2UW9o9skMgPsfqljzNDtw9oMA5OsgArL0UvYu9PjYXPvX2FT2jcgo+5bqxvU/jCr5u0dY8s7spvnmODr5lmzw9JiUvPhf2f70MlfW9kT+5PASQWD2fJIu9xye0PTnQYL6kb3y8eYoCPrvHtD2UWzO+EyJCvHJau71fC1m9nW4APFW3uD6lZk+9oVJjvsXf+z1TKM08KzGTvaiC+7xehI47M4kHvsCMMryZnCQ+GN4CvCZNQD4R5kE+hq4/vjdiGT3Z7fs8SdCXPT3+D77lnPI9xsn2u7AIi75Idn29eExiPuBs4T16tXU9Rh6WPpRH3j7npCo9enJxvjW3X71kiKi+LrlYviomzb2AyNu9WfIovfvJJT75JKk+5vYYvZRN/TzoQ1Y9oRBCPVS5xz4ac6k89iHWvZhcm74qVGw+giYsPkTJQz7dAjU/K5nEPoD5ZD6ZTZe+1AsCvfBQnL5Z9CW+GdDbvYlKXb4BPpW+XqalvZwfZj+If/A9wPqfvQNdu7wRLBY+bpWXPniylD2eZBK+YkfVvSrRpjxLi+s9i+frPcAYcD7f6V68f71CPZKzlzxdNVM+FFeCvgQTZD6RvlS+dxeCPhCA9b38KAA+apMAP8LtL74fXv69C+JSPSoLVr2F4hA+fCnLvZoPZj7cNW69wnahvalLcr59oyg+f1i5PaMxrb2UVd+83HkiuyjC3zzOmge+YmgpvDpScz0v3HA9nVCBPSy9k7u2myy+pm/HPC1c3Tz5tSW+gclDPUj0LDxtc7q908TTPWT9Jz4J4/y9D4gxvIdpRT4PAJy9PbTpvWgXVj1E0xs9E9HJvZUt8T3f3zE+ZrfLvaA/F75IIvO8Sen4PXVbE76vUoi7NVY7vmFIOb44+ra9IyQwvWFAlL3oWbg9M2wHPlX1Kr1/Ige9hF9MPT6p1DyGbJc934nEPbrgN76RL329AM+2PV9EYr7ybQq93b6iPS4NzD07VyI+U4NsPlweJzxU//07bWBqvpotL76eFsu9Hc1APkDhuT74RcA9Vra0vQrWkj3AkPw8durdu6uoWD1sLQk+ZQK1vAtyCTy6qY68izcnvWdEsj2fcFm9DEXzPcRPKb3P7pg+CmhJPkAvLb2YGM4+te3gvWJoxL32O4098V4XPrebr7x3qeq92pJyPJ1MKr0+MDW9ucrIPbi6AT4pfRo+VAIJvn0P9bwI+gC+ulzkvX54e73btSk+aXYcPRWEfT6lAn89VtjBvS7Iij/4Zd29kc+Ivth2/j04HXO9FLnDvZM+S74vMaO9Ma4HvnQsJD5zhNI8zSqZPfJKWz2C+YY9I5iLvhN9Aj31qH4+tVAWvr/AAb2owou9T7davkyfX75zYCK+9JhDPwD+gr0OnXi+pzQYvgNi5L0wY+87IVrMvX1MAr5Z8TC98t5bPq79Kb6uRlU+gFaKPYrNsbzGCjO+I9V9PKjnrTzizIC+QVgWvmL13b2Djnu+quKXvkyd4T0A8Ig+9z0YviNogr6qjgC+iAglPRHvND1yB1E+xgsOPZOJdDxvGek9jY4jPq3HQD4OPRQ+7E/svWv0cL5tIya+S/l3vMIwc75xwTm+EZFDPUrKX76Tsoy+kBY6PhZm/T0Ot3I63BbYPJCNEL08eoc6cT2Evt1xUT3VR/U9JVLCvW4dHb7jv4Q9LF2SPqyMsT3YFvm7mpETvu6x9D0C3Yi9mB4Nvj5zjr20cTU+AnlQPsU6eT7iVp28rEL/vVwPHb1j9Bs+F8YjvSnnnLyzxy6++kCIPXDtBz6+nFw7lV20PN8R4z0pedE8RkGWvNQqLb5G8wi9fH8mvcTDPTwLmA49a3+lPcoM7T2H5Ic92KHhPVrDn73Jn8A99S2CPd1Amz6umHu+h5mJvOr0Lb26aF49XadyPr5XIr6GjfA91ZNZvQb2Ezwr4ZI7p+xkPKIeir2cdgw+wt5fPXQaijyHyyG6CZj+PFoXkz6PEus8IxgRPjMs/zotqTo9/DDoPWVomb3U75s9nGHCPaMdqTz3nDg+z4OfPRRZ3L0UyVI9c2DRPA+VDT7LRfY8aYzDvHm0Vr1wxT++le6cvo3ugr7cdkO9GZZKvQWxdLzh3QG9BboYPtJ9nj1/lJI9DYySPVYCVj72wsU97Ya+PIWhKzwI7py9F0vpvekZC71YiUy9z0zsvWCx8T2aVb69VYFuvCwHZLyZChu++QB9PbL0gTtFWta+bS5Gvg/M7r3Gjv49CczxvTElPzxfl4A9ifFRPumtj75SCYu9Eyy2PLvnxr1WleG9VoClPROPlj7sJzQ88PqZu2Sx0r6By3k8CKs8PQZTtr0TcWw9OiS+PJvI9757RAa9mZEYvqmGzr1EPgq+HTkGvetNBj44IfC8pbiVvjHMtb0i3XW+09o9vm0yYr3xC5Q+U2QPP7e1/j02K8a8vfzKvi7gEb6dOLE9BujUvaUkRD7PwPc9PpW+vieYur2x3dk9D4DzvUcgTr7VC9K7lAWZPfD3Fzu4KK2+27OVvuzkoDt1apy9NdOrvImNSjtGN88+oAbgPePRwrz3C7G+LZQLvuFwm7052N079Mz2PYgpxz1CF/6+OjIJvswHF71JqkA9KAqCvnZcyLsKn9M8ZGGEvf24G765VTA9pTefvbHeQT4mpLy9jLuPPYEZBL5svys9qGPrPLvcaL7HJda97nqzPQUfqr1UNIC6R8BaPhfOQL0Jfvi9YiyAvM9eprr20vi8yYF2O/2eEr3qoYU9MWvHO3DQaj1XHFy9xhUqvYwqrbsxICs9GgW0PLwQTjzO47i9Pth8vnP/mL2MHN+9YTm2vRoUkL0WrJo+MqC2vSXEM75Q2es96H08vTdr/D3t4TK+rbuCvTFG4LxK1DO+uWGjPeMegT3WFu67AFgovMT9yjsLfsE8e3AfPV57I70s6oa90qdKvRGpBj5QkSc94giGPcqC+r38JAe+HEGIveba3T2DL7m8VbtCPuvSfry0vsW9hly1PBYx5r15k+g8bxwpvlHHq72lcyM9W+nVvdN75j2+kQu9XrkPPYi2ML3vczY9P9RnvaDJ/TvD6DC+FzPuvfqyLb2/lwy+a+8ePSj72b3aE6G73PgkPrrrRr6I0Qo9jB5gviPBKj6No0o9aehLPotW2j1wQoe9af7LPN2PmbzsB4U+JmadvSaa3byVvg8+9ZEuvs5zqj2rUiC+x5PcPjkAFz5HDJG9ft8avvNQ4zuyi+c9JQ9EvpIZNr5nB4y+m45aPqtRzj5CFac+q0XKvflTZb2wx/A95454viXvsz4f1+W86yooviKvoT4lpH6+2/6+vX3LZj7n6tY8QFKpPgcOA76RSHS+neXVPGJOWj0RZpW9zn2Vvqs6GL8q9E4+95+3PopGDD+k27I95035PcclZT50KvC9BsKDPkZovb0XmlY+avLSPm16ob4zum28YSAjPWF2YT6yIig+dkQUvhntXL2PZOA7HBY/PUZl1Dv2/ea9BdO1vm/k2z10pc89UqgxPqaqcr1GUG+8Ys7KPkrHBzwRcZY95gIouzF52T7cjiU+silEvpsP3js7iIE9Ed2QPEeDrT5h8rK9szu8POT8+b1XOEg9nNCTPVdoa70Aomw9Rv+uPGIeeD3wPdq8CfXBPbEegr1+wH29hUtePBMFz71WBlG9reEAvrhHLT5DwGi9JUWJvPawhL0awfO9HH+zvZg1hD5R3Zu8+oh6vJI0Ez0BWzc7dHs4PRUB67o/8ro9nPmNvRYalr3H7a886nNhvDEQhj1lgnS9FX6BvYzMcr16pk69PlOdPlrrgT0AWly+g8Y2PLqVb73cA4E9stUkPWHwe70+k669uHcWPvmVCT0rC5E97yOZvXMW5zx3d2c9I41svj51ez1lxCw+12rJvUyxX7zDC1m9npamPNhAh73LUjc+hCWuPfUXYTwD+gq8Elf3PQMhUb1tPc47RCE7vtwYV7zvWrq8A5icPQEOxj2pkSU8DNk6vvg+2Tz5tA2+2mQqPpgZOD7qHJ073XIAvnshZz099g+9I6pzvcYcuT2+D/69CjJHvhONQLw3rJY9bkhuvoepnrxOHWE8KRDrO3bxfb1YqC++F49JPUcCRToDt6i9JiYOPfExqb6bVQ2+NjQbPrZLuD6UK4w+5vxuvIXg0r0YL5Q9q7fgvZS787teALk7PWcSvtij/r2ZYMm9hNrRvA5JmD1Bagw+IMWCvhtx2b4V3TM8f8i2PO8Y7Twy3+C92ks+v9TW2b5iPkc+Uz0eP0Bxqz6GSGA+LJa/Pac0sT2tvR4+BDyyvfWsmT644oE8ITJfPRQluz3uOve94YIFPo7vwDyESi++Gtx6vid75D2WwSg9/YQUvst4Db4Z1ca+5HFRvvYvkj4GrNw+Q8tnPgrD+D3t2Is9mYDXPbEWOjxR9NK96N0/PoC4Ab5FPAA/mOf7vHm1kr6RMK87ePIIvQ8c8b3oNBC+//kgPm9rJj0S6528MScCPny+IT4S+Zg9YxStPoXnFz9SbK89XxWVvUo5wr2YLVC+omsRvZTBJD0mrLW9UZl6vVljAz/AFjw+C09PvrnEL701tYM9dRR8PIpllD3Z51s8UoQPvpVaCD5Bzm69sY+evbdFBb342709fTiavWJcIj5vkrq8tKShu7vaLj2aXFG88sEXPZ55/D0HZmI9V6TRPZrhmD34zw2+GYSRva6HzT3LXGe71EQqvX4U/7vO4m29IokqPRIYnD20FD6+MvEhuz3aCz2orMk90pEePdZsVbsdT3w8rfRVvI+LjzvxLPU7MB8ZviVEED4dFIG9cU8uPh7MIb39qUu8Qw4lu4sPqr3S4IM9Gh8LvUQHk72hoF+9iVUSvJLaNjwtdhS+G/bWPFNHmry52Uo9Jgz5Pct02r0QPFS8PLDvvYVzOT1ByNS88h3XvX1Ca76d6489/DJjO1+4Iz0bSrS93YTFOwoorjyMl/28asAKvtVVyD0fwmg8xDU/vUBG47zGRpS9fnVXPOafQz3mYrC9GlIavvBOSL0SsHQ9RyGIPZdMI76ePRY8chQkvkOAyzz4qQS9AunOuyc6ob3MRBe+Lq0CPvspP75o6w8+6oCQvJEGmj2e+7M9CCINvsO3Pj1eJ2087wbFPesx8z2VCkC+oo03vQNQyT0EBUU9QN0/PeJ9Wj4QnCM9qXyxvGblE7xOc6Q9xF3NvB56Sz3eYh+9L/eUvqr9tD2hxC0+YPm8vW40+b1hIPK85vqIPZdqADtk0788/m+nPiTSnr5YMAc+n9X6PYg5+r1Q7Z29HxQIPRo8Zj5wmha+4QMFPck8Oj62T5s9CE6PPvHaUT4InJ2+pyv7vdJVFL4dqE2+ICKuvvwOdj2NImc9q5CxvZrFzD0a+8c+qv6nvdHLHT0z+Jg+B/W4vkXruL579Zw7spU/P/8D2zlAaKq95z6DPocSgj5Z95Q+Ah1FPmVnZL6xnzi8f0YBPe185b2q4We+6JOYPNLm6TxxImk9lpAYPah6ZT7C4Ka9SAyZunyJNz75iU++ZZylvhExU70CFxQ/9YmPviwLU76Hc3g8UglyvadITzyxYYE9gRWfvQFStD2oJE49naGNvttxKj5ZQUa7kbKJvmNVVL0UohQ9FVDnvfpmdD0gvFS997kIPu5A5T3faqK8UWbtPGJ/6D2ZUti84h0gPcS/i7yWR0a+NNUaPtke0D3w7mW9m+x2vWiGiDzczbC8vh/NPaFKErwTwkS+7XG+vFYxir3bcoA9rNDNPVAJ4rzFlk0+HarNvRxeh7z77c29zLw4PhxnVb5HHjw9uGu5vcccAL4rN6e9FdZrPQmajLwIaD89QjrPvdDREz19Alo90QEOvcncPL7g9kg8dMqzPZ5L1LzeA2C9AuMFvt9Njj17OJi9LM7dvb19kDkVnhC+XmqavYNdJT2rPwE9ZLF9ve9gLj3oSRS+O8alPYsOir6ydOO935UkvtKW4L1ZevY9uFdNvYxVHT4yyTk86L/ivYLFyr1GR449XKBAvu6UEb7csGe9PUGBPTcSBr8YqxS+/F7iPfADdT0nwrA8m9ZXvYV3lb3mjJm91elxPddn2b1YGrG6cWsvPQL8Qb1SxSU9V9opPsDs0rtDw3w8V+A3vTj5lT2qjkY9zd99vtUAgz6W9yM+4A5EPpJ16L0GjAU8fHUvPrDgjT5F1Hk+p5U0PMQflj0NwG6+s0sjPOx4gz6YTdk8lxffPe/+Ij6sUzQ9UXhhvlrySL7HYpq+16svvgkcZD3qul09d5KHvfB50T051gk/nnoRPuxZAL6X5vi8/tdaPj4Cnz4o29g99dxePuXokD1EQB27ZTG2Pk9NvT7GTTQ+zr2vPN3tqjunJci+x4IovrwgG75QDUG+nFpkvp/zqr2kzzK+Ywo2vM6ucT+4e5A9lngGveY6Xz464/M7ubE+PhzIWz7uyQ8+cBC9PGbUiDsflRo+b6KYPqB+sz0UhXS9bemZPcma6r7xZI69GauLvQMdJr5ImCs+cMXLPf2W7r2f2CQ+pqkjPjY9yb54F4i9ShRRPrUwtb09dJA86WZqPayTEr5AUqY8W3yOvSfxljv5maO7q+YrPZ3eVz7mkVs8LuE+vtYbmr4MiWO9tV2BPdliBr7C6aE8nOYGPvQ9pT6ZAVQ+hJF3PvXmsDzMggs+Iq+VPS0PCT7UNV0+KdScuyi/Bz47lP+9NMBsPgyOTr19Uei84GuEPtuRfLyHBN29Tb+GvgNl5709fVE+KloKvSRMNj35/FEzAo2WvaSPib5Uy3E9A9oIPu9igLwhiEM+UpqSPZgIVj0X7J09w3lUPli+yb2Vgh09s5ykPVxYAL1l7TY+JuQnPtKmWL4dVOQ80uc1vnxlUz0cQrE9glXavfqAfT6QLKi9npQAvrSZJj0Zo009y3aEPaqKI722uKM8rns/vJ/ZgD6A/MY9+DwKvrKBSz4H+MC8cHaMPbVAgT3htDU8IeZvvIgdE70U3bi9MxtpPfuucj1sEy6+cXxlPQT4nj3zIRe990iBvbN4QD78VYI988nKvYfh+z0N3o67iNYmPn436j2IASA+g1HXPU2kCD0NWMM9cmqlveI1Jzvmbv49QB+RvbnYtTwv6ki5DKguvfSLg71oUMU9wsYbvTE1pL502cW9Kkg3vFgzlb0Y5oy8lhSdPWEwdr2m8gG8t7tiPTO4bT59cVu9AW5TPSaunr2Uv2292P80vbwpwT3YBGM94eLqPQqkEjzzFk+9W2J0vSrGUj01gEU+miM8v72znL32sta9HN43vRTL37tRRNm5alBbvtvRCj2Lnw09eUe9uwLZHz53uq88hueZPRC3or1uax6+k4L/Pe3v1zzzs6U9GcmFPNMpKr0nPES9W2J/vaeDSz60kAa/rAu9vY6bHD6O0es9mGvEPYNzcT29pIA9aeQlPu7kdz7v9Fc+9vitPR/VFL0UHTQ+eNJ/vY/vD7663oO8LU4Mvn44dbsOd/M93LiAvcvJAD7cXHA9xYvWPZSdFL9xZCu+vVDSPAbJ8L1v/qQ9lz1qPWMb/j2hVps92PCFvIvcq701RIW+GcNYPJgO7zxq9y6+K9hBvYMddr0ljCS+Tvl1PnA95zxFD5k9kPxDvmOJDT6QOza+GG6wvDstHr1JxeK7VxiJvTA5Jz6seQ+9azzHO8Sh47sg2cc9kDKhvHjQPj2pJdI9GBnQPXEq37z6FUu+CGqQPB49YTtoSsQ9DxzkPQPesL2IJDe+Cg4OPsa92bw6d+49Z7zYPRMQ5by/s809B0rZPbmR870MDsq8Fl01vgtLyr22eZq92lyfvTjGNr2YlHM9MRO3PVNvIj1d/KQ9ZkGnvUiuPz2kPqY9P+/TvW79zryHWco9lQxGvqWx3blBVkc+v6Rfvm8BvjziAG+9I1l+vkS/Br24TRc+bsmNPrE4Az5KNA4+7LCRvtctTj5j3Wg+KXUaPiazob2URGC+oCHJvTIVxzxZBhI9yhKJvlGq0j07nk69Vwzjvd6Fcb1QsIW9Dou2vqdJDb7WhZ69GN1evG00pD6OvtY+ZOqJPtvRDz5thJC+oxVvPfUWDT7ATJs90vUCvnnlDr5zekA+bOX0PfA+e77QC+I9pdF9vi5B8DzjgpW9vxbDPSgPmj57cqq+UvwjvoE2jD4IFr4+0wZoPpejjT2gYmA9g83HPWhGpL5Zpuw73S6RPLAYU75cba6+DAmYvZIhGL00PrK9XHWcPMXCGT4AcS+94ERnPpZVxb1vMaE94MulPltHjr1+Owk+qdM+uyfMWT6t6LQ9Y69qvp/vH74dvTa91a7Hvu11Kj5EVqg9o6g0vsHM8r12pT++WpONvbpPjj2v64i+RQv+POxLcj7Id0M+MVTHvqC2pb2m5H0+RtS6PpP2Kz6hOU0+a5yBvHFHi74OnMO9QJxAvhbqHT3S9QC+g5qJPjKyHD5NejC+inGivQaKH76dAru91mGDPQmeoz0Gj9Q9xd7xPQSqdT4DMwS+eFGzvoGeMz5aoew8xlq9PBk+9Lx6C569xxGAvRlDh71W7Ao9M/F9PWUTirxxEBu9jlm+vfn/jD020nq8k/8pPHU4mTyQ4Q6+QF9cPd+ukL3CDIS99Qwwvu3l4b1LiYo9zSeOPkPpibz8MXk9nH4XPrmrqD2Apme+sAWYvZ35yT2AJla7JKIgvqkm3Dw3Vmc96yuoPX1YBT6LRW89iWKJvAf6PzyOGts9w3ruO/ueN76+4uq9lkmzPgESt73PDec9UBTAPcMbHL2mixU+OvjUPRWPhL31pOc8XJuevVEZ6D0N0k295J0RPRjKTD2UWIy+Bp3OPXXGEr7J+Om9zGzdPE2LXD08hQq+u6jevdRI8b03hD09lWg/Pu7FzT0joee7TQmJvQ0DJDs+2o88m0T3PZtKqLq11oq8yNtjPQ9Qij3tVOO9gc6hPdJKTD0GCYO+1eQDvkQ5+L1Ndwm+SmlOPZcuEb7FCKW9Tfiwvdj1Gb6wKJ69wurBPTOtAT46tYG9SOtxvuGf9L0OuiU+gC0HPsOS4z1LwlM+WYg9voavzr1cfJg92HjdPQ3xbr6EpTK+zKQpvmJFh72Y9Qc+qtcDPgCL4jxk3Tk+rHcUv5fy777yUlO+IFFpPcCwSL2B9zm7axcMvrvfhLxKyYA9kb6rPlRyDj670v88vX3zvEroMz1ip8U+VZ4nvRRP5b1V3xu+syxKPnV+cj4/+1g9vJ46Pn9Rjz1bYBu/KIXwvTDXBL92bf+8wKWAvdz5hD1Nlau9jcgvvh4h7r3EzYU9trESPRbFwb3U0b88T24NPtDW2j6OdtU9TwT2PS+JFD4YKoy9zhyAPS40BL6lgoO9OqmuvVWItDxEdiQ+gpHovSSFwTuasIE9U8EVPJEstztP/CK9QwWDPD1xVz4sUhO+YyYXPlkbUr6peKm9DOxiPqOibT3YVyK9MhYZvi/R7j0Rya8+c2GLvqH+z70kvBe9EU+8PgjxuD52owm9bFWFvfj5Nr38owm9Gv4TPLyWfbrj21A940iCPQ0DO7wFgQa9gkvWPfgiubtOWA4+i1DUPUwh1L3kCF29OGq+vWztlr1kstu7rDiWvVoVIr7XkhC+vQb9vTezob0mvAW+mz2UOqBoGj2yxiY+b2wEOx6MRrwZdU29lrZtvcH5LDzEaXk8gQZjPnXBQb0bj7S9SfmBPbu2gj2ERBi+BZ6YvbE1rD1PgQK+Q8n3vWIQbD3dbwK++qG6vZ+h0b0Gmv86id/xO4+V+rqO+NO8iQD8O7TJkb1WTAg9kdXmPcIPCL0OPpy9MG8UviuHWrxQEU8+6I6cPargxL15hKG+4YrevMajFj2VKcY9jd9pvqWzEz6V9hm+id8Wvvd6Nz3AzjU+hJMHvdvwIb74YxE9oQ0Xvr6F3r2ZT5Q9R2advaEcUL3ahpw+GuSOPmPAtz3D29C9AN4Wvhjn8bxE0SK9JGMHvjtn6T0Mtb08sGOjPknYDb74SlM9YLyOvXMj8LwTRA8+WwY7vmNUZr2TOKs8p2TYvcwEsj25nk0+od0RvvdclD34TcY+XUcevSpW0rsaPcw9TGCFvndpQT2NmpQ8zzAjPYgfdb6j7hY+ibwEvgbGcT3Nfh++8ayVvvrC8b1miEm+149CPrZmAby/UnG9+163OdGVS73tQL6+dO1pvi4olD6j7Bg+py4YPnXqhj6pLn69bIUfPuKVRT7OpeG9yQeJvggXLb7L2fg9e+mkPZgBDb4tUIu+iQIovhGjJb731g49viAVvoTTR74Wd4S8Q2gLPu8EvL43Wby+u1QVPl2xVD5Z3v0+pnvsPu2llL4w+gg+MF6rvWWK47xPlH++8NJNPcBuZj4UDIk8WjXEvYPggL18Pi+8ef2RvXC3J76CtUO+Iec+vlHbB7yhcpc8/aY8vvyfyr2UUPY9oDLCPTK91T60HRM+GBSQvgJDJT72F9A92fLPvUqG1TuxaH89xjpNPuVgGT7Jd7G9jTxHvgfdH76+eb8982pVvuKsFj3h9pu9EbImPqczXr5QX6u9uD+VvvMxaD1RLy69qzcdvkBZGj2BCM09Gp8SPgQZtL0nUcg9mSOTPC2oEr4uDhs99AqHvYhxFz7gAjO9lv/XvWLcW73OjDC99Xwqvlcslrwi7xy9oq1LvvtrJr2RzAu9Q6mdPWhA1jwltnK9Vfa6PcsTur1I0tc7NYUBPTQ2+T2539a9+5oavns/PD7Z1MA9ISyePUpXPj6AGeG9fEClvXGFJjr5aJm9WVQgPGLmrz0Oey8+W/PLvBtVo7t97LS9tWlavGAKDj76Y088C6X7PY3W4r0Pz3g9ZpiMPO/L4D1+yu+8cEEcPjfN0byOKc693lkbPh6AlT4Kn7M9OQOOPXNKB771qEo9NayiPvFAIz0uUys9uFBKPnCdOj5SKaU9hPTfPPvNSL5HJIs8pOtIvIkSFL4V0wS+cqJkPolToL2KYAM9AlFCvuXy2ryjr/E8xrVqPulRlD4ShI0+Qh0GvY74WL5898A++5YxPlaKOz7N+Xc+eXPrvL7Ucj5FJvO8gyd2vlEumr3b5ZU93EdqvtfOcz3+1dQ+UxCmvF9K3j26x+e9njpPvTQrzTy7MXA9wl+pPpaliD7XToo9ExeiPYCf+j5u8U09dBflPbpXiz5inAS+hVehPXKGqbsgcZi+YCeavSU+Fj3UFJ++MekMvRVoDD/qXoW9lIrXvSBwP71CxCK+LQvmvdwRaD2T0wo+3mNbPqd0zjufqF+7MmK1PYJhLD3r6Ss8rP6XPrXsCj0teoA+NBXKPfy3d72kCNY9ob2qvX7QDL7ryp08gEQmP+BxeL1X9Jo8sgQjPmjUqb2Bu509sOl/vZSRhrxaMs+9HPYvvlVRJr2sOEm+AJM9vpUwnD20zYI+XERpPtX5Gj6Z7Sw9DylPvdbCFT60tJC9VH63PQX24T3wYw8/WcaOvs9SOj7cyp69VCDOO0ZAAT7gVKC9cwyDPUmVJb6TKrE9H3fivXrptj2iLvc8p85mvUppGT17mzA+swmgvRxCD74Ka1Y+/jyDvrjeFL5OaX+9Ytw8vTqBzb51Oio+mBvuPToEx70NtP87jR8wPn7AFb0XJZ69fVSkvF3CZjtGUHU820MavR80eL2eBH093jtcPXTcdjyq3QO+6bqmPfVsBz1NbR29z4MUvYPYDL3aGga+xScDvrZ/LTzW1fy9ieIIvTg4jT1ZlMy9ZRazPIuV1b1W5g4+LXkbPYy/Zr2lcAc+HUXlPcu+2rw0EJm8mPkkvjSlOT4Odi6+TizFvbjr4z2AGKm9fGNNvuMh473I5oW9ldsmPB6r7z3pXg88pw6FPT50hj21J6m998sEPv9smD3Nido7zNSZPbh3Ez4frVu9/5cKPWGYr7tFtB++CqdLPQRcYbv9J3q8AIoUPR8xhT3hA1K97QKAvtLU6L3Gerw9KRwTvu1jQD4+6ok+ba8WPulMW70xj6Y94fV3PVeLHL77DxW++SOHvQcmOTyiRZw9AFcQPet5oD1K7GS+6L+7PY9aIr0nRiM+cxhkPsP3qz32Piy+7S9LPoDUQb7cchq+WPfJPqkGoj5/+w8++Xp4vBYKJb7DxYK8/E+Fvtixmr7qiIS+Fw4jvUumJD5mFlI+9WzhvWmaib5gUGM81q8RvY9GIz5Klaw94MK6PQ98PT0y/Js+j/oJvu1/Jb6zuvg9j1ttPs2frT0sX6W8PxVnPJ8RzzwiUhu+G800O/2dnT2teRc+IgtRPQlnHj44R4O+tX6xviGU0712PUE+G4CRPsBGrD57b1S9bBS3vVPAAj9vYhq9mQbCPndYQb31QEk99BdgvqYd4L1k/xO9+dPFvAf2oz0/ZoE9dIRQPkdWgj3yYJS9HCIYviSxm76jRhi+SHkMvCN9vT7JECA97vnJPknzpj5zv+g9QPaSPQEOC75q7No+b4KpPW0uzr0/4+49eNNfvB0BAr2sk0a9CzEiPphLRL2kHze+3hnovWEwfb226L889S5MPR6MG70QtgQ+C8R+OngSKL1RjNe9sAlTvXn0Sr1IfBE94UMxvtKqL75HV+M9no4Svi1fxL3pJg8+sNk0PYeHKb5Povi6d0GHPI/SLz0rNPW8NOSMPTzRT77E57W9Wqb+vLdd8L0W8Y49rHF0PpqgyD1DEtO9AZePvhqUQr25xZ69WdAePUrnwT2q6x09iOoNPMTxHLyFA4C67Tp8vTh3lzptXii9hX/ava6Hcb3cy/q7VZDZvMHcpj2FK8g9728dvixes73j90A967ebvYD1fb51HIK+Uyi6vKXyoLzww6K90Dl8PCkX/71vu+87d/QaPUj+Kr2PB0m+ehOGPRq60r1FQXW+ojhmPRsArT2tRkK9sagqPmK+Jz79ADg67xiWvrl5wL0w1wA+eZLbvMp8o7z+ZZ4+10OCPs/ng76HO8O+TRX2vUBhgLy8Zdm9r1U/PmktY735hPW8MRcQvhqQBD7g6G+9wpP2PToOFL6dcUk+TOSoPoTVkj0m5lC9SOQjvnGFMz6EmEc9GsU8Prue+T0iyVI+J/cEvpUw6b6soou92yhVvuWlKT7Ix8O9tSA2vvudLT4fwCC+8lyTPYaf6L0pBTi+CNi5vAbZZDxeWSg+SlpHPe6jrr3zqyM9RAOHPun8uD62T6Y+HLCcPorWUzyZeQs+x0SOvt+nNb2Grkq9oTW7Pe6FSTyo0wu+YePhO6mncb3LUtY9kupTvSWBtr69jLS7ozebPU0PkjzA4ak9PBT3O+7hej2nDpg+SqwvPrerRT73ma0+j+isPPti1T0ZMJ673zEfPlhulT2piRo+GF+CPRHJJr1dHwc9AP8EvnZkg70elZW9IgEOvo3cCz58y4O9dssGPWw09b0JeMe9pYsJPlGyEj7Jeg0+TNK+PZPYxzwji689Xsp1PYqqGT4jwII9Q3JjvGfZ672sLEA9Qf/GvaB1gT4ALEc9kXcTvSiodjxdRai9ZAA6PSZiNjxaX4E9+pWNPVlCDD7hZxu+POVevSHTgb05VuE9IVkSvrcwHT5L6oi95VervD61wjy8EB8+fugnvXKSLz3nRDm+zYMKPpV+lT0RU429jIKHPs9asr3l8FA9IKnfPT0jg7uaRcQ9QAcePGLthb2kdFC+xfUCPd8bTjxX9bq970AyPhtzEj4b3Ne6zNc4vRbnkj5OJUw945oQPAuAvLyutw++gAS8vYHGF76tbHQ9ocj8PAJNGL05vOo9nn21vcBcgjwtW889GJlnPPCuzr2L1z0+8r4HvUAwnL66aBo+apjqPdCflb1wRCM+uFcVPjPEQr2nkG++jHOZPM4bST3Lqto8aRA9vj0dsr1g3cg9jovDvdeJ3LxUThW9C4SBvrKXtD2AkxC9TUTFvTmtKD5krSA+clKOvvfMjb6+v1U+NLgNPFPmbj11mSk+x24Jvm6MC73ohls+jmONPik8Fz4uov69vLiUvn3DpL1yXa+7PJQZvf/KjL2+Tk6+w+Y5PeSFgb4CSkK8thBIPhb/Bj1d9yi9p8wgvuDyyT3QgVs+yjPsvH1xUj2PxV69ZDf5O/hGHT+iJvQ+mLipPad8nb5+iOG+BHGDvkz/mrx0R5G+uTgtvhhUSL6PB6m967+PuzmQFL5JkUE9QOqQvramuD0zkDw+kxeGvrbnCT4EKDO7DQMrvqn9M76gl0o++a+ZPgO7tD7N4n09gicqvpbIuL5cs8S9qa6YPGlizL3lqhG9qx+ZvAmPJr0H3ze95XDgvcS5UD6/zp09Hi/ePq5Sfz0vjvW9GbklPuUIUb42/HK+R7EGvlmUMT2ZOtk8E1R+PjwlYb6k1rE8ogCVPKfdoz3Na9I9o5fjPdUwIj5dXkK9PhH/vW8Qa7xbGRE8sTT8PRZ3Nr5uVAI/QnpZvRyGFz1tNzk83VYdvYnSVz0da2y9lNaoPP8ksD17s/i8mpW7vPxYiz3W8AO+Vzwavalv9TxYGEi9BTgbvbCjpTsL1g2+IWCFPVJhLr3kwm8+BPh1PXKvFT25SaK91+wWunXn8LwRJ589ap3Kvf+VUj0WTUC+eoFdPoXkyDy5baa9RHMEvpjfv7w91PE9kd+tvKo4Bz0qpw08U/KRPX1XGT7e9NO9ta6/Pds5kD3uw2y+OVqFvNpjAr5hZPY8+foCvYGAHDyzDZo9+nKHvXEocj2Fa+e7DtyNPPqRu73mGcm8eihOPc0CAL5Q/ce93TJQvRd1CL2NPBs7IQ75Pem2ir1Kwx29uCYAvrHnVj5dV9y9mMxYvK/JuTx+aCK+UbpDvDKsJb3o5HG+V9bMPdgoPj3vrBI+f9NtvaCHNT707RI+zUzlPCeRlTzdTSy9JzEavhCunzxU85u9gYKKO4AhDr5ltGg9TPekPfhdDr5n1zG+Lm6OvVUyGL4anrG9TD09vlnMkb5wkhe9hJqhPMdQvD2nggs+jQ+IPhVarT745E4+EU+2PRauMb37yR89b2RlvLqJCD1dFa89CkcXPVTWwb34yaC8hBxcvmBxer7aAa49QKCaPSMPij7gSOa91QzcvvqPA71VkjM9ZSBfPJydhb0ZrHs+v4YwPp3x4D36aIQ+y1t6PuvOVD60rH4+fF9dPnB/A76F4cq8iuemvaQdyD3MB7Q7pVCQPeTSXT25BIk+OxUNP9nqpj2ZCYS+BU5MPAoJMz4Mk827y9rjvaHzTL6O/yK+J/RkvqPFuT3LEia8WR/VPXRzGL1ZhuG8+2QhPbGoBDzTH4g9DpQ5vdQOQj7EARM+NSWPva23VD6jsa8+8EHqPri9OL1e9R0++nY5O8alwz3n31e9CkiCvRuinL52Z3W+r8cAvsqkM75LU848HcmHvkLoPL4Xgo894srdvbbruL2IgyA9EJ8aP/6CgT4goYm6FkgSvlPeCD6htAa8E+nxvV9vdr0wmdg9OtMCPrV8rb3Kmum9pEdYPSev6j1T0J+9Es8cPWkJPT6ZMVY9jXeCvtW2r7xBF6q9ZzRMu7T9Cb4dbvm9UZvKvaKYtz0t1DW+8/wCPH24oT1TWYi8TWOsOpS1273Pida9+Vjmu9cMQr7PkoE+CidpvdmLj71YVcC9duOEPpojVz2eJNS+FTWLOwoMoj0wgNq8KDDEPdXiKD6rjTu+FgpTPd2jAL72p8g91uqjPehp9jwlML099RUmPEZPG705vNM8BtLAvVy8Hr3Gs+Y8s0uOPT/wT7wN6uS9mHA2vUmWEb4xIqO9LX0bPnq6HT0DVzS+isAbvgfaqz2waTA+TBmIvdG99D1f30Q9dLAkOTKzCD7cpES+zWGFPjNMpby7/QO8G4sYPlCOKj3CtZQ9BGqbPuWns72SEP28TJFTvqJWG76ECci91hOFPUY1uj3T+kQ7xvvRPRwbHb4Jczo9tiiRPYwdZbwozTo9wqAePbKDDT1NxFo+9p7wvdHUNz3eEDI+tXVPPbNckD3JDmw+Sm7+PScxQD4AigW+AxQkvsMUIj7PyC++lac5vAOwCb4bGo07xfeOvuWj+j3+jNU8kDlWvmD40rowrM28z/QkPbS3cj5lNIy94LBRPZ2/Zj5+AFS9BRQpvQ5zpT6gZqc+4XnhPvn98LyEJMm+3+Qevl1Wvr2UEoG+adJzvVkpt739tre+wu4GvhIHMT3pHHa+T7bSvR+hzb25abe8Z7eYPvcSyLw4dio+Jjk5PpDXY73jWwA+w8qNPje/tj4VpMQ+sThJvOs4ML4ovnC+d3h1vqqbi77hXQO+qK4AvgTprr4UBIm7TvAgve2/Iz3BB3u9VOCKvR86kL0fyok94z5ivew5hz1oZEA+HhADvk6DT70p4ws+ow7lPbs1az5vOMs9M75kvtdXyr4ZsVW+bY4Xvm8/n75bqvi89SoevrkIhr3wELA8d+DOvd8anjwfsPI9+JixvQA4oDz72CO+bXzZvcYcdz0j9aa9mT/3PHuKAD5m8RS9GNzKvfEvY705w1O9ThdIvXAdHz4mdBw+0uMWvejwID18JwG9itoCvvUZJD2vWDI9ASj/vRmWtLwwivs9h0eAvXc53712duQ7Uq47vdGGIz3FZIw8HAEgvRo6dr1x1t69V33rPJAN5btPq3Y86AR4PINLpD3jMxq+K48evtxDML1RfSI9vV2IPdCZszyXbuK9PsUAvsuJpr0Syhe8aN3rO+M8bD1QC1M8JjrbO3ScNb4tjja+u0nWvQfbdTs1zWY+3JxvPVnBWD0dZRa8Q0QdvcLWGb7rW8u9XaksPKChaT6hjhc9PAczvk587L41kHC9qm2xPaML9D3vKGI+VQgevrsJBb5Vbcs91vcVvnLjj73IKFS+RKDtvXdlDLy93Jk96eKIvC+qlj6JN9W9p9aKvog08L6OYyq9iCEmPrRzRz1CxGa+iyzJvs4EFr54Qm8+ryoRPu5kbT61FwI+mPJwvbG8j7x82ca8/YMovduWGD3dTVo+u/u2vR0EjD0/pok+ywKzPC5rsLvB+5++nHVgO0bRob1BR9q9dcUgvCz8RL5/b4C+zjdZPfefnz7nGOG7x5etPa5VhD7oJpY9VeuFPUxkcD5KhRE+6Dy7PZFZJD7PjkW+8JEGPZa93T1Q4sq9sAEGvZCeCj9dKK890mvzvUSHj74KZIK+vDFMvNS17j5039E+vgYPPoZDBb4oijA9ncUhPu6RJT790nA97OEvPv2g1j1opz495fOevRdcWL7lFcW9kJUuPIVDCL77AEW+GAlJP4k4Cz9/wTo7hKpKPttymDyLgA0+r3ymPjTENT6SJ5a90wmWvSxSD72opGE9cAufvtIRK72hyO+93TK1vO68mj2JkaG9c3MnvlAvh73dSha9Wrv/PFn/d765YFA+6vzXPlndH7019mE93Od4PR+pID5QsLc91QnAuxlkgzwOMmG9J0uBvGDeBT5wDaO96EqhvFwxPD5dmQ49gxkaPsHnXT0Zn3u+ZoRePrAKYz28Ixy+/0GwvZP2Zj6LQzG/KYf2u4QMOb6xZmM93a+jvR3XFj5Zo7e997vBvRg1srvWB5K8bFT+O7/lRz2x34m9lf+IPO1tp713s+E9krLluv3MmryEECM+7akoPgvAgzy3a3K88AN3PWWDMb9y8o+9YK2tvUkVjj0MTlC9dBTMPVPmnL2kJCK+e5wCPlpJ7LyPR4g47M7mPIRMUDzAohO95PSVPSM4yL3uAZe9XezFvfS82bzEzBM9HttGvPACSj1IgSa+DJk5vwGMvL3y1X6+P034O+iHLb1fKdQ9I9AHvn935r0609C9zwaAvXdFsz3Wj7A9GVE5vvbj6b029vG8yiBxPV8uTr0tUD6+ZfPZPWjtiT0EOZq9f6IKPuVcM774aiS/5lLDvbAFFb7v8Ta8OZPRvIoJwr2WXHa9WbdCvec0R70KqpM9f/MgvZ65Ub0Tsci8DRlWPWZsJr7gk+A9GmJQPEx/0L2jysU9rBazPG4qEb1JfAG9Hyc/vjEoDr9YTsK9sPp4vRPABj6lQWu9gVGRPL/lWzwEUoE9S4VGvs3bkr4heDk9RO0bvkO0lL5CkOA93p+nvVPo5zvVmLw+I1HqvUe1LD0QY7Q70SaHvoTJ0Lv5NO+6h14yvpPVM77dPos9NXw/Pukuab0mJk48HnQ0vaSWXb3CSKC9hofyO0sMc71o7s+8rOWzvcclCj37WPm93roEvZn+qD4f6QK+GcqdPYl4AL14pFM9yvhCPTApnz0dG7u+hHQ8vjXiBD2CXSc9eXTrPMNZiryvKNS8XHBDPr//3LuD+JA97fV1vavt3T2Bvye+1hWPvWH1cr3oysE8uJgaPhpVWj3ywFk+r4c1Pm1otr3no969v6vGvXCWnr6DkrY9luiqvQ3RNL7W4fe8L/gIPjWhvbsehjw7OLSCPKNsujkTbqs9setIvltLfLtF6ig+mDthPfLYQL6PBeS9GiYXvtHKWj6S8vC8eVryPWg1xz1yQe4+un0nvjm8Vr7oUta8DEdIvYAXK77ZvXI9C9aAvLN2ur2+gQ09VVxYPZsuTb5YrIA9slsovu3KGj5EwUE9Q9MdvYf0lL0Kx7y9TjRUPTysOj3MqRM5fp2jPX2+uj3ZgEW+sQKDvdhxqDvCWNW8tSckvVGo271tyKI9bPXivTK/q72+5HU9/0tcvSKjiLzh3SM6ZEsiPMlje7uZTXC9nisVvZP/Cj19TBo9meVsPn1Bmb3RWCg9sPMjvX5Xnb1wWqs9TMSEPSHK973EI6Q8jm1aPRzQiLxUeJo9DrFHPt1XYL57oKk6SW7uupGz0L31/+S8Kh3bvUPr/rykkry80dYAvpyhhj0mges8RB/rueqBKz47VXS9jGlhvnszJbzeJYA9kFMmvnZ0XD1uXAI9sPFcvsSs7T0H45g+KwfNPXqK3L0NnBE9YIu+vRXNMj05oo+9TiJlPitxCD4dndi9OMvrPTLxMj5zuCC+QXmQvOngWL6fahS+DJq6vaCkxD0dMwq9m1nkPAPZjr1Hvmu+dICzPfa0Az9uU5g+wJj2vekSUT0lNc29ikDSvLSzYb1cbsE9m1g3vXOwn72wFiW90DlPvl1Ngb6kTyS+7Zn4vVW/Wb5iTcy94I4kPk2M373jgrI9UG+hvofTVL5hBms+dhvsPmUZpT7+Qww+UY5LPax7JD4uaZC9iFSdvU38+L3lUM+9m4aVvWtF+71adte9D2dVvtKa2DvPKlA+PRwwvrAQor1Gm9g8SJCxPQwEVL7Ldf29b2ZmPTiD/z0gUzs+XcyEPjorSj5cuoC8wOO3vAJvEz7axU+99LBTvni6o73F5zK+U7QRvj18h76iNpe+6p16vnQJbD5V40Y+lBuuPQ26gj3fxVo9a3MRvURekz3nXTY+mWbRPWGzuj1Ql5W9S+MCvlBPP72Xa4O9DGIjvIPw7j0xBnI9aeQCPbmN6T1lDOW94GmIvOZFBD1BMRo+n4XVPZIqsb3LzzY+MycsvXLzYr1Cuh2+2y6+ve1WrT0Oqj89WUkJvV977b2Gh3c7fYNhvpqYAT3lcu29oRVjPf7gD73HvkE8QLs1PqJtEj2PPEA+RkqYvRCNoD3KcIY8a3iPvYYoBr7nqQm9cAXIuwGMlT2WNka9N+68vY9dub14fcA+qnGjPaNfqr3oys079JlhvRVHoDw6V1q7q5EUPtHcCz1pVqC8/wT7vRHHkb2cN4s+inBdvUeZiD61dYS9IzRzPlkvr72+Czs+DscbPPl7LD3siQu+ZwwbvVAji73UZbO9LqCaPFKOrL1Q0E68xVPlPWIbTT2cZDA+3TCXO7cw6bsKq4W+F8fmvUToEr5N94C+MbEeP637JD7iKXq+fNdCvZLd8j08SCg+ANcqPgBnpTyHkSa935CcvQi3Z75hylm9vZ2QvbdGRL6HUAM9osPAPNkIfz4XnKu8PfbpvWe6Mb48YZC9lpuKvZN0or2w4h++vOQSPUBHAb5oeG0+Qs4KPjHYTr6f7q2+ykQ+vh9ZiTwPSis+ixBOPYqFjj79PWy9EGBcvrIWEr2HCZy9zywIvgK1Dz5qfVm+EuHaPM0QJb0QC4s+lXwaPT2W2r7FDfk9IHCSvtxobT4ie848P62Avr/ruL7uTCG+MwDMuy+9Wb5hmVK+4lBsPquPOT788+u8SKPru1B9CL3xQSS+zYdcvKIAI705MRu9U2lmPrgDED7+HZ09Jc8TvrcBoj6N5hU9eJBnPpvrzj15OWE+dyAeOuIfXr330I8+3FNiPbJjA77pLFA+UDriPXBuSb2ZA+m9HA7BvW8XBL4Bx4e9HBnwvRLEO760Ix0+WZKeu4XLFT7+/Kg+8p68Po7+ST7yzhk8cfnaPQpSQLyHn9w8l5J5vXrBLz6YhSw9XuOcPbDZITz6CYI9YqWJvbgvp7yzLdm74Hjcvd2F1jxKhIk8tqCXPX6nF75/N7a8AIuEvddOH74QWwA+qj+zPba1Lr1Fs5S9j6gHPUHPJT4GHEg+2a75u0r5NT2jWoI9dYgsPZI0l73a7vg9rdRTPdmvh73Jp2C+vuKhPXg/ojzHquW94OXPvI6wSD6+2Jq9aurYPlmiNL0p02Q+ahrWvYEpjz2DIwE+NQ5jPr2CDzwjSFs9CHQwvfeBXr1ZdWo9IufrvWpuo7x0JRk+qDbEPauRzL33zLs8/XSKvQzm170vEeM9u5wBvsld1rwgFdE+dPqAPg9qET5Vnx4+b8sTvSjPTj6mlK07EQ+vvB+pVL5KVAu++sZzvcLoab2a4xa87xwovuwslr2pGgW+tAkavknmdL3YlaE9bhgZPUc1jLx5v789zZP2vSAxuz6BfB89jzTePe0qlT7+7wG9DaTSvXdGtL3faUW+xgrxPDUCHL0nWtm9IUFhPa66DTwoBLS87AjTvRX5t72LZx++ryuSvRn1Ej43FHI+XLKTvu4rN753Kbo9Ekk5v6OL6L4srom+6XUrPUngOr4fWWO9Un7OvXbt+L1UBdG9WhbEvaYqnT2Cofe9EwifPZkPdj7+oQY+ZxdOvXovkDzdTGU9//qWPfKIbT0VpAa+LauPPZj8mrzyMV6/PWg4vvkrpb1R7Te+M3ImvpP3iT0SQQ881bhvvK48Az4QerE9mjy2PnAoJL7VhY0+SdDTPYuKzb34lO+9OvmBvXMdjT2VsWM+1Dp6vuThQz0IXbA9ZFxLPiCqa76ewZC90eXLPOfXhD3MDwC8vP4sPs88dT1gBQE+Jx5TPimz0zy0ThU+yqTUvY9zdz4KVQo+jB2VvZ9Ugr6POQu+IhpqPasUKz4Dim2+WjU/vHbmjj4IQnA+41K8Pmo6Rz6UtHA9VntyPHHq1z2jaAi8BgaFvqLmgT2KQr29G3boPZ4YST11JIQ8vLQ8PlnuOj3hlOS7AmhGvZFuz7yDKne9l7AhPsWLn71LGSQ9/0L5vFCunD3t1YK+Y+22Pa60vT1E+/Y8tCVkO/97y70OEOg9lZhRvaBehD3ESvm8wvGVvKOghr0L49u9nAYTvgi9n70SRzo9P1J0PTPfQL08eT4+NlXbuwd0Lb1AW5s8JnASvmYrm74+RFY7Ly0EPXtuG74S+kC95YrhuwTVkTyN6xw9iLVAPndmBz47PFU+Oib4vfy1hLzdsjs8T999vZ65QL1Pgo28pgtJvvvAezwJKmY9Q0qZPd9Rez6zqzm9M2ZZvSp4k70wqdA8YHySvrqZZ779PyW+DJeIPp6C4j1dUNM+kgd6PuCalj6rRps8/wBMPfCgFb53x409AdrEvJwTKb1E/TO7dceavQPqH73ZmH69jom6vNMH2b2Hoew+Sr6oPQm8lj1OZre+6jrQPHcYiTyN3Ew9MivIPsedqD5/vJA9z4UfPUEgC77bqvm9ws+ivGIME71+ZqY8qbVOPrBx2DwVfb68xUdivaLTz70bCMm9rVO4O5r4ET/oqFU+LRdrvuv6Or1inwE+7ZYSvfimDj4yWMM9XD9GPj+b4L0AsAS+aG0outFxRb4PvXK9VSbFvDS5Uz0I0Fs9YWGHvYV4oT2N3ii+xPBmPGVpK7s4POK9pewFP04HHD6QK9C9Vvz3PR3uLj01nMU96qTAPLu5WL2mSvm8jgoovUbSyr0coJe9OJEMPb6aZT1Kzzq+irXUO+h5hDxBYzI+ZLM5vtWIwb3rY/K8Mz8uPkFe0T3XLOg9VwbiveyK1zx/BOc9VqQqPSiQLD6tNSy9ey2dvIJCmb1O5Va9DoHEPVL9Bz6q25E9f1AHvkQ94b2rxiI9YEvfuwSVsj3iErw9KLEIPuXI6zxPNEI+GNWAPe//CL5ChwS+UqCkPa7YYj6rjgW+f2pMvea64Lz/YJs6KWYHvlqhmjvGmxo8aDkAPjAn0D0m8mS9vu3dPZh51L3bQa+9NexXPaJN3ryL7YE7lkPgvXJlyzwnnoG8UShQvm+4lz3BYfC99O/4PfV4yT3IBTW7twOTPT/E5bxmEta85GNoO81Dsj1QKSq9DpBePXmUNr3dX6w9OCVovSdir70mGM89WUMYPg79KD65FBC9Uc6JvdIWN777MxS+YrcoPSSHBL44KJ+90qnqvf+v3D0pwVo9R3NJvuXqZD6bl8m8rA4VvrPbPz4ujOa9QZOLvRVLwbzq6h6+IbugvANlGb4gYrc9vGEJPkQXPb1sesW9eiKgPGiCqb4qgYM9ToVkPTerMD29TQe+7RfOPaix0jzmeqm+0HkLvgzWjbmJH3o92T6nu3G1tj0yeq492DEivexWzz2fN6u8SlOpveo+Xz7Z5RQ+j1/tPNksMT2D+mS8bLhAvu2gzzySKGa8h2S2PWyDl76MoQq+15gGPG82EL+mdsC8/DoxPsrv5j0BLUA+W6WOPhS6nj1b3Nc8UrsvvuTxP77sUQq98hMePiqaND7HlOU8N9z8PehdhD0zkxa9qvA1vrfGTz5osA+9OaNgvl8k/71HrlO+PkYuvhZOEj7mKkk+wKQsPrEPLD4G448+w5j/O1O7ir2y7Ii+UvdWvF4BRz74/aU9IZlUPmIUI71MNxO9fxe4PTgWID1ldqA9+VI0PvVBWb17Evy8XMuSvoyf6z31b0U+QqPPPiVfAD5XrlI+JsjovRmvvzyPbZ87paW2PZm54742Fmq9hc3YPZWP0juGTxc9sWKOvhQNrL2FBpK8RemnPiIhL7wEUEC9nXdMvjHrqj17oOK9Cd6pPpy6BD/oEdY+4mwDPg6zBb7PKIG9g6KvvadhMr50Ti0+0hMsvYVKBD22Z4+8rH4+vhOxOj0VeaG+dOYtvnygM76/ddc+lbIOuh3vl77oJgs+GOmmPTDPJb5MGw+9RZywO/3hg70v1MQ809SgPQ1NGr6WQaM9izgKvJm8DT7gRIc9Cerru/GklL0XbL29sYQRPco+Rj6ihjY+y7KmPsmziT6ez/U+AmNLvrKp3D3iHgq+xPvQPXuWGb77Nag9/k3mPXG2i75NC7M9r9q+PX2Hob3O8pi8bKF1vJOdwjr+Zau9TTzbvVP4KD6ubc+9qttOPQI15D0Ks14+DJVJvZ8UYD5uAgu+oWM7PAnZFb4dTfM9G29kvtcrsDvsxYo9i2BHvSegmT21aIe9P5iIvfu76j3hnzM+uodHvUUl5joBtmO+BOKGPcrxob4dotA94AuTPgej4T0J2xu+olaDPtXEDL66o5o9DP5jvf98FT56OCe9jSe1vYlqOzxOMFq9VVMevr/177w5CJO9gzszPg6QSj3rAyq+ycNpu5A6Vr2YsD29rPTHvm9RpLnxD289j/43PvyGNL7wPrI+CsNFPheqj73j7bK8x0rSu59kJb3Xyoo7XJQJvV/6Vz2LTPE7OyDLvOvaNL01OwQ+LW0Fvq2GYj1ri7y92omLvSUGFj6Rm3K+Vpk7vXpQkr4e64S9M6Lqvg+eHr4naUg+oj+hvUO7g72ewqG96TicPVQZMT5714e9KzqyvWuZ8DxVBxY+suFavtUn3Dx9sfe9sTvUvPRe9b2n6tE8+FplPVOpkb2HpQs+3JeHvYCx9L1pOh6/D1zdvjMmWz4mMhy9pQ7KPeqKKb7FqFW9s6acPhnMlD3JDbe86aEvvWWz+D3hZpu974o/voQmujuoCKi99xxlvXXSNb2yFKq8lrMAvXnLkT4kQ+s80DUIPpJ5Jr82fci+d53svQ0DXT0FTBK9C/T9vboNRz4R/4Y9MmfYO9g6v72zVbi9AiAHPopgSby3R4w8KvbwPd9F471BAwS+fOyfvBtGDr69st08fSKrPSmBZz7dFh2+/qxDv6O0yL7dnoy+4jU1vbHIDb17tyI9rfeePQAlkj1xD8K7EHwHvTNoSzyWTVM9DppMPuDLWbvsnzS9c7kKvIsPdL16MkS+AEpXvbGjUL7xUxC9cYdkPmVjUr2QwKW9QdEWvhxy07ymbj++nHcXvR6Nkz1UFgU+KrdUPZJNk7036Zc8Ue63PWW6vr08Iic3h4elPGIBk71Ai7691jLZPZieer3+A3E+ux8ovj4kbrxM1Sg+3uAaPeZ94j1PWXI9l5phPR1EPb31fvO64NTQPdKAnLxpego+HAX0vVVBubwGBEU9nRplPcthMT3cOIu8sva+vStxbrnfSIw8RUwtvsSeD73LaiQ+FjWZPG6e4j0E6/S9s+XUPcPVvb03M4c8WGEVPZoHDb02uyS8C0K+vWlbY71apFu8DJqLvSRo5rx/5Ks97nGNPA+PB764iTa+/PpXPYjprj3rmxY+87e0PcLM2b3DYYC9xfbJPROW/z3GCCI+sDUevv8Yiz3D6la8ecvKvZpmBz7Ugd+8wSpovrsj5T2lrWM986LJvGlPuj3JPcg81bLlvkNNpb35qgu+G2ShPUVjxT6zaJQ+nzKjPS+W6Txk5f09ZQBovcwYlbtVsGO9Eei9PAZimb7jk7w8bo3HPnEn4j4Dfhy+GHK1vTc70T2qEtK90MhiPkaeNr71ltO+AJuxvjKcGL30/zo+pfDYPrg77z58Dsi8OLkovvzMzb2iny2+mGYXPiO5Fb4K/IO+fPtBvmHsNr1hY44+YWnWPh088r13FqM+PvoivNR++L2LMlU+T1tXvvsYwr5FXUe+xAY3PHGmcD79soQ+pkH9PRu4Gb6I8qK9DjuUvL8WXb2YO6G7dXcpvcNkXL6Z8hW+0bGOvs8LjD5WHWQ+OnykvvQybj4qG/I9+MZIvtKwGD3XH4O+jj97vlV8U727UqS9Asu7Piyucz4gf0U+LPC0vgDdK72NYV89nAZSvHmv3j08YP49RgcfPpkxxrnrKTE+QmP4PeoD3jxuN+i9bndEPiU8VbxyWkU9j/5SvSbzWD3QEUY9cJeovZhM1zwtzcS8cd0EPfy5jbvsJA4++/SaPefYwz0xCiy8MAoWvj4WLj5kmBY+MMCUvTcUXT5Sq++9GZoKPrxv/j22pgG+MRhWvT0G9Twm4g6+TplJPUVpqL1Vp0y9JL38PEKsBL6A3K48l2fXvSSqSD6U7Ou9+6lCPPTRoD3rnZq+TDNPPo3Tdj3zc7u7MzprPnLyzb2G8fG9PO9RvYjWqD3gyKE872YlPGCh1b3bp4o97UxJPToMDb4NBQ0+VRD6vYc52D16L/299iuCPlkxMj4cQ0o991hAPsrjbD34ji09XFFDPrcmqz0GHQM+KLf5Pe8ewjw0qPQ7YXU9PkBpo70GI2O73a+EPVKy9j2pmZm7VKpCu0pXPT4RgMo86gmnPYJF4jyvlYw9VGy1vORFCL7DHiq9X0UjP7hmCT4EGEk+/oTuPdx0uz3DNqU95LMdPadCzDy19AG85GR7vUohzT1EObc8IwDlvZ/9l7xyQdy7MTgUvqHoBD28E8a8yYQPPreimDwJwjC+Caiuvq7BqL4ZCBO+T0+mvecJp75xFtk+zFopvdDmjr5M0oo901SlPR6cwL2EE7u9ByJ5vanoRb5jbXe+UShRvrZ5Tb4qCX2+i/UfvnJDVr5oieQ854QRPXzFx76qSoO+qisqvm48fL+RiO++s0tHvtz3Sj4BtiC+T9wKvn4yx7xsCSU9h9WNPYlwZzyLGYe9uvKlvX6GxL0hNee86ItCPVNLkr7NnjO+WrGwvo5O3z3qZSk+0TTJvvKVgb0OtGO8ihV7v6hl1L49KVe9p2GJvaMl/LxPu9U9LDmOPeKTkj2UidQ9oxhqvM7j6j2PseG8BwlMPUK8Bj4Ccr0+s/M4vKhbpbwtn0G+IT9QPry+bj7oyYI9/zQwvvGvYD4QmmW+wFuIvt17G76x0TY+cl8jPnp1dT42gdc9RWXMu3JStL6F1hq/dQfvPmBU8T4HPrq+rY4Dv78/O78Lorg+xwXGPYj+zD53+cY+X1bVPjDclT4cBXY+J4a7vZKEKD3jvY28wlWlO03eLbwUQs0+nSZ8vHj0RT5qMIa+8+YEPxc1gD4BSKc+BfxZPVHfmz5tbtI94nugPkyF4jwYNv09TkYsvaRifD7JUyu/C9ODvkn/gD6Wet4+aNtFvkbkn76MH7G+vQ43PtV1Dj4ZYOE+nQz9vkMBuz0vckg+88NwPnomgL6n5KO+U2ilPnCNHT8PSkC+6QtdvoawPL0Zr08+yRzbPUBxqT3sAta9zYQJPu8Txz0OulG+50c9vmIPir1baiE+UHGIPgGmlb7Jbtm8nehsPie6oD7+sje+/OqrvhBMmb36oKI+XIrVvsgntz7IHs69UsakvUHubr5Be7S9d/GVPq3QOj4tN6i+o867PUO1/r0qfmk+75FkvnBvwL4DsH6+0xxbPFoIaD2Uvni9Xt7RPVcMfT74ph4+tBMav1x1hT7EmbO+M4/kPfjyp7unYhI91BsIP+1uHD6LLLQ+meG0PdDTDL9u/BC8tlPfPFAy7r23tLu9LOqiPq7MpD5ALH8+gaIzPT28Nb73CIc+JtqjvRsRvj5J7oC+bkRLvr4uLr1D23Q9S5HsvnBYqL4iOrc+51e+u/MWIz5rPN4+vuZlPgIxJb9QQTy+wpMIPk2EIr2qicS+FEGxvi5g570Mo4i+Mem1vmJYQD4uHS8+TE0OvWIBFr5mmi++u2WfPqSY07v2iU29mK+nPkm6Wr52BbM9nR9EPtz3DT64E58+zhuCPvzsQz5QPcQ82pRPvlmjab8NWaW9VQjNvtnGjD5QVR8/tEGKvaQj6bxSPw4+bWO6PkB6qj2QYwk/Y+7RPZv6sL6YUsG+XfM8PnzaLz78P2695mTEPjQ3lz5rBDe+uD5UvU2z0D1j3oA+HNJ9PY25vb6v7lS/+oyBPlUFrj1gbWs9WEWPvgKkuL4aQcS8wHe2vuTVvD7Ch7i9CeKEvlFI5D3mzh4+JcTwvYXWRj4ptW++p91dPk7LWj5Lwdq9HIEfvicRiT6QPlC90US5vEEWqT4QpTY+S7z1u7Cf/r4uX9u9pUDzvVQtAz2B638+WYItPtSIlj3IEFq+M8cDP6N0fD0ypAQ+e8ZfvH6/mz6ORHq+g8LivHBgCz1zvP++ZabTvJAWnr7oFYQ+tho5PcJ0cT7cRo0+SKWUvnZ2Wr6QurW+3L2hPj7H0D6esda9a4GCvgCrUj3bXr4+2YEnvhSSuj7ubAc+c97PvSgOCT4WrtM9NSzCvbUrc75T+s4+pyKZPSmXOz6BlFY+q/yuPQchAT6PBPW82SIjvjwllr7fnWe80HKEPsScnD3j8q8+6+s4vnCUAjwThbi+IlcCvq8ACb6/yZc+U7QgPnTupD67hOu9Mx0SPt97Rr7tQSu+VMRAPA9jEr4LI0U+LozcvGDU8zmAVTI9SkdTPeqonr6CxAe/JIIuvVEKzT7sbd4+Ss/VPb4MoD6lwQA+ZC0gvi2O672pWVW+qOHVvdwgwD78BUS+300hPhmTPT7SVMa7cVrgPKg0DjzHmKg962jZPppam71MZF89JYDYvTvmzL4qJy2/2sdivYqG9b2caFa9jHicvvdWtL5ZMam7+jB6PkuVSj3tZ5i85bmjPm4Lzb2nWJs+RF3NPoa2Qj6AbUK9/SAHP7lmnL7XEbq9O+qevh3C1D44t4i+qVEDPVrwzb21uxK+qnuFvkiMgb5X3By9KIMrv813/r1uB2g626cJu+594j2aA00+1drDPBzS/r1qhKc+K+K0PpG7iTzkKB6/tHmTvvD31T2ccJy+M7MFPmLEEr55Ta6+KWOevmNI0T61vGG8k3vdPfn87j4JMFU8mMMGvQtOLT6a+pK9BnLdvMEE5LpujXm+t52UvgYaAj8Ul5O+/HQcPq8NMz6RygG8eVsOvgT4Lj6CysQ+f9HXPa+1aD4VRGS+Zr9yPuw4Nb0u1YM+SYsMPvi6u75fvK8+dUbMPeJZ0z5Z3QQ/wtM+PRXjUT3DOwI8SUkDP19ujzz9aMa9GX/gvp0C4b6GfvO9prZXvm17+b0cYRO/yjLYPcBJJ7414/e+F+6aPr7psT3qDUy9aZx5Pn2Cibv5dFU+TbPlPTw9Ij6CFYU+i4uHvr9Pdj6Gqq+9l3M9Pi/iij2RiGA+N6qZPLDClj4G054+tznePUHxbb2FD10+IBhnvmUTQbyBqs2+jO0jvea6vL7oPL++0ljtPblszL6HIVS+a040Pombtr66WDa7U3fUPt9G0j7M7BO/QwYHveGlCz0ChYI+5E94vtmJyz24uQS/Dpd6voeDbj5kig++CdwLPeqo4D3nhrc9rvt6PDuzpb726JM+qVeXvcS//D7LG548PStdPm/bqj6M7yE+a7ABPk5cV74YZ5E+eYjpvva4mj7buaK+Tyouvswntj6GXJ+8YSZrvj57zb0BZDO+RyJrPj8URz0q1xc+/SKjvvIL6T3kZCI/S2lavcsTdD4sijM9o7z3Pkutkz6/UAy+xk9iPS6Pu776ksE+vEn+PALkGT7sNgw+vs9gPAYxyz5gKe09B/T6vkfsCT/rqKG9NrcXvygJ/j5XYbG+hVKwvuLYwj5FxzC9HUbxPjBQRT3cn5s+6G4JPhqSXz122w69TawCvpkfOL6H6to+fjwUPg9kzj6jlc+81DzlvphUuj7T+rS+GtdjvtVeIj+wzcS9gDCqPWIkMz7lJJ09EaIHPpveej5K/+49DH1PPgHjPD7eidg+AF8kvhDdgryLSny+h7pGvpBniD0zzjs+wVoOvuS48z3t5fE+H3A9u//6Nr/94wi+PsU7vcdVmLy26Kk9a947PW4LJD7XodS+6PUnvuZfFT63Ovk9CAIDPnmqaz336RK+OWzXvlOL2r4fXCA+YuspPCyu1b3+zBm/Mvr6O0Jr4D42zJa+P+lDviAGp76prKE8VvZNPt4Skr66IhQ+VeTPPY+lzb2g5Hs94inSPb8nsr4df7I9ewEgvxmeKL69lpg+luPEvR5aaj65Iai7Oo6+umQEkD65Dgw/SqixPMSYB753F9I+62cHPnDsfr+0gkK/HrcUvxEADb5nlT0+Iwizvps2lD6lBsO+5UQQvVSvAz7hYlG+Nm1XvtOQu74ClPi9lV2bvnEWqT55uYW+kYTNvamQGr9rgWq9h6tPvp0F1T2JW1y+Zhg7PsJ5KL7Et0q+1wL/PQJie7xoA4C9qZQLvdw8dz6eTQ6/R1HNvppoEb/WR7g934iAO/bdyj3fYk4+/FidPWl51757IJk9jZwHPpFSGL6x0sQ+2AFsPqIlAz01lqc+BByIPmZJGz641LU+LAjevlAGfr4atvu+bGA5PpPbUb70sRs+9YfKPnp3BL9PZca9leqPPov6jz6mWmc+4JJIPkBAMD91ey0+IFORPg4SxLzIK3u+s8RNPgWFhT6s7hy+8YGnvpC+oz3GebG+2uEFv4T37L6Rwbs+IYRUPksXEL4HnRS+f4KjPHqdWD7qGlY9JiJuPnuVgr50DmS+0rZoPVERs70iTHs9tag+PcKXVL7bN9c9BlgxvfC2iD4NOSI+7rG3PfuTl75WOHe+Kuc4PWK//j5EuFk+4VpBPtsRBj4ufQE+aAYIuadILjxp/Bk+QpDcPdYpj71pN4A9mR2WvkpBN78ot7W99s6WPQAWkD4mIwa9w45Rvh6Tkr2wFZG+me+HPYcRUD1DGBq9bqKivpfcjT7rtg4+sweRPgZXnz4UzbY+ZqrYvV49qb3ODWm+FWGTvj0Iqj0uUzw8DjGyPgJf6z1z9Ii9sfFMPqLBrL2n3yY7CmT7PVBukb7NVsI77LLRPtXgCb9pXu49n6eRPdLPYz7YFaw+DsabPoKA6L1WMlm9ndVsvisu7z5rs4M9lESnPY5R7r2R76e+vbQnP7qxFr6Fiw28XfPVvjgC2L21V6k9PtE9PnsY1T2e2os+KQYUPhMobb7I2HG+u8zdPXFmXT63ina9F7EevlPuvL02d929fUw8PteLhzuPTzO+kFwgPgj6mr6gBHq+uCUDvhZehD4dJMi9y4NavF6biT539XA8ljSMPjGdnLttmZs+yIpIPvQglT6S3cA+Ls4Kv17Ekj5iFRW/6+B+vlwZ4b1tstA+ySrTvfnBYL1Ju2Y858bQPvL6vj7nPyY+WpG/PcEhp71U9T0+nMaSvVaXtz7RMFk9wRWMvmNw6z1ubpM+gn1WvR4d6bzSGQS/2l6XPbO9eb4oUgY/vvnRPVFyU74Mtvc8fMy6vsTYsD6b2Ao+QrCXvtSLqT5su7s+rAJEvk5U+T1/Nlq9RSpEvkjICD5OAie+jiiUPrMFAr/wCaE8BevBvVydL71jUD48KxFyPkQlsz7h6Vc+MDrWPrPPDz4tBr09YLmcvkwIXT4/13q+DhbVPpq7a73zKOu+X1+CPGRXYj7HU7q9GNl9votSuT7pCvS91fiIPsrNhrwoclQ+EKxqvmWOT76cQNm9yQePPdWAGz6RHsO9E4P6uxNiRD5dA4Y+XvPmPWkxfr2Xa4S+pAq7PtcXdj09I5a+mHzMPBZ4/zwOrWY+KsTTvghVyr5AOAM+lABVvr6Oxb7rIUo+vm17vn10Bz5pcHe+AgLOPYgfQD7pOew9x5YhPWKB8T33E7A9DeH3Pcgonz4nUES92AefPTLElz7vH3Q+38H1Pf+WBD692Vc+3ekzPU9FF76EK/k+669vvrPpzz2wRzq82kXnPgz2ET7wyJU+XREmvqxrzb3qLFQ9iChCvjv6DT3udyS+74ooPW78N76EWLe+DCJgvLngrD4wfH8+HeDTPixKjz5dBSG+ZvIFPtrseDwfeLu+Keq6PWJ3gj4APKw+h+PPPYWa3T1rsay+vLmzvjGed77viJa9kH6uvppDrL3kUO49UWpAvDU+5r3N2je+qAGsvZX1T77u/xE9iwUav9OljT1BDQq+16MIPraB9LsslCG9BngqPqC8wj20MpM+DQgKPbS5OD1is7g97+9TPuGQFj6NQEY+A5TMPnw4DL7z7os+DRafPudFnD7rp4K+hDRhvux3qb7wHD2+6m6DvspXZ74vmZk91QR8vsfwSD4RQDe+bcgkPnb2lD5BNZ8+idUBvirtaT6q7m88DYHrvgt1Yj0d/Mc+55HwPh6RhD5flSi+b++GPjmWXr7sa+a+3pSlPZitHD3fkOM+TUCWvmUCEr7GQ/C9oYuzPrHb6b5hcU4+7pjOvhx+HT5v8QG+Aswyvh2tlz4oAe+8djCYvfqboD6mWQk/xBRtPq8kUj69nIy+SFkcvog4Ar+Rx28+xerhPWXE97y9EtW8/qbEvVTfOD1HQzi+yL1tvUkriD1VTCG9MhpxPHjrUL40vhE+6LOGPr1Pi77gZju9RnGevI0NVL1UlKm9eUliPl+IKb4Oewq/ktUEvzF2Ob7UOzg9rxThvKtijLyR1kI9YPFXvRgZqL6+L7C99edgPh2LxL4itd8+trizvn9ivD7iG+C+1i9dPg48gD4zhhi9czd/vcF0rz7Ifxy8pvEPP1sSPT0rQlG+03YZviF6NL3HwXk9coHOvvGqEb35d1e8VgJTPZl4dT7GmaW+0YGQvd0oR743z/i9CEJePlKdoj1b/3a+fVpgPsTnI75sVwC+68wqvvADAb5v0Ea/hvaJPlOE4b4sapm+tUumPs1haD0YFEs94oAGP+oQjz59s58+YCOSvlYwND4UZgO+rqAkvzIzcz4u3Iy+Jw2sPU/FhjupWNI+K9P6vLjy2z5bZym+BYWNvQEr3TnxrCA8DcKdvSvq2z3aJac+K2zlPg6UrD5eFBG+AjTvvVImqrxetqC9H+PNvbh36TuKkZk+4feuvU85xT4VO58+xMZIvmj/R76ntC4+LOkIvAHi6D4uQwe+R9ZBPuqlIbti+p0+CMCdPhAYOD41d4g8D4lLvkKmt7yr3tw+G4dUvi7HhrzxiYa+yv6NPZ5Dfj3LfEE+jnDyvTrlir33BZM+c015PmQolz0kcIk98JuDvUeOer4HP9g9HI70vduBUjuo/d4+GixvPmK8870O7Au+FWsCvqQbtb6PrQI/1pDcu8ALAr6YXNY+ookZPnLBAL7Eb/m7+9FEPv5ZNT4go6y+PiB9voP04r09sb09rk8Av29sKz57Ogi+jmpXPryMEr0xYRY+2w8Evlwfzb4B0Om8nioVvpi4CT+R2JA+CCS6vhL+/b6BXqQ+iqt7voJw4T78qmO+t3NVPqegZrzXMW49MQXnO8EUGr3zD8M+yV8yPqm5ob0rVLK9Xe9CPrfp+Tz6sNA99nSmPRBKiT4AzBq+Rd9xPptrhD66qAa/h463PnwXTr5qKgk/2ZtIOy/JY75wLTQ+oKUrP6zd0j1ge5K+N9T/Ph0aWL7gUdk8Zx1ivV0Qkr0+3oC+26PzPtcU6T6IXYm+ZAHxPTTIPT4HTlU+ZoqSPA0J8L1/8fE9xBXYvo0Aij2QvOK+cOYWO3KSOT6mJ0w+BA47vtl8TDw9LHM+pA4Lv2WPPL3gSHA6V74UP0klRT8lm+A+eFaOvRUUsr7WiwA/HVrSPTtwxjw8syY9UcdUPsyjmz6/RdW+FquSPnRbD77BIh8+6u2XPu0PaL589RU+fFzlPQ/eS74ct8u9joPUvcJsqj3M0ZU+UuZBPqLRg7oh+j2+ZTFqPhnMKL7Kuuu9XSnsO3k7Ob45TaO9sSzVPVOfkLz1OUA9WHLoPVkOEr5xFRk+ua5Cvhf5rb6zvwU+dBG9PnUTqjzCXMC8UmqIvmghyL5BQWm9T97OvZ51c713142+RT9cPoOW1zmpqEY9JWD/vv+8aD6ITsk9k5H3uX5kfb6CdoU9vkqDviw8jD3VdQk+CQCavtQ6CL6jNT2+tW13vsGQ7j4iiI49kVqvvUfpvL7PYTK+d9r0PsFcQzmk4j2+8D60PrxB1LyGtoW9/l0QPJhd+Lylvzi+HdbWPosnk75PlnO+fLd8PjSfu77ct4Y93P9hPNwJ0L0BJ6w+kNX4PawECb2089u9RR+QvolWcL45jRk9lvMDvpwec76w6Xm+qWZ0PlVoHr5GUNe9OE/HPtARCrwKg3c9a7JlvlmxIL5uqBG9XfwIPsG/iL3N1GM9tZYLPWn7LL6+y00+AypoPjDvk77Em5q+W3dRvRSFAb0TJas+jr9jvqgYDbsFWqC+EhlJPclTmb2tsKa8pRm9vXlXdT498FS9/8K2vtU+bz7r4zG9FuOoPIklbr5ocRS+yoFOvlbFHj6OYOw9Wnn5PlJhkj0U/7u+Lu0lvnpYSb6ASYA9OkOZvlxjzLti3AG/Gseqvq4EZD4GMTW+W1fEveUJir1rRwK/eRiRvu3uRL4z20M+pblIPudCq753I909CTCuO9aoRL1VPhw8FX9zPTsf5j65OKG+vzZfvt5Xi77v7L+9UGqpvu01FL5jOfy+8OzBvp/Wxz2XrII+mK6qPcaP5L5230g+BvG1PQEBqL0SSXa9PD4EvgQ5qz4FQ5A+chWZvccoDL9LsZa+2GlMPtihDL4GYek9Xj9fPnMYkr1unYK9sUMiPt6WwL6bQu89qxIovmBVlL7EtyQ+al6rPjY6Jr1F6hm9lRxkvYGGnT57hp0+VkJlvp1d97w4x7g+gq6Au4UHGT6Q3Li+na+rPURTvr4z3yy+YwU6PfYPkD45/Dy+tXpHPhCmqL5xxZw+2PSEPnTq871EBaC+0E7Jvgiysb6mwPk95ZQpvhYMIL4mOFQ+8e41vh8rsr024Km9bQcrvdWyAD7sowe+cPTivhxki75gXio+nL7RPQOKpz06uzw+YPLIvWg/JL/XPCG+RvgFva6xkT4D8Ze9m7QaPqUSkL7+yEg+/vitPMBXbT4du0I+pRYBv4eFtr5hgd8+n6Xsvr8vJT4Vgym+qUsWvq5/Eb7YLBC+AogYPuvuHT47MaE9ncr0PYa8D7+1Ov692SCpPeWMTT6IKYi8S9e2PaWOTb4eeZW+uYnOPTZrdL59BLW+4pWKvoPfsT1MaAc+xrY0PbD4U75DmLC9O89HPeim/b051fG9PxqOPovoGz5oS5q+GziRPHHuVL5HX4a8uvFevXpZ/D3b7xs9vOkFPgnrbj0Q3/W+kuWdvsjliLw8Sx++BYycPr0lIT5+DTK+M1CkvlHQPTyrzA++CVK8viNR3jx1ljo+Bq0rPNuRjT2MWYo+YEkIv8FFyr64Kzq92xmGvro0f74csJW+PcwtvsB/4z23wx4+y3KRvSV91776N5k+HoOvvgmOpD7m6+29R+PePmRdjD20lQW+/T0pvicZOT1XV5C9HHCrPvBoO72kloS9bPUbPns747xl4k+9eSq4vWrt8b75UIe+Vzhjvj+yTT4G3Si+sGBEPTobMTwO+dE9MXEYvZrXkj0AWt2+G+wXvvDXEj9ODQC7zY+ePp997D0pahS+GqqVPcKGBz6j7zY7OHW2PHcoDj7zkFm95Mzkvj6cj7w=';

// src/weights.ts
var cached;
function defaultModelWeights() {
  cached ??= parseModelWeights(base64ToBytes(LIPSYNC_WEIGHTS_BASE64));
  return cached;
}

// src/driver.ts
var DEFAULT_LOOKAHEAD_MS = 20;
var MAX_LOOKAHEAD_MS = 200;
var HOP_MS = (HOP / ANALYSIS_RATE) * 1e3;
function createDriver(options) {
  const { sampleRate } = options;
  if (!isSupportedSampleRate(sampleRate)) {
    throw new AvatarError3(
      'unsupportedSampleRate',
      `Sample rate ${String(sampleRate)} is not supported. Use one of ${SUPPORTED_SAMPLE_RATES.join(', ')} Hz (resample your audio first).`,
    );
  }
  const lookaheadMs = options.lookaheadMs ?? DEFAULT_LOOKAHEAD_MS;
  if (
    typeof lookaheadMs !== 'number' ||
    !Number.isFinite(lookaheadMs) ||
    lookaheadMs < 0 ||
    lookaheadMs > MAX_LOOKAHEAD_MS
  ) {
    throw new AvatarError3(
      'invalidRequest',
      `lookaheadMs must be a number from 0 to ${MAX_LOOKAHEAD_MS}, got ${String(lookaheadMs)}. Omit it for the default ${DEFAULT_LOOKAHEAD_MS} ms.`,
    );
  }
  const seed = options.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) {
    throw new AvatarError3('invalidRequest', `seed must be an integer, got ${String(seed)}.`);
  }
  const weights =
    options.weights === void 0
      ? defaultModelWeights()
      : options.weights instanceof Uint8Array
        ? parseModelWeights(options.weights)
        : options.weights;
  return new StreamingDriver(sampleRate, Math.floor(lookaheadMs / HOP_MS), seed, weights);
}
var StreamingDriver = class {
  sampleRate;
  lookaheadMs;
  latencyMs;
  lookaheadHops;
  weights;
  features;
  pitch;
  history;
  mlp;
  animator;
  resampler;
  inputSamples = 0;
  nextFrame = 0;
  out = [];
  scratch = new Float32Array(0);
  constructor(sampleRate, lookaheadHops, seed, weights) {
    this.sampleRate = sampleRate;
    this.lookaheadHops = lookaheadHops;
    this.lookaheadMs = lookaheadHops * HOP_MS;
    this.weights = weights;
    const header = weights.header;
    this.history = new HopHistory(header.featureMean, header.featureStd);
    this.features = new FeatureExtractor((f, a) => this.onHop(f, a), header.channelPrior);
    this.pitch = new PitchTracker();
    this.mlp = new MlpRunner(weights);
    this.animator = new FrameAnimator(seed);
    this.resampler = createStreamResampler(sampleRate, ANALYSIS_RATE);
    const resamplerMs = this.resampler ? (this.resampler.latencySamples / sampleRate) * 1e3 : 0;
    this.latencyMs = 1e3 / FPS + this.lookaheadMs + resamplerMs;
  }
  push(pcm) {
    if (!(pcm instanceof Int16Array)) {
      throw new AvatarError3('invalidAudio', 'push() takes mono s16 PCM as an Int16Array.');
    }
    this.inputSamples += pcm.length;
    if (this.resampler) {
      this.feed(this.resampler.push(pcm));
    } else {
      if (this.scratch.length < pcm.length) this.scratch = new Float32Array(pcm.length);
      const s = this.scratch;
      for (let i = 0; i < pcm.length; i++) s[i] = pcm[i] / 32768;
      this.feed(s, pcm.length);
    }
    return this.take();
  }
  end() {
    if (this.resampler) this.feed(this.resampler.flush());
    const frames = frameCountForSamples(this.inputSamples, this.sampleRate);
    const neededHops = frames * HOPS_PER_FRAME + this.modelFutureHops();
    const silence = new Float32Array(HOP);
    while (this.nextFrame < frames && this.history.count < neededHops) this.feed(silence);
    const out = this.take();
    const kept = out.filter((f) => f.index < frames);
    this.startUtterance(false);
    return kept;
  }
  reset() {
    this.startUtterance(true);
  }
  startUtterance(full) {
    this.inputSamples = 0;
    this.nextFrame = 0;
    this.history.reset();
    this.pitch.reset();
    this.out = [];
    this.resampler = createStreamResampler(this.sampleRate, ANALYSIS_RATE);
    if (full) {
      this.features.reset();
      this.animator.reset();
    } else {
      this.features.restart();
    }
  }
  /** Hops past the frame's last hop that the model reads (its trained lookahead, capped by ours). */
  modelFutureHops() {
    return this.lookaheadHops;
  }
  /** Feeds 16 kHz samples hop by hop, so pitch and features stay in step whatever the chunk size. */
  feed(samples, length = samples.length) {
    let from = 0;
    while (from < length) {
      const to = Math.min(length, from + this.features.samplesToNextHop());
      this.pitch.push(samples, from, to);
      this.features.push(samples, from, to);
      from = to;
    }
  }
  take() {
    const out = this.out;
    this.out = [];
    return out;
  }
  onHop(features, acoustics) {
    this.history.push(features, acoustics);
    while (this.history.count >= (this.nextFrame + 1) * HOPS_PER_FRAME + this.lookaheadHops) {
      this.out.push(this.emit(this.nextFrame));
      this.nextFrame++;
    }
  }
  emit(k) {
    const base = k * HOPS_PER_FRAME;
    const newest = base + HOPS_PER_FRAME - 1 + this.lookaheadHops;
    const history = this.history;
    history.assemble(this.mlp.input, base, this.weights.header.context, newest);
    const posteriors = this.mlp.run();
    let energy = Number.NEGATIVE_INFINITY;
    for (let h = base; h < base + HOPS_PER_FRAME; h++)
      energy = Math.max(energy, history.energy[history.slot(h)]);
    const last = history.slot(base + HOPS_PER_FRAME - 1);
    const noiseFloor = history.noiseFloor[last];
    const f0 = energy - noiseFloor > 1.5 ? this.pitch.f0At(((k + 1) * PITCH_RATE) / FPS) : 0;
    return this.animator.frame(k, posteriors, {
      energy,
      level: history.level[last],
      noiseFloor,
      f0,
    });
  }
};

export {
  ANALYSIS_RATE,
  createDriver,
  createStreamResampler,
  DEFAULT_LOOKAHEAD_MS,
  defaultModelWeights,
  FEATURE_DIM,
  FeatureExtractor,
  HOP,
  HOPS_PER_FRAME,
  MAX_LOOKAHEAD_MS,
  MEL_BANDS,
  parseModelWeights,
  serializeModelWeights,
  WINDOW,
};
