/**
 * Browser side of the render test: loads a glTF avatar with three.js, lights it like a portrait,
 * sets morph weights by name and hands back pixels. Bundled with esbuild by the harness.
 */
import { addPortraitLights, configurePortraitRenderer } from '@avatar-drive/client-core/three';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

export interface LoadedInfo {
  meshes: number;
  morphMeshes: number;
  targetNames: string[];
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A camera framed on the lips, and how many pixels one metre spans at the lips' distance. */
export interface MouthCamera {
  camera: { position: number[]; target: number[]; fov: number };
  pixelsPerMetre: number;
}

/** One row of a comparison sheet: a label and one PNG data URL per column. */
export interface SheetRow {
  label: string;
  images: string[];
}

declare global {
  interface Window {
    avatarPage: {
      load(url: string, camera: { position: number[]; target: number[]; fov: number }): Promise<LoadedInfo>;
      pose(weights: Record<string, number>): void;
      view(camera: { position: number[]; target: number[]; fov: number }): void;
      mouthRect(): Rect;
      mouthCamera(side: 'front' | 'profile'): MouthCamera;
      lipProfile(rect: Rect): number;
      pixels(rect: Rect): number[];
      png(): string;
      sheet(rows: SheetRow[], columns: string[]): Promise<string>;
      surfaceColor(point: number[]): { mesh: string; rgb: number[] };
    };
  }
}

const WIDTH = 480;
const HEIGHT = 600;

const canvas = document.createElement('canvas');
document.body.appendChild(canvas);
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
// A lost context reads back as black frames: say so instead of comparing them.
let contextLost = false;
canvas.addEventListener('webglcontextlost', () => {
  contextLost = true;
});
renderer.setPixelRatio(1);
renderer.setSize(WIDTH, HEIGHT);
// The same tone mapping and lights as the SDK views, so these frames show what apps show.
configurePortraitRenderer(renderer);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0xe9edf2);
addPortraitLights(scene, renderer);

const camera = new THREE.PerspectiveCamera(30, WIDTH / HEIGHT, 0.01, 20);
let avatar: THREE.Object3D | null = null;
let morphMeshes: THREE.Mesh[] = [];

function render(): void {
  renderer.render(scene, camera);
}

