/**
 * The Avatar Drive demo page: pick an avatar, choose SDK or Host mode, make it speak, and watch
 * the connection, the conversation, the events and the audio-to-animation sync live.
 */
import './style.css';
import { RelayClient } from '@avatar-drive/client-core';
import {
  type Avatar,
  AvatarError,
  AvatarManager,
  AvatarSDK,
  AvatarView,
  type ConnectionState,
  type ConversationState,
  detectRenderer,
  LOW_END_VIEW_OPTIONS,
} from '@avatar-drive/client-web';
import { ARKIT_INDEX, createDriveFrame, type DriveFrame, VISEME_INDEX } from '@avatar-drive/core';
import {
  decodeFile,
  listSamples,
  loadSample,
  type MicCapture,
  SAMPLE_RATE,
  type Sample,
  startMicrophone,
} from './audio-input.js';
import {
  type AvatarSummary,
  type DemoConfig,
  diagnoseToken,
  fetchSessionToken,
  listAvatars,
  loadConfig,
  regionMap,
  uploadAvatar,
} from './backend.js';
import { EventLog } from './event-log.js';
import type { DemoHook, Mode } from './hook.js';

/**
 * The avatar the page starts with when `?avatar=` names none: Noa, the built-in made from a
 * human-modelled CC0 mesh with hand-sculpted ARKit shapes (the service lists avatars by id, so
 * the first in its list would be a procedural one).
 */
const DEFAULT_AVATAR = 'noa';

