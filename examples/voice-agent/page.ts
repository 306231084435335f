// Voice-agent quick start, the page: an avatar speaking a streaming TTS. `?mode=sdk` (default):
// the page streams the TTS to the driving service itself; `?mode=host`: the server does, and
// relays audio and animation here. See docs/quickstart-voice-agent.md.

import { RelayClient } from '@avatar-drive/client-core';
import { AvatarManager, AvatarSDK, AvatarView, feedAudio } from '@avatar-drive/client-web';
import { tts } from './tts.mjs';

const params = new URLSearchParams(location.search);
const mode = params.get('mode') === 'host' ? 'host' : 'sdk';
const { sessionToken, appId, avatarId, region, consoleUrl, ingressUrl } = await (
  await fetch('/session-token', { method: 'POST' })
).json();

AvatarSDK.initialize(appId, {
  ...(consoleUrl ? { endpoints: { consoleUrl, ingressUrl }, backupRegion: null } : { region }),
  drivingServiceMode: mode,
  audioFormat: { channelCount: 1, sampleRate: 16000 },
});
AvatarSDK.setSessionToken(sessionToken); // loads the avatar; in SDK mode also opens the session
// `?low`: the options for low-end devices (and software rendering), about 2-3x less CPU per frame.
const lowEnd = params.has('low') ? { maxPixelRatio: 1, antialias: false, environmentLighting: false } : {};
const view = new AvatarView(await AvatarManager.load(avatarId), document.getElementById('avatar')!, lowEnd);
const controller = view.controller;

let speak: (text: string) => Promise<void>;
let stop: () => void;
if (mode === 'sdk') {
  let feed: ReturnType<typeof feedAudio> | undefined;
  speak = async (text) => {
    await controller.initializeAudioContext(); // in a click handler: browsers want a gesture
    if (controller.connectionState !== 'connected') await controller.start();
    feed?.stop();
    feed = feedAudio(controller, tts(text), { sampleRate: 24000 }); // any rate, float or s16
    await feed.done;
  };
  stop = () => {
    feed?.stop(); // stop streaming the TTS…
    controller.interrupt(); // …and what is already playing
  };
} else {
  const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/relay`);
  ws.binaryType = 'arraybuffer';
  const relay = new RelayClient(controller, { onError: (e) => console.error(e.code, e.message) });
  ws.onmessage = (event) => relay.receive(event.data);
  const open = new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
  speak = async (text) => {
    await controller.initializeAudioContext();
    await open;
    ws.send(JSON.stringify({ type: 'speak', text }));
  };
  stop = () => ws.send(JSON.stringify({ type: 'interrupt' }));
}

const input = document.getElementById('text') as HTMLInputElement;
document.getElementById('speak')!.onclick = () => void speak(input.value);
document.getElementById('stop')!.onclick = () => stop();
// For tests and the console: e.g. the microphone in SDK mode (any MediaStream works),
// quickstart.feedAudio(view.controller, await navigator.mediaDevices.getUserMedia({ audio: true }))
Object.assign(window, { quickstart: { mode, view, speak, stop, feedAudio } });
