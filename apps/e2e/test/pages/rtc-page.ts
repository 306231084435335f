/**
 * The RTC-mode test page: client-web in host mode with a small generated avatar, an AvatarPlayer
 * over a LiveKitProvider, and meters for what a user would perceive — the loudness of the avatar's
 * track (an AudioWorklet on the received track, in the test's own AudioContext: the SDK creates
 * none) and the jawOpen the view renders — plus every keyframe the avatar sent and the service
 * time the player renders at each page frame. All stamped with the wall clock
 * (`performance.timeOrigin + performance.now()`). Driven by the test through `window.rtc`.
 */
import { Avatar, type AvatarManifest, AvatarSDK, AvatarView } from '@avatar-drive/client-web';
import { ARKIT_INDEX, animationToDriveFrames, decodeFramePacket } from '@avatar-drive/core';
import { type RemoteAudioTrack, setLogLevel } from 'livekit-client';
import * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import {
  AvatarPlayer,
  type AvatarPlayerOptions,
  LiveKitProvider,
  type SyncStats,
} from '../../../../packages/rtc-player/src/index.js';

const wallNow = () => performance.timeOrigin + performance.now();

/** A sphere "head" with ARKit jawOpen and blink morph targets, exported to a .glb in memory. */
async function makeAvatar(): Promise<Avatar> {
  const geometry = new THREE.SphereGeometry(0.1, 24, 16);
  const base = geometry.attributes.position!;
  const target = (fn: (x: number, y: number, z: number) => [number, number, number]) => {
    const out = new Float32Array(base.count * 3);
    for (let i = 0; i < base.count; i++) out.set(fn(base.getX(i), base.getY(i), base.getZ(i)), i * 3);
    return new THREE.Float32BufferAttribute(out, 3);
  };
  geometry.morphAttributes.position = [
    target((_x, y, z) => (y < -0.02 && z > 0 ? [0, -0.05, 0] : [0, 0, 0])),
    target((_x, y, z) => (y > 0.03 && z > 0 ? [0, -0.01, 0] : [0, 0, 0])),
    target((_x, y, z) => (y > 0.03 && z > 0 ? [0, -0.01, 0] : [0, 0, 0])),
  ];
  geometry.morphTargetsRelative = true;
  const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: 0xd9a58a }));
  mesh.name = 'Head';
  mesh.updateMorphTargets();
  mesh.morphTargetDictionary = { jawOpen: 0, eyeBlinkLeft: 1, eyeBlinkRight: 2 };
  const scene = new THREE.Scene();
  scene.add(mesh);
  const glb = (await new GLTFExporter().parseAsync(scene, { binary: true })) as ArrayBuffer;
  const manifest: AvatarManifest = {
    id: 'rtc-test-head',
    name: 'RTC test head',
    rig: 'arkit-52',
    assets: [{ kind: 'model', name: 'head.glb', url: 'head.glb', size: glb.byteLength }],
  };
  return new Avatar(manifest, new Map([['head.glb', glb]]), 0);
}

/** One keyframe as it arrived in a frame packet. */
interface ReceivedFrame {
  reqId: string;
  index: number;
  /** Service clock: when the frame's first audio sample left the avatar's source. */
  playAtMs: number;
  arrivalMs: number;
  jawOpen: number;
}

interface StartOptions {
  url: string;
  token: string;
  roomName: string;
  player?: AvatarPlayerOptions;
  /** Transitions of the view's own mixer (0 measures the player's alignment without fades). */
  viewTransitions?: number;
  /** livekit-client debug logging. */
  debug?: boolean;
}

const audio: Array<[number, number]> = [];
const jaw: Array<[number, number]> = [];
/** [local time, service time being rendered] per animation frame of the page. */
const shown: Array<[number, number]> = [];
const events: string[] = [];
/** Keyframes received, by `reqId/index` (the last copy wins, as in the player). */
const received = new Map<string, ReceivedFrame>();
const syncLog: Array<SyncStats & { atMs: number }> = [];
let player: AvatarPlayer | undefined;
let view: AvatarView | undefined;
let provider: LiveKitProvider | undefined;
let audioContext: AudioContext | undefined;
let meterModule: Promise<void> | undefined;