declare global {
  interface Window {
    __demo: DemoHook;
  }
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const log = new EventLog($<HTMLOListElement>('log'));
// Without a GPU (a VM, a remote desktop) the browser rasterises WebGL on the CPU, where the
// full-quality view shows 0.3–1 frames a second; the low-end set is 7–9× cheaper per frame.
const renderer = detectRenderer();
const lowEndParam = new URLSearchParams(location.search).get('lowEnd');
const hook: DemoHook = {
  mode: 'sdk',
  avatarId: undefined,
  connectionStates: [],
  timeline: [],
  conversationStates: [],
  errors: [],
  level: 0,
  peakLevel: 0,
  levelAt: undefined,
  levelWindowS: 0,
  audioState: undefined,
  levelReadS: undefined,
  frames: 0,
  lastInterrupt: undefined,
  jawOpen: 0,
  peakJaw: 0,
  syncOffsetMs: undefined,
  downloadedBytes: undefined,
  firstRendering: false,
  localReady: false,
  region: undefined,
  coverage: undefined,
  rendering: {
    renderer: renderer.renderer,
    software: renderer.software,
    lowEnd: lowEndParam === null ? renderer.software : lowEndParam === '1',
  },
  firstFrameMs: undefined,
  uploadedAvatarId: undefined,
  splatCount: undefined,
  resetPeak() {
    hook.peakLevel = 0;
    hook.peakJaw = 0;
  },
  holdMouth(open) {
    if (!view) return false;
    if (open === undefined) view.setFrameSource(undefined);
    else view.applyFrame(mouthFrame(open));
    return true;
  },
};
window.__demo = hook;

/** A speech frame with only the mouth open by `open` (see `DemoHook.holdMouth`). */
function mouthFrame(open: number): DriveFrame {
  const frame = createDriveFrame(0);
  frame.visemes[VISEME_INDEX.aa] = open;
  frame.expression[ARKIT_INDEX.jawOpen] = open;
  return frame;
}

let config: DemoConfig;
let avatars: AvatarSummary[] = [];
let samples: Sample[] = [];
let view: AvatarView | undefined;
let avatar: Avatar | undefined;
let analyser: AnalyserNode | undefined;
let relaySocket: WebSocket | undefined;
let mic: MicCapture | undefined;
let setupRun = 0;
let connecting: Promise<boolean> | undefined;

// ---------------------------------------------------------------------------------------------
// State display

function setConnection(state: string) {
  $('connection-state').textContent = state;
  $('connection-pill').dataset.state = state;
  if (hook.connectionStates.at(-1) !== state) hook.connectionStates.push(state);
}

function setConversation(state: ConversationState) {
  $('conversation-state').textContent = state;
  $('conversation-pill').dataset.state = state;
  $('pause').textContent = state === 'paused' ? '▶ Resume' : '❚❚ Pause';
  $('pause').setAttribute('aria-pressed', String(state === 'paused'));
  if (hook.conversationStates.at(-1) !== state) {
    hook.conversationStates.push(state);
    log.add('state', `conversation → ${state}`);
  }
}

function record(entry: string) {
  if (hook.timeline.at(-1) !== entry) hook.timeline.push(entry);
}

function setRegion(region: string | undefined) {
  hook.region = region;
  $('region').textContent = region ?? '—';
}

function showError(code: string, message: string) {
  hook.errors.push({ code, message });
  $('error-code').textContent = code;
  $('error-message').textContent = message;
  $('error-banner').hidden = false;
  log.add('error', `${code}: ${message}`);
}

function clearError() {
  $('error-banner').hidden = true;
}

function reportError(error: unknown) {
  if (error instanceof AvatarError) showError(error.code, error.message);
  else showError('error', error instanceof Error ? error.message : String(error));
}

// ---------------------------------------------------------------------------------------------
// Avatar and mode

const FORMAT_NAMES: Record<string, string> = {
  vrm1: 'VRM 1.0',
  vrm0: 'VRM 0.x',
  'arkit+oculus-visemes': 'ARKit + Oculus visemes (Ready Player Me / Avaturn)',
  arkit: 'ARKit glTF',
  'oculus-visemes': 'Oculus visemes',
  vowels: 'vowel morphs',
  unrigged: 'no face rig',
};

/** Shows (and logs once) what bound on the loaded avatar: `view.avatarCoverage`. */
function showCoverage(current: AvatarView) {
  const coverage = current.avatarCoverage;
  if (!coverage) return;
  const { visemes, arkit } = coverage.counts;
  hook.coverage = {
    format: coverage.format,
    mouth: coverage.mouth,
    visemes: visemes.bound,
    arkit: arkit.bound,
    missing: coverage.missing,
  };
  // Only the counts of the rig family that drives the mouth: "0/15 visemes" on an ARKit avatar is
  // expected, not a failure, and read like one.
  const mouth =
    coverage.mouth === 'arkit'
      ? `${arkit.bound}/${arkit.total} ARKit shapes`
      : coverage.mouth === 'visemes'
        ? `${visemes.bound}/${visemes.total} visemes`
        : coverage.mouth === 'vowels'
          ? 'its vowel presets'
          : 'nothing (no face rig)';
  hook.splatCount = current.splatCount;
  const format = FORMAT_NAMES[coverage.format] ?? coverage.format;
  const parts = [
    current.splatCount === undefined
      ? format
      : `LAM Gaussian splats (${current.splatCount.toLocaleString('en')}, ${format} skin)`,
    `mouth driven by ${mouth}`,
  ];
  if (coverage.fallbacks.length > 0)
    parts.push(`${coverage.fallbacks.length} more channels shown through others`);
  parts.push(
    coverage.missing.length === 0
      ? 'every channel shown'
      : `${coverage.missing.length} channels not on this avatar`,
  );
  const text = parts.join(' · ');
  $('coverage').textContent = text;
  $('coverage').title = coverage.missing.length
    ? `Missing: ${coverage.missing.join(', ')}`
    : 'Nothing missing';
  log.add(coverage.mouth === 'none' ? 'error' : 'info', `coverage: ${text}`);
}

/** Uploads the visitor's file through the demo server (which holds the API key), then shows it. */
async function uploadOwnAvatar(file: File) {
  clearError();
  log.add('info', `uploading ${file.name} (${kb(file.size)})…`);
  $('coverage').textContent = `Uploading ${file.name}…`;
  try {
    const { avatar: uploaded } = await uploadAvatar(file);
    hook.uploadedAvatarId = uploaded.id;
    avatars = [...avatars.filter((a) => a.id !== uploaded.id), { id: uploaded.id, name: uploaded.name }];
    renderAvatarChips();
    log.add('info', `uploaded as avatar ${uploaded.id}`);
    hook.avatarId = uploaded.id;
    await setup();
  } catch (error) {
    $('coverage').textContent = 'The file was refused.';
    const code = (error as { code?: string }).code ?? 'uploadFailed';
    showError(code, error instanceof Error ? error.message : String(error));
  }
}

function renderAvatarChips() {
  const list = $('avatar-list');
  list.replaceChildren(
    ...avatars.map((a) => {
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = 'chip';
      chip.dataset.avatar = a.id;
      chip.dataset.testid = `avatar-${a.id}`;
      chip.textContent = a.name ?? a.id;
      chip.addEventListener('click', () => {
        if (hook.avatarId === a.id) return;
        hook.avatarId = a.id;
        void setup();
      });
      return chip;
    }),
  );
}

function renderSelection() {
  for (const chip of $('avatar-list').querySelectorAll<HTMLElement>('[data-avatar]')) {
    chip.setAttribute('aria-pressed', String(chip.dataset.avatar === hook.avatarId));
  }
  for (const button of document.querySelectorAll<HTMLElement>('[data-mode]')) {
    button.setAttribute('aria-pressed', String(button.dataset.mode === hook.mode));
  }
  $('sdk-sources').hidden = hook.mode === 'host';
  $('host-sources').hidden = hook.mode !== 'host';
  $('mode-hint').textContent = MODE_HINTS[hook.mode];
  const url = new URL(location.href);
  url.searchParams.set('mode', hook.mode);
  if (hook.avatarId) url.searchParams.set('avatar', hook.avatarId);
  history.replaceState(null, '', url);
}

const MODE_HINTS: Record<Mode, string> = {
  sdk: 'The page streams 16 kHz PCM to the driving service over its WebSocket (token from the token server) and plays the animation that comes back.',
  host: 'Your server talks to the service (server-sdk) and relays audio + animation to the page; the page never connects to the service.',
  local:
    'The engine runs in this page, in a Worker: no service, no token, no network once the avatar, the samples and the engine are loaded. Same frames as the service.',
};

function teardown() {
  mic?.stop();
  mic = undefined;
  relaySocket?.close();
  relaySocket = undefined;
  analyser = undefined;
  view?.dispose();
  view = undefined;
  connecting = undefined;
  AvatarSDK.reset();
}

/** (Re)creates the SDK, loads the avatar and its view for the current mode and avatar. */
async function setup() {
  const run = ++setupRun;
  teardown();
  renderSelection();
  clearError();
  setConnection(hook.mode === 'host' ? 'relay: closed' : 'disconnected');
  setConversation('idle');
  setRegion(undefined);
  hook.firstRendering = false;
  hook.splatCount = undefined;
  hook.localReady = false;
  hook.timeline = [];
  const id = hook.avatarId;
  if (!id) return;
  AvatarSDK.initialize(config.appId, {
    region: config.primaryRegion,
    backupRegion: config.backupRegion,
    regions: regionMap(config),
    drivingServiceMode: hook.mode,
    audioFormat: { channelCount: 1, sampleRate: SAMPLE_RATE },
    logLevel: 'warn',
  });
  $('loader').hidden = false;
  $('loader').classList.remove('done');
  $('loader-text').textContent = `Loading ${avatars.find((a) => a.id === id)?.name ?? id}…`;
  $('progress-bar').style.width = '0%';
  const started = performance.now();
  try {
    avatar = await AvatarManager.load(id, ({ progress, loadedBytes, totalBytes }) => {
      if (run !== setupRun) return;
      $('progress-bar').style.width = `${Math.round(progress * 100)}%`;
      $('loader-text').textContent = `Loading… ${kb(loadedBytes)} / ${kb(totalBytes)}`;
    });
  } catch (error) {
    if (run === setupRun) {
      $('loader-text').textContent = 'Could not load the avatar.';
      reportError(error);
    }
    return;
  }
  if (run !== setupRun) return;
  hook.downloadedBytes = avatar.downloadedBytes;
  log.add(
    'info',
    `avatar ${id} loaded in ${Math.round(performance.now() - started)} ms (${
      avatar.downloadedBytes === 0 ? 'from the asset cache' : `${kb(avatar.downloadedBytes)} downloaded`
    })`,
  );
  // `?capture=1` keeps the last rendered frame readable (tests read the mouth from the canvas at
  // the instant the jaw is open; a screenshot takes too long to catch a syllable).
  const capture = new URLSearchParams(location.search).get('capture') === '1';
  const current = new AvatarView(avatar, $('avatar'), {
    // Copied there by the build (scripts/copy-transcoder.mjs), for uploads with KTX2 textures.
    ktx2TranscoderPath: '/basis/',
    ...(hook.rendering.lowEnd ? LOW_END_VIEW_OPTIONS : {}),
    ...(capture ? { preserveDrawingBuffer: true } : {}),
  });
  view = current;
  current.onFirstRendering = () => {
    hook.firstRendering = true;
    hook.firstFrameMs ??= Math.round(performance.now());
    $('loader').classList.add('done');
    log.add('info', 'first frame rendered');
  };
  current.ready.then(() => {
    if (view === current) showCoverage(current);
  }, reportError);
  const controller = current.controller;
  controller.setVolume(Number($<HTMLInputElement>('volume').value));
  controller.onConnectionState = (state: ConnectionState) => {
    if (view !== current) return;
    record(`connection:${state}`);
    setConnection(state);
    log.add('state', `connection → ${state}`);
    if (state === 'connected' && hook.mode === 'sdk') setRegion(controller.session?.endpoint.region);
  };
  controller.onConversationState = (state) => {
    if (view !== current) return;
    record(`conversation:${state}`);
    setConversation(state);
  };
  controller.onError = (error) => {
    if (view === current) reportError(error);
  };
  if (hook.mode === 'host') openRelay(current);
  if (hook.mode === 'local') void prepareLocal(current);
}

/**
 * Local mode: starts the engine (its chunk and Worker) and fetches the samples now, so that
 * speaking makes no network request. The connection pill follows the engine: connecting while
 * it loads, connected once it takes audio.
 */
async function prepareLocal(current: AvatarView) {
  setRegion('this page');
  try {
    await Promise.all([ensureConnected(current), ...samples.map((sample) => loadSample(sample))]);
  } catch (error) {
    if (view === current) reportError(error);
    return;
  }
  if (view !== current) return;
  hook.localReady = current.controller.connectionState === 'connected';
  if (hook.localReady) log.add('info', 'engine ready in a Worker; samples loaded: speaking needs no network');
}

// ---------------------------------------------------------------------------------------------
// Audio output: level meter, mouth and sync readout

async function ensureAudio(current: AvatarView) {
  await current.controller.initializeAudioContext();
  const node = current.controller.outputNode;
  if (node && !analyser) {
    analyser = node.context.createAnalyser();
    analyser.fftSize = 1024;
    node.connect(analyser);
  }
}

const levelBuffer = new Float32Array(1024);
let smoothedOffset: number | undefined;

/** The output level, stamped with the audio clock (see `DemoHook.levelAt`). */
function readLevel() {
  let rms = 0;
  hook.audioState = analyser?.context.state;
  hook.levelReadS = performance.now() / 1000;
  // A suspended context outputs nothing (the analyser would keep showing its last buffer).
  if (analyser && analyser.context.state === 'running') {
    analyser.getFloatTimeDomainData(levelBuffer);
    let sum = 0;
    for (const v of levelBuffer) sum += v * v;
    rms = Math.sqrt(sum / levelBuffer.length);
    hook.levelAt = analyser.context.currentTime;
    hook.levelWindowS = levelBuffer.length / analyser.context.sampleRate;
  }
  hook.level = rms;
  hook.peakLevel = Math.max(hook.peakLevel, rms);
}

function meterLoop() {
  hook.frames += 1;
  readLevel();
  $('meter-fill').style.transform = `scaleX(${Math.min(1, hook.level * 4).toFixed(3)})`;
  hook.jawOpen = view?.getMorphInfluence('jawOpen') ?? 0;
  hook.peakJaw = Math.max(hook.peakJaw, hook.jawOpen);
  const sync = view?.controller.getSyncStats();
  if (sync?.offsetMs !== undefined) {
    smoothedOffset =
      smoothedOffset === undefined ? sync.offsetMs : smoothedOffset * 0.9 + sync.offsetMs * 0.1;
    hook.syncOffsetMs = sync.offsetMs;
    $('latency-value').textContent = `${smoothedOffset >= 0 ? '+' : ''}${smoothedOffset.toFixed(1)} ms`;
    $('latency-detail').textContent =
      `animation ${Math.max(0, sync.bufferedAheadMs ?? 0).toFixed(0)} ms ahead · output latency ${sync.outputLatencyMs.toFixed(0)} ms · stalls ${sync.stalls}`;
    $('latency').dataset.live = 'true';
  } else {
    smoothedOffset = undefined;
    if ($('latency').dataset.live !== 'false') {
      $('latency').dataset.live = 'false';
      $('latency-value').textContent = '—';
      $('latency-detail').textContent = 'while speaking';
    }
  }
  requestAnimationFrame(meterLoop);
}

// ---------------------------------------------------------------------------------------------
// SDK mode

/** Connects with a fresh token unless connected; reports and explains a refusal. */
function ensureConnected(current: AvatarView): Promise<boolean> {
  const controller = current.controller;
  if (controller.connectionState === 'connected') return Promise.resolve(true);
  if (connecting) return connecting;
  connecting = (async () => {
    if (hook.mode === 'local') {
      try {
        await controller.start(); // the engine: no token, no network (its chunk is preloaded)
        return true;
      } catch {
        return false; // reported through onError
      }
    }
    let token: string;
    try {
      token = await fetchSessionToken(config);
    } catch (error) {
      reportError(error);
      return false;
    }
    if (view !== current) return false;
    AvatarSDK.setSessionToken(token);
    try {
      await controller.start();
      return true;
    } catch (error) {
      if (error instanceof AvatarError && error.code === 'connectionFailed' && hook.avatarId) {
        const why = await diagnoseToken(config, hook.avatarId, token);
        if (why) showError(why.code, why.message);
      }
      return false;
    }
  })().finally(() => {
    connecting = undefined;
  });
  return connecting;
}

/** Sends one utterance (the whole clip, in 200 ms chunks, then the end marker). */
async function speak(pcm: Int16Array, label: string) {
  const current = view;
  if (!current || hook.mode === 'host') return;
  clearError();
  await ensureAudio(current);
  if (!(await ensureConnected(current)) || view !== current) return;
  log.add('audio', `speaking ${label} (${(pcm.length / SAMPLE_RATE).toFixed(1)} s)`);
  const step = SAMPLE_RATE / 5;
  try {
    for (let i = 0; i < pcm.length; i += step) current.controller.send(pcm.subarray(i, i + step));
    current.controller.send(new Int16Array(0), true);
  } catch (error) {
    reportError(error);
  }
}

async function toggleMicrophone() {
  const button = $('mic-button');
  if (mic) {
    mic.stop();
    mic = undefined;
    button.classList.remove('live');
    button.textContent = '◉ Microphone';
    log.add('audio', 'microphone off');
    return;
  }
  const current = view;
  if (!current) return;
  clearError();
  await ensureAudio(current);
  if (!(await ensureConnected(current)) || view !== current) return;
  try {
    mic = await startMicrophone((pcm, last) => {
      if (view !== current) return;
      try {
        if (pcm.length || last) current.controller.send(pcm, last);
      } catch (error) {
        reportError(error);
      }
    });
  } catch (error) {
    showError(
      'microphone',
      `The microphone could not be opened (${(error as Error).message}). Allow access and retry.`,
    );
    return;
  }
  button.classList.add('live');
  button.textContent = '■ Stop microphone';
  log.add('audio', `microphone on (${mic.sourceRate} Hz → ${SAMPLE_RATE} Hz)`);
}

// ---------------------------------------------------------------------------------------------
// Host mode: the example relay server holds the session and forwards its relay stream.

function openRelay(current: AvatarView) {
  const ws = new WebSocket(config.relayUrl);
  relaySocket = ws;
  ws.binaryType = 'arraybuffer';
  const relay = new RelayClient(current.controller, {
    onError: reportError,
    onEnd: (reason) => log.add('info', `driving session ended (${reason}); the next speak opens a new one`),
    onControl: (control) => log.add('info', `relay control: ${JSON.stringify(control)}`),
  });
  setConnection('relay: connecting');
  ws.onopen = () => {
    if (relaySocket !== ws) return;
    setConnection('relay: open');
    log.add('state', `relay → open (${config.relayUrl})`);
  };
  ws.onmessage = (event) => relay.receive(event.data as ArrayBuffer | string);
  ws.onclose = (event) => {
    if (relaySocket !== ws) return;
    setConnection('relay: closed');
    log.add('state', `relay → closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`);
  };
}

/** The open relay WebSocket, reopening it when it closed; undefined when it cannot be reached. */
function relayOpen(current: AvatarView): Promise<WebSocket | undefined> {
  if (relaySocket?.readyState !== WebSocket.OPEN && relaySocket?.readyState !== WebSocket.CONNECTING)
    openRelay(current);
  const ws = relaySocket!;
  if (ws.readyState === WebSocket.OPEN) return Promise.resolve(ws);
  return new Promise((resolve) => {
    ws.addEventListener('open', () => resolve(ws), { once: true });
    ws.addEventListener('close', () => resolve(undefined), { once: true });
  });
}

async function relaySpeak() {
  const current = view;
  if (!current || hook.mode !== 'host') return;
  clearError();
  await ensureAudio(current);
  // The relay server opens a driving session on demand; its WebSocket is reopened here if it
  // closed (e.g. the relay server restarted), so each click either speaks or says why not.
  const ws = await relayOpen(current);
  if (view !== current) return;
  if (!ws) {
    showError(
      'connectionFailed',
      `Could not reach the relay server at ${config.relayUrl}. Is \`pnpm start\` running? Click again to retry.`,
    );
    return;
  }
  ws.send(JSON.stringify({ type: 'speak' }));
  log.add('audio', 'asked the relay server to speak');
}

// ---------------------------------------------------------------------------------------------
// Wiring

function kb(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function renderSamples(samples: Sample[]) {
  $('samples').replaceChildren(
    ...samples.map((sample) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sample';
      button.dataset.testid = `sample-${sample.id}`;
      button.dataset.sample = sample.id;
      const play = document.createElement('span');
      play.className = 'sample-play';
      play.textContent = '▶';
      const text = document.createElement('span');
      text.textContent = sample.text;
      button.append(play, text);
      button.addEventListener('click', async () => {
        try {
          await speak(await loadSample(sample), `“${sample.text.slice(0, 32)}…”`);
        } catch (error) {
          reportError(error);
        }
      });
      return button;
    }),
  );
}

function wire() {
  for (const button of document.querySelectorAll<HTMLElement>('[data-mode]')) {
    button.addEventListener('click', () => {
      const mode = button.dataset.mode as Mode;
      if (mode === hook.mode) return;
      hook.mode = mode;
      log.add('info', `mode → ${mode}`);
      void setup();
    });
  }
  $<HTMLInputElement>('file-input').addEventListener('change', async (event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    try {
      const { pcm, sourceRate, channels } = await decodeFile(file);
      log.add('audio', `decoded ${file.name}: ${channels} ch, ${sourceRate} Hz → mono ${SAMPLE_RATE} Hz s16`);
      await speak(pcm, file.name);
    } catch (error) {
      showError(
        'invalidAudio',
        `${file.name} could not be decoded (${(error as Error).message}). Try a WAV or MP3 file.`,
      );
    }
  });
  $('mic-button').addEventListener('click', () => void toggleMicrophone());
  $('relay-speak').addEventListener('click', () => void relaySpeak());
  $('interrupt').addEventListener('click', () => {
    if (!view) return;
    view.controller.interrupt();
    hook.lastInterrupt = { audioTime: analyser?.context.currentTime, frame: hook.frames };
    if (hook.mode === 'host' && relaySocket?.readyState === WebSocket.OPEN) {
      relaySocket.send(JSON.stringify({ type: 'interrupt' }));
    }
    log.add('info', 'interrupt');
  });
  $('pause').addEventListener('click', async () => {
    const controller = view?.controller;
    if (!controller) return;
    try {
      if (controller.conversationState === 'paused') await controller.resume();
      else if (controller.conversationState === 'playing') await controller.pause();
    } catch (error) {
      reportError(error);
    }
  });
  const volume = $<HTMLInputElement>('volume');
  volume.addEventListener('input', () => {
    const value = Number(volume.value);
    view?.controller.setVolume(value);
    $('volume-value').textContent = `${Math.round(value * 100)}%`;
    volume.style.setProperty('--fill', `${value * 100}%`);
  });
  $('error-close').addEventListener('click', clearError);
  const file = $<HTMLInputElement>('avatar-file');
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (chosen) void uploadOwnAvatar(chosen);
  });
  $('log-clear').addEventListener('click', () => log.clear());
  $<HTMLInputElement>('low-end').addEventListener('change', (event) => {
    hook.rendering.lowEnd = (event.target as HTMLInputElement).checked;
    showRendering();
    log.add('info', `low-end rendering ${hook.rendering.lowEnd ? 'on' : 'off'}`);
    void setup();
  });
}

