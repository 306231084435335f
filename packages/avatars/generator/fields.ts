/**
 * The face rig as displacement fields: for each ARKit blendshape, where a skin-like vertex
 * (face, brows, teeth, tongue) moves at weight 1. Fields depend on the vertex position and its
 * {@link VertexRig} weights only, so parts that touch (skin and brows, lower lip and lower teeth)
 * move together.
 */
import type { ArkitBlendshape } from '@avatar-drive/core';
import type { FaceLayout } from './layout.js';
import { add, dot, gauss, norm, rotX, scale, smoothstep, sub, type V3, v3 } from './math.js';
import type { VertexRig } from './part.js';

const ZERO: V3 = [0, 0, 0];

/** Sides: index 0 is the avatar's left (+x), 1 its right. */
const SIDE_SIGN = [1, -1] as const;

function sideWeight(p: V3, side: 0 | 1): number {
  const w = smoothstep(-0.004, 0.004, p[0]);
  return side === 0 ? w : 1 - w;
}

/** Gaussian in the face plane (x, y), limited to the front of the head. */
function facePatch(p: V3, x: number, y: number, sigma: number): number {
  return gauss((p[0] - x) ** 2 + (p[1] - y) ** 2, sigma) * smoothstep(0.02, 0.06, p[2]);
}