/**
 * Loudness (RMS) of the received track per ~5 ms, measured in an AudioWorklet and stamped on the audio
 * clock (mapped to the wall clock with getOutputTimestamp), so a busy main thread cannot smear it.
 */
const METER_WORKLET = `
class Meter extends AudioWorkletProcessor {
  constructor() { super(); this.sum = 0; this.n = 0; this.start = 0; }
  // 256 samples (5.3 ms at 48 kHz) per block: fine enough to place energy inside a 40 ms frame.
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (this.n === 0) this.start = currentTime;
    if (ch) for (let i = 0; i < ch.length; i++) this.sum += ch[i] * ch[i];
    this.n += 128;
    if (this.n >= 256) {
      this.port.postMessage([this.start, Math.sqrt(this.sum / this.n)]);
      this.sum = 0; this.n = 0;
    }
    return true;
  }
}
registerProcessor('avatar-drive-meter', Meter);
`;

async function meterAudio(track: MediaStreamTrack): Promise<void> {
  audioContext ??= new AudioContext();
  const context = audioContext;
  await context.resume();
  // Once per context: registering the processor a second time (a new avatar track) would throw.
  meterModule ??= context.audioWorklet.addModule(
    URL.createObjectURL(new Blob([METER_WORKLET], { type: 'text/javascript' })),
  );
  await meterModule;
  const source = context.createMediaStreamSource(new MediaStream([track]));
  const meter = new AudioWorkletNode(context, 'avatar-drive-meter');
  source.connect(meter).connect(context.destination); // the meter outputs silence
  meter.port.onmessage = (event: MessageEvent<[number, number]>) => {
    const [contextTime, rms] = event.data;
    const ts = context.getOutputTimestamp();
    if (ts.contextTime === undefined || ts.performanceTime === undefined) return;
    audio.push([performance.timeOrigin + ts.performanceTime + (contextTime - ts.contextTime) * 1000, rms]);
  };
}