/** The low-end toggle, and why it is on by default when it is. */
function showRendering() {
  const { software, lowEnd } = hook.rendering;
  $<HTMLInputElement>('low-end').checked = lowEnd;
  $('renderer-note').textContent = software ? 'software WebGL: no GPU' : '';
  $('rendering').title =
    `${renderer.renderer || 'WebGL renderer unknown'} · device pixel ratio 1, no anti-aliasing, no image-based lighting: 7–9× cheaper per frame without a GPU`;
}

async function main() {
  wire();
  showRendering();
  if (renderer.software) {
    log.add(
      'info',
      `software WebGL (${renderer.renderer}): low-end rendering ${hook.rendering.lowEnd ? 'on' : 'off (?lowEnd=0)'}`,
    );
  }
  requestAnimationFrame(meterLoop);
  try {
    config = await loadConfig();
    [samples, avatars] = await Promise.all([listSamples(), listAvatars(config)]);
    renderSamples(samples);
    renderAvatarChips();
  } catch (error) {
    $('loader-text').textContent = 'The demo backend is not reachable.';
    reportError(error);
    return;
  }
  const params = new URLSearchParams(location.search);
  const mode = params.get('mode');
  hook.mode = mode === 'host' || mode === 'local' ? mode : 'sdk';
  const wanted = params.get('avatar');
  hook.avatarId =
    avatars.find((a) => a.id === wanted)?.id ??
    avatars.find((a) => a.id === DEFAULT_AVATAR)?.id ??
    avatars[0]?.id;
  log.add('info', `app ${config.appId} · regions ${config.primaryRegion} (backup ${config.backupRegion})`);
  await setup();
}

void main();