window.avatarPage = {
  async load(url, cam) {
    if (avatar) {
      // Free the previous model's GPU memory: SwiftShader loses the context after a few textured heads.
      scene.remove(avatar);
      avatar.traverse((o) => {
        const mesh = o as THREE.Mesh;
        if (!mesh.isMesh) return;
        mesh.geometry.dispose();
        for (const material of [mesh.material].flat()) {
          for (const value of Object.values(material))
            if (value && (value as THREE.Texture).isTexture) (value as THREE.Texture).dispose();
          material.dispose();
        }
      });
    }
    const gltf = await new GLTFLoader().loadAsync(url);
    avatar = gltf.scene;
    scene.add(avatar);
    morphMeshes = [];
    let meshes = 0;
    const names = new Set<string>();
    avatar.traverse((o) => {
      const mesh = o as THREE.Mesh;
      if (!mesh.isMesh) return;
      meshes++;
      if (mesh.morphTargetDictionary) {
        morphMeshes.push(mesh);
        for (const n of Object.keys(mesh.morphTargetDictionary)) names.add(n);
      }
    });
    camera.fov = cam.fov;
    camera.position.fromArray(cam.position);
    camera.lookAt(new THREE.Vector3().fromArray(cam.target));
    camera.updateProjectionMatrix();
    render();
    return { meshes, morphMeshes: morphMeshes.length, targetNames: [...names].sort() };
  },

  /** Moves the camera (and renders): the close-ups use it after `load`. */
  view(cam) {
    camera.fov = cam.fov;
    camera.position.fromArray(cam.position);
    camera.lookAt(new THREE.Vector3().fromArray(cam.target));
    camera.updateProjectionMatrix();
    render();
  },

  pose(weights) {
    for (const mesh of morphMeshes) {
      const dict = mesh.morphTargetDictionary!;
      const influences = mesh.morphTargetInfluences!;
      influences.fill(0);
      for (const [name, w] of Object.entries(weights)) {
        const i = dict[name];
        if (i !== undefined) influences[i] = w;
      }
    }
    render();
  },

  /**
   * The lips on screen: the vertices mouthPucker moves most (over 60% of its largest shift),
   * projected and padded. Derived from the model itself, so it works for any ARKit avatar.
   */
  mouthRect() {
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    const v = new THREE.Vector3();
    const d = new THREE.Vector3();
    let largest = 0;
    for (const mesh of morphMeshes) {
      const i = mesh.morphTargetDictionary!.mouthPucker;
      const target = i === undefined ? undefined : mesh.geometry.morphAttributes.position?.[i];
      for (let k = 0; target && k < target.count; k++)
        largest = Math.max(largest, d.fromBufferAttribute(target, k).length());
    }
    for (const mesh of morphMeshes) {
      const i = mesh.morphTargetDictionary!.mouthPucker;
      const target = i === undefined ? undefined : mesh.geometry.morphAttributes.position?.[i];
      if (!target) continue;
      const pos = mesh.geometry.getAttribute('position');
      mesh.updateWorldMatrix(true, false);
      for (let k = 0; k < pos.count; k++) {
        d.fromBufferAttribute(target, k);
        if (d.length() < 0.6 * largest) continue;
        mesh.getVertexPosition(k, v).applyMatrix4(mesh.matrixWorld).project(camera);
        const x = ((v.x + 1) / 2) * WIDTH;
        const y = ((1 - v.y) / 2) * HEIGHT;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
    if (!Number.isFinite(minX)) throw new Error('no vertex moves with mouthPucker');
    const padX = (maxX - minX) * 0.15;
    const padY = (maxY - minY) * 0.25;
    const x = Math.max(0, Math.floor(minX - padX));
    const y = Math.max(0, Math.floor(minY - padY));
    return {
      x,
      y,
      width: Math.min(WIDTH, Math.ceil(maxX + padX)) - x,
      height: Math.min(HEIGHT, Math.ceil(maxY + padY)) - y,
    };
  },

  /**
   * A camera on the lips (the vertices mouthPucker moves most), from the front (+z) or from the
   * avatar's left (+x), four lip-widths away: works for any ARKit rig whatever its scale.
   */
  mouthCamera(side) {
    // Vertex positions as drawn (skinned meshes' bind poses differ from their node transforms).
    avatar?.updateMatrixWorld(true);
    const box = new THREE.Box3();
    const v = new THREE.Vector3();
    const d = new THREE.Vector3();
    let largest = 0;
    for (const mesh of morphMeshes) {
      const i = mesh.morphTargetDictionary!.mouthPucker;
      const target = i === undefined ? undefined : mesh.geometry.morphAttributes.position?.[i];
      for (let k = 0; target && k < target.count; k++)
        largest = Math.max(largest, d.fromBufferAttribute(target, k).length());
    }
    for (const mesh of morphMeshes) {
      const i = mesh.morphTargetDictionary!.mouthPucker;
      const target = i === undefined ? undefined : mesh.geometry.morphAttributes.position?.[i];
      if (!target) continue;
      const pos = mesh.geometry.getAttribute('position');
      mesh.updateWorldMatrix(true, false);
      for (let k = 0; k < pos.count; k++) {
        if (d.fromBufferAttribute(target, k).length() < 0.4 * largest) continue;
        box.expandByPoint(mesh.getVertexPosition(k, v).applyMatrix4(mesh.matrixWorld));
      }
    }
    if (box.isEmpty()) throw new Error('no vertex moves with mouthPucker');
    const centre = box.getCenter(new THREE.Vector3());
    const width = Math.max(box.max.x - box.min.x, 1e-3);
    const distance = 4 * width;
    const fov = 30;
    const position =
      side === 'front'
        ? [centre.x, centre.y, centre.z + distance]
        : [centre.x + distance, centre.y, centre.z];
    const cam = { position, target: centre.toArray(), fov };
    window.avatarPage.view(cam);
    return { camera: cam, pixelsPerMetre: HEIGHT / (2 * distance * Math.tan((fov * Math.PI) / 360)) };
  },

  /**
   * Seen in profile from the avatar's left (the face towards the left of the frame), the leftmost
   * column in `rect` where any row meets the model rather than the background: how far forward
   * the lips reach, in pixels from the frame's left edge.
   */
  lipProfile(rect) {
    const data = window.avatarPage.pixels(rect);
    // The background as drawn (sRGB; three converts the clear colour, it does not tone-map it).
    const hex = (scene.background as THREE.Color).getHex();
    const [br, bgc, bb] = [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255];
    let front = Number.POSITIVE_INFINITY;
    for (let row = 0; row < rect.height; row++) {
      for (let col = 0; col < rect.width; col++) {
        const i = (row * rect.width + col) * 4;
        const diff = Math.abs(data[i]! - br!) + Math.abs(data[i + 1]! - bgc!) + Math.abs(data[i + 2]! - bb!);
        if (diff > 30) {
          front = Math.min(front, col);
          break;
        }
      }
    }
    return rect.x + front;
  },

  pixels(rect) {
    if (contextLost) throw new Error('the WebGL context was lost (SwiftShader out of memory?)');
    const gl = renderer.getContext();
    const out = new Uint8Array(rect.width * rect.height * 4);
    // WebGL rows start at the bottom.
    gl.readPixels(
      rect.x,
      HEIGHT - rect.y - rect.height,
      rect.width,
      rect.height,
      gl.RGBA,
      gl.UNSIGNED_BYTE,
      out,
    );
    return Array.from(out);
  },

  png() {
    return canvas.toDataURL('image/png');
  },

  /**
   * The rendered colour (mean sRGB of a 7×7 patch) where the line of sight towards world `point`
   * first meets the model, and the name of the mesh it meets there.
   */
  surfaceColor(point) {
    const ndc = new THREE.Vector3().fromArray(point).project(camera);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(new THREE.Vector2(ndc.x, ndc.y), camera);
    const hit = avatar ? ray.intersectObject(avatar, true)[0] : undefined;
    const x = Math.round(((ndc.x + 1) / 2) * WIDTH);
    const y = Math.round(((1 - ndc.y) / 2) * HEIGHT);
    const data = window.avatarPage.pixels({ x: x - 3, y: y - 3, width: 7, height: 7 });
    const rgb = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) rgb[c]! += data[i + c]! / 49;
    return { mesh: hit?.object.name ?? '', rgb };
  },

  /** Lays frames out in a labelled grid (half size) and returns it as a PNG data URL. */
  async sheet(rows, columns) {
    const cell = { width: WIDTH / 2, height: HEIGHT / 2 };
    const left = 120;
    const top = 36;
    const out = document.createElement('canvas');
    out.width = left + columns.length * cell.width;
    out.height = top + rows.length * cell.height;
    const g = out.getContext('2d')!;
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, out.width, out.height);
    g.fillStyle = '#1d2330';
    g.font = '600 16px sans-serif';
    g.textBaseline = 'middle';
    g.textAlign = 'center';
    for (const [i, c] of columns.entries()) g.fillText(c, left + (i + 0.5) * cell.width, top / 2);
    g.textAlign = 'left';
    for (const [r, row] of rows.entries()) {
      g.fillText(row.label, 12, top + (r + 0.5) * cell.height);
      for (const [i, src] of row.images.entries()) {
        const image = new Image();
        image.src = src;
        await image.decode();
        g.drawImage(image, left + i * cell.width, top + r * cell.height, cell.width, cell.height);
      }
    }
    return out.toDataURL('image/png');
  },
};