function meterJaw(): void {
  const index = ARKIT_INDEX.jawOpen;
  const tick = () => {
    if (!view) return;
    const frame = view.lastFrame;
    const now = wallNow();
    if (frame) jaw.push([now, frame.expression[index]!]);
    // The service time the player renders now: where each keyframe's playAtMs was actually shown.
    const serviceTime = player?.getSyncStats().serviceTimeMs;
    if (serviceTime !== undefined) shown.push([now, serviceTime]);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

const api = {
  async start(options: StartOptions): Promise<void> {
    if (options.debug) setLogLevel('debug');
    if (!AvatarSDK.isInitialized) {
      AvatarSDK.initialize('app-rtc-e2e', {
        drivingServiceMode: 'host',
        audioFormat: { channelCount: 1, sampleRate: 24000 },
        region: 'us-west', // unused in host mode: the service is reached by the developer's server
        logLevel: 'warn',
      });
    }
    const container = document.getElementById('view')!;
    const t = options.viewTransitions;
    view = new AvatarView(await makeAvatar(), container, {
      ...(t !== undefined && { transitionInFrames: t, transitionOutFrames: t }),
      idleMotion: false,
      environmentLighting: false, // swiftshader: keeps the main thread free for WebRTC
      maxPixelRatio: 1,
    });
    await view.ready;
    provider = new LiveKitProvider();
    player = new AvatarPlayer(provider, view, options.player);
    for (const name of ['connected', 'disconnected', 'stalled', 'recovered'] as const) {
      player.on(name, () => events.push(`${name}@${Math.round(wallNow())}`));
    }
    player.on('error', (e) => events.push(`error:${e.code}:${e.message}`));
    // What the avatar sent, as sent (the view shows it through the player).
    provider.on('framePacket', (bytes, arrivalMs) => {
      const packet = decodeFramePacket(bytes);
      const reqId = packet.animation.reqId;
      for (const [j, frame] of animationToDriveFrames(packet.animation, packet.firstFrameIndex).entries()) {
        const playAtMs = packet.playAtMs[j]!;
        received.set(`${reqId}/${frame.index}`, {
          reqId,
          index: frame.index,
          playAtMs,
          arrivalMs,
          jawOpen: frame.expression[ARKIT_INDEX.jawOpen]!,
        });
      }
    });
    provider.on('avatarAudio', (receiver) => {
      events.push(receiver ? `avatarAudio:${receiver.participantId}` : 'avatarAudio:gone');
      if (!receiver) return;
      const participant = provider!.room?.remoteParticipants.get(receiver.participantId);
      for (const pub of participant?.audioTrackPublications.values() ?? []) {
        const track = pub.track as RemoteAudioTrack | undefined;
        if (track) void meterAudio(track.mediaStreamTrack);
      }
    });
    setInterval(() => player && syncLog.push({ ...player.getSyncStats(), atMs: wallNow() }), 250);
    meterJaw();
    await player.connect({ url: options.url, token: options.token, roomName: options.roomName });
  },

  /** Everything measured since `sinceMs` (wall clock). */
  read(sinceMs = 0) {
    return {
      audio: audio.filter(([t]) => t >= sinceMs),
      jaw: jaw.filter(([t]) => t >= sinceMs),
      shown: shown.filter(([t]) => t >= sinceMs),
      frames: [...received.values()].filter((f) => f.arrivalMs >= sinceMs),
      events: [...events],
      /** The player's alignment figures every 250 ms since `sinceMs` (at least the last 4). */
      sync: syncLog.filter((x, i) => x.atMs >= sinceMs || i >= syncLog.length - 4),
      state: player?.getConnectionState(),
      subscribed: [...(provider?.room?.remoteParticipants.values() ?? [])].flatMap((p) =>
        [...p.trackPublications.values()]
          .filter((pub) => pub.isSubscribed)
          .map((pub) => `${p.identity}/${pub.trackName}`),
      ),
      audioElements: document.querySelectorAll('audio').length,
      now: wallNow(),
    };
  },

  /** Connects a second, separate provider and reports how it went (error code or 'connected'). */
  async tryConnect(config: { url: string; token: string; roomName?: string }): Promise<string> {
    const other = new LiveKitProvider();
    try {
      await other.connect(config as never);
      const state = other.getConnectionState();
      await other.disconnect();
      return `${state}->${other.getConnectionState()}`;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  },

  /** Whether the player is connected (its `isConnected`). */
  isConnected(): boolean {
    return player?.isConnected ?? false;
  },

  /** Starts the user's microphone through the player (Chromium's fake capture device). */
  async startMicrophone(): Promise<void> {
    await player!.startPublishing();
  },

  async stopMicrophone(): Promise<void> {
    await player!.stopPublishing();
  },

  /**
   * A second player (on its own provider; the view is only its frame-source hook) read through
   * its life: `isConnected` before connect, once connected, and after disconnect.
   */
  async isConnectedThroughLife(config: { url: string; token: string; roomName: string }): Promise<boolean[]> {
    const other = new AvatarPlayer(new LiveKitProvider(), { setFrameSource: () => undefined } as never);
    try {
      const seen = [other.isConnected];
      await other.connect(config);
      seen.push(other.isConnected);
      await other.disconnect();
      seen.push(other.isConnected);
      return seen;
    } finally {
      await other.dispose();
    }
  },

  /** Publishes a 440 Hz tone as the user's audio through the player (publishAudio). */
  async publishTone(): Promise<void> {
    audioContext ??= new AudioContext();
    const oscillator = audioContext.createOscillator();
    const destination = audioContext.createMediaStreamDestination();
    oscillator.connect(destination);
    oscillator.start();
    await player!.publishAudio(destination.stream.getAudioTracks()[0]!);
  },

  async unpublish(): Promise<void> {
    await player!.unpublishAudio();
  },

  async reconnect(): Promise<string> {
    await player!.reconnect();
    return player!.getConnectionState();
  },

  async stop(): Promise<void> {
    await player?.dispose();
    await audioContext?.close();
  },
};

(window as unknown as { rtc: typeof api }).rtc = api;
document.title = 'rtc-ready';