export function faceField(layout: FaceLayout, name: ArkitBlendshape, p: V3, rig: VertexRig): V3 {
  const { m, eu, ev, mouth, jawPivot, jawAngle } = layout;
  const rel = sub(p, mouth);
  const lu = dot(rel, eu);
  const lv = dot(rel, ev);
  const half = layout.mouthHalfWidth;
  const jawRot = (angle: number): V3 => sub(rotX(p, jawPivot, angle * rig.jaw), p);
  const lowerEdge = rig.jaw * rig.edge;
  const upperEdge = (1 - rig.jaw) * rig.edge;
  // 1 in the middle of the lips, 0 at the corners: lips part and bulge most at the centre.
  const centre = 1 - smoothstep(0.45, 1.0, Math.abs(lu) / half);
  const sideOf = (s: 0 | 1): number => sideWeight(p, s);
  const cornerW = (s: 0 | 1, sigma: number): number => gauss(dist2(p, layout.corners[s]), sigma);
  const outward = norm(v3(p[0], 0, p[2]));
  const brow = (s: 0 | 1, part: 'inner' | 'mid' | 'outer'): number => {
    const k = SIDE_SIGN[s];
    const x = part === 'inner' ? 0.015 : part === 'mid' ? 0.031 : 0.047;
    const y = part === 'inner' ? 0.021 : part === 'mid' ? 0.027 : 0.021;
    return facePatch(p, k * x, y, 0.0105);
  };
  const sideField = (s: 0 | 1): { k: number; side: number } => ({ k: SIDE_SIGN[s], side: sideOf(s) });

  if (rig.rigid) {
    // Lower teeth and tongue only ride on the jaw.
    switch (name) {
      case 'jawOpen':
        return jawRot(jawAngle);
      case 'mouthFunnel':
        return jawRot(0.12 * jawAngle);
      case 'tongueOut':
        return jawRot(0.1 * jawAngle);
      case 'jawForward':
      case 'jawLeft':
      case 'jawRight':
        break;
      default:
        return ZERO;
    }
  }

  switch (name) {
    case 'jawOpen':
      return add(jawRot(jawAngle), scale(ev, 0.0018 * upperEdge * rig.lip));
    case 'jawForward':
      return v3(0, 0, 0.0075 * rig.jaw);
    case 'jawLeft':
      return v3(0.0075 * rig.jaw, 0, 0);
    case 'jawRight':
      return v3(-0.0075 * rig.jaw, 0, 0);
    case 'mouthClose': {
      // Lips pressed together independently of the jaw: the vermilion thins, the lower lip pushes
      // up against the upper one and the chin tightens.
      const squeeze = scale(ev, -0.7 * lv * rig.edge * centre);
      const lips = add(
        scale(ev, 0.0075 * lowerEdge - 0.0025 * upperEdge),
        scale(m, 0.0062 * lowerEdge * centre + 0.002 * upperEdge * centre),
      );
      const chin = facePatch(p, 0, mouth[1] - 0.028, 0.011);
      return add(add(squeeze, lips), add(scale(ev, 0.005 * chin), scale(m, 0.004 * chin)));
    }
    case 'mouthFunnel': {
      const open = (rig.jaw < 0.5 ? 1 : -1) * 0.0085 * rig.edge * centre;
      const d = add(scale(eu, -0.4 * lu * rig.lip), scale(m, 0.011 * rig.edge + 0.004 * rig.lip));
      return add(add(d, scale(ev, open)), jawRot(0.12 * jawAngle));
    }
    case 'mouthPucker': {
      const d = add(scale(eu, -0.5 * lu * rig.lip), scale(m, 0.014 * rig.edge + 0.006 * rig.lip));
      return add(d, scale(ev, -0.25 * lv * rig.edge));
    }
    case 'mouthLeft':
      return scale(eu, 0.009 * rig.lip);
    case 'mouthRight':
      return scale(eu, -0.009 * rig.lip);
    case 'mouthSmileLeft':
    case 'mouthSmileRight': {
      const s = name === 'mouthSmileLeft' ? 0 : 1;
      const k = SIDE_SIGN[s];
      const c = cornerW(s, 0.017);
      const cheek = facePatch(p, k * 0.04, -0.016, 0.015);
      return add(
        add(scale(ev, 0.009 * c + 0.004 * cheek), scale(eu, k * 0.0055 * c)),
        add(scale(m, -0.004 * c), scale(outward, 0.0022 * cheek)),
      );
    }
    case 'mouthFrownLeft':
    case 'mouthFrownRight': {
      const s = name === 'mouthFrownLeft' ? 0 : 1;
      const c = cornerW(s, 0.016);
      return add(scale(ev, -0.0075 * c), scale(eu, SIDE_SIGN[s] * 0.002 * c));
    }
    case 'mouthDimpleLeft':
    case 'mouthDimpleRight': {
      const s = name === 'mouthDimpleLeft' ? 0 : 1;
      const c = cornerW(s, 0.012);
      return add(scale(m, -0.0045 * c), scale(eu, SIDE_SIGN[s] * 0.003 * c));
    }
    case 'mouthStretchLeft':
    case 'mouthStretchRight': {
      const s = name === 'mouthStretchLeft' ? 0 : 1;
      const { k, side } = sideField(s);
      const c = cornerW(s, 0.02);
      return add(
        add(scale(eu, k * 0.008 * c), scale(ev, -0.003 * c)),
        scale(ev, -0.25 * lv * rig.edge * side),
      );
    }
    case 'mouthRollLower':
      return add(scale(m, -0.0045 * lowerEdge), scale(ev, 0.003 * lowerEdge * centre));
    case 'mouthRollUpper':
      return add(scale(m, -0.0045 * upperEdge), scale(ev, -0.003 * upperEdge * centre));
    case 'mouthShrugLower': {
      const w = rig.jaw * rig.lip;
      return add(scale(ev, 0.004 * w), scale(m, 0.003 * w));
    }
    case 'mouthShrugUpper': {
      const w = (1 - rig.jaw) * rig.lip * smoothstep(-0.004, 0.006, lv);
      return add(scale(ev, 0.003 * (w + upperEdge * 0.5)), scale(m, 0.002 * w));
    }
    case 'mouthPressLeft':
    case 'mouthPressRight': {
      const side = sideOf(name === 'mouthPressLeft' ? 0 : 1);
      return add(scale(ev, -0.3 * lv * rig.edge * side), scale(m, -0.0015 * rig.edge * side));
    }
    case 'mouthLowerDownLeft':
    case 'mouthLowerDownRight': {
      const side = sideOf(name === 'mouthLowerDownLeft' ? 0 : 1);
      return add(scale(ev, -0.0075 * lowerEdge * side * centre), scale(m, 0.001 * lowerEdge * side));
    }
    case 'mouthUpperUpLeft':
    case 'mouthUpperUpRight': {
      const side = sideOf(name === 'mouthUpperUpLeft' ? 0 : 1);
      return add(scale(ev, 0.0065 * upperEdge * side * centre), scale(m, 0.001 * upperEdge * side));
    }
    case 'cheekPuff': {
      const c = facePatch(p, 0.043, -0.04, 0.019) + facePatch(p, -0.043, -0.04, 0.019);
      return add(scale(outward, 0.009 * c), scale(m, 0.002 * rig.edge));
    }
    case 'cheekSquintLeft':
    case 'cheekSquintRight': {
      const k = SIDE_SIGN[name === 'cheekSquintLeft' ? 0 : 1];
      const c = facePatch(p, k * 0.034, -0.013, 0.012);
      return add(v3(0, 0.003 * c, 0), scale(outward, 0.001 * c));
    }
    case 'noseSneerLeft':
    case 'noseSneerRight': {
      const k = SIDE_SIGN[name === 'noseSneerLeft' ? 0 : 1];
      const wing = facePatch(p, k * 0.011, -0.018, 0.008);
      const inner = facePatch(p, k * 0.014, 0.02, 0.009);
      return v3(0, 0.0032 * wing - 0.002 * inner, 0.0006 * wing);
    }
    case 'eyeSquintLeft':
    case 'eyeSquintRight': {
      const k = SIDE_SIGN[name === 'eyeSquintLeft' ? 0 : 1];
      return v3(0, 0.0022 * facePatch(p, k * layout.style.eyeSpacing, -0.017, 0.01), 0);
    }
    case 'eyeWideLeft':
    case 'eyeWideRight': {
      const k = SIDE_SIGN[name === 'eyeWideLeft' ? 0 : 1];
      return v3(0, 0.0016 * facePatch(p, k * layout.style.eyeSpacing, 0.019, 0.01), 0);
    }
    case 'browDownLeft':
    case 'browDownRight': {
      const s = name === 'browDownLeft' ? 0 : 1;
      const w = brow(s, 'inner') + 0.7 * brow(s, 'mid') + 0.35 * brow(s, 'outer');
      return v3(-SIDE_SIGN[s] * 0.0018 * brow(s, 'inner'), -0.0045 * w, 0.0008 * w);
    }
    case 'browInnerUp': {
      const w = brow(0, 'inner') + brow(1, 'inner') + 0.3 * (brow(0, 'mid') + brow(1, 'mid'));
      return v3(0, 0.0058 * w, 0);
    }
    case 'browOuterUpLeft':
    case 'browOuterUpRight': {
      const s = name === 'browOuterUpLeft' ? 0 : 1;
      return v3(0, 0.0058 * (brow(s, 'outer') + 0.45 * brow(s, 'mid')), 0);
    }
    case 'tongueOut':
      return add(
        jawRot(0.1 * jawAngle),
        scale(ev, -0.004 * lowerEdge * centre + 0.0015 * upperEdge * centre),
      );
    default:
      // Eye blinks and gaze move eyeballs and lids (their own parts), not the skin.
      return ZERO;
  }
}

function dist2(a: V3, b: V3): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
}
