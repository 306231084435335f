/**
 * Applies drive frames to a loaded avatar following core's plan ({@link AvatarCoverage}): every
 * weight target gets the clamped weighted sum of its channels, every pose channel turns its bone
 * (or the whole model, or the VRM lookAt).
 */
import {
  type AvatarCoverage,
  type ChannelSlot,
  channelSlot,
  type DriveChannel,
  type DriveFrame,
  type PoseChannel,
} from '@avatar-drive/core';
import * as THREE from 'three';
import type { LoadedRig, PoseBone } from './loaded-rig.js';

interface CompiledWeight {
  slots: ChannelSlot[];
  weights: number[];
  channels: DriveChannel[];
  set(value: number): void;
  get(): number;
}

const tmpAxis = new THREE.Vector3();

/** A frame applier compiled once per loaded avatar. */
export class DriveBinding {
  readonly #weights: CompiledWeight[] = [];
  readonly #rig: LoadedRig;
  readonly #poseTargets = new Map<PoseChannel, PoseBone[]>();
  readonly #rootChannels = new Set<PoseChannel>();
  readonly #lookAt: boolean;

  constructor(rig: LoadedRig, plan: AvatarCoverage) {
    this.#rig = rig;
    for (const drive of plan.weights) {
      const slots: ChannelSlot[] = [];
      const weights: number[] = [];
      for (const input of drive.inputs) {
        const slot = channelSlot(input.channel);
        if (!slot) continue;
        slots.push(slot);
        weights.push(input.weight);
      }
      const channels = drive.inputs.map((i) => i.channel);
      const target = drive.target;
      if (target.kind === 'morph') {
        const influences = rig.meshes.get(target.mesh)?.morphTargetInfluences;
        if (!influences) continue;
        const index = target.index;
        this.#weights.push({
          slots,
          weights,
          channels,
          set: (v) => {
            influences[index] = v;
          },
          get: () => influences[index] ?? 0,
        });
      } else if (rig.setExpression && rig.getExpression) {
        const { setExpression, getExpression } = rig;
        const name = target.name;
        this.#weights.push({
          slots,
          weights,
          channels,
          set: (v) => setExpression(name, v),
          get: () => getExpression(name) ?? 0,
        });
      }
    }
    let lookAt = false;
    for (const pose of plan.poses) {
      if (pose.target.kind === 'root') this.#rootChannels.add(pose.channel);
      else if (pose.target.kind === 'lookAt') lookAt = rig.setLookAt !== undefined;
      else {
        const bone = rig.bones[pose.target.bone];
        if (!bone) continue;
        const list = this.#poseTargets.get(pose.channel) ?? [];
        list.push(bone);
        this.#poseTargets.set(pose.channel, list);
      }
    }
    this.#lookAt = lookAt;
  }

  /** Whether the head turns the whole model (no head bone): the view then pivots it near the neck. */
  get turnsRoot(): boolean {
    return this.#rootChannels.has('rotation');
  }

  /**
   * The largest weight applied now to targets that follow `channel`, or `undefined` when
   * nothing follows it.
   */
  influence(channel: DriveChannel): number | undefined {
    let best: number | undefined;
    for (const w of this.#weights) {
      if (!w.channels.includes(channel)) continue;
      const value = w.get();
      best = best === undefined ? value : Math.max(best, value);
    }
    return best;
  }

  /**
   * Applies `frame`: weights and bones now; `root` receives the head (and neck) turn when the
   * avatar has no head bone. Call the rig's `update` afterwards.
   */
  apply(frame: DriveFrame, root: THREE.Object3D): void {
    for (const w of this.#weights) {
      let sum = 0;
      for (let i = 0; i < w.slots.length; i++) {
        const slot = w.slots[i]!;
        sum += (frame[slot.field][slot.index] ?? 0) * w.weights[i]!;
      }
      w.set(Math.min(1, Math.max(0, sum)));
    }
    const mirror = this.#rig.mirrorXZ;
    // Bones: reset to rest, then compose each channel that reaches them (neck may fall back to head).
    for (const list of this.#poseTargets.values()) for (const b of list) b.bone.quaternion.copy(b.rest);
    this.#turn('rotation', frame.rotation, 0, mirror);
    this.#turn('neckPose', frame.neckPose, 0, mirror);
    this.#turn('jawPose', frame.jawPose, 0, mirror);
    const eyes = this.#poseTargets.get('eyePose');
    if (eyes) {
      // Left eye first, right second (the order rigs list them); each takes its own half of eyePose.
      eyes.forEach((b, i) => {
        b.bone.quaternion.multiply(axisAngle(frame.eyePose, i === 0 ? 0 : 3, mirror));
      });
    }
    if (this.#lookAt) {
      const yaw = (frame.eyePose[1]! + frame.eyePose[4]!) / 2;
      const pitch = (frame.eyePose[0]! + frame.eyePose[3]!) / 2;
      this.#rig.setLookAt!(THREE.MathUtils.radToDeg(yaw), THREE.MathUtils.radToDeg(pitch));
    }
    if (this.#rootChannels.has('rotation') || this.#rootChannels.has('neckPose')) {
      root.quaternion.identity();
      if (this.#rootChannels.has('rotation')) root.quaternion.multiply(axisAngle(frame.rotation, 0, false));
      if (this.#rootChannels.has('neckPose')) root.quaternion.multiply(axisAngle(frame.neckPose, 0, false));
    }
  }

  #turn(channel: PoseChannel, values: Float32Array, offset: number, mirror: boolean): void {
    const list = this.#poseTargets.get(channel);
    if (!list) return;
    const q = axisAngle(values, offset, mirror);
    for (const b of list) b.bone.quaternion.multiply(q);
  }
}

/** An axis-angle rotation (radians) as a quaternion; `mirror` turns it into a −Z-facing frame. */
function axisAngle(values: Float32Array, offset: number, mirror: boolean): THREE.Quaternion {
  const sign = mirror ? -1 : 1;
  const x = (values[offset] ?? 0) * sign;
  const y = values[offset + 1] ?? 0;
  const z = (values[offset + 2] ?? 0) * sign;
  const angle = Math.hypot(x, y, z);
  if (angle < 1e-9) return new THREE.Quaternion();
  tmpAxis.set(x / angle, y / angle, z / angle);
  return new THREE.Quaternion().setFromAxisAngle(tmpAxis, angle);
}
