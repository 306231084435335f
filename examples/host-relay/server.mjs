// Host-mode relay server: per browser WebSocket, an AvatarSession opened on demand, its relay
// stream forwarded in order. Binary frames are relay messages (client-web's yieldAudioData / yieldFramesData), text
// frames are control messages (interrupt, pause, resume, end); RelayClient in the browser routes both.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { AvatarSession, createSessionToken } from '@avatar-drive/server-sdk';
import { WebSocketServer } from 'ws';

const env = process.env;
const RATE = 16000;
const where = { region: env.AVATAR_DRIVE_REGION, consoleUrl: env.AVATAR_DRIVE_CONSOLE_URL };

// What the avatar says: your TTS stream in real life; here a WAV file (SPEECH_WAV), else a sentence
// from espeak-ng. (Not a tone: the engine reads a steady hum as background, and the mouth stays shut.)
function speech() {
  const wav = env.SPEECH_WAV
    ? readFileSync(env.SPEECH_WAV)
    : execFileSync('espeak-ng', ['--stdout', 'Hello! I am speaking through your relay server.']);
  return wavToSendablePcm(parseWav(new Uint8Array(wav)), RATE).samples;
}

function parseCommand(data) {
  try {
    return JSON.parse(String(data)); // {"type": "speak"} or {"type": "interrupt"}
  } catch {
    return {};
  }
}

// The browser loads the avatar's assets with a session token of its own; the API key stays here.
const server = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/session-token') return res.writeHead(404).end();
  const sessionToken = await createSessionToken({
    apiKey: env.AVATAR_DRIVE_API_KEY,
    ...where,
    ttlSeconds: 300,
  });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ sessionToken, appId: env.AVATAR_DRIVE_APP_ID, avatarId: env.AVATAR_ID }));
});

// One relay WebSocket per browser; it stays open while AvatarSessions come and go behind it. A
// session is opened on demand at a "speak" (and again after the service ended the last one, e.g.
// after its idle timeout), so the browser never needs to reconnect.
new WebSocketServer({ server, path: '/relay' }).on('connection', (ws) => {
  let current; // { session, started } of the live session, if any
  let turn = 0; // bumped by every speak and interrupt: a running speech loop stops when it changes

  function liveSession() {
    const state = current?.session.state;
    if (current && state !== 'closing' && state !== 'closed') return current.started;
    const session = new AvatarSession({
      avatarId: env.AVATAR_ID,
      appId: env.AVATAR_DRIVE_APP_ID,
      apiKey: env.AVATAR_DRIVE_API_KEY,
      ...where,
      ingressUrl: env.AVATAR_DRIVE_INGRESS_URL,
      sampleRate: RATE,
      onError: (error) => console.error(`[host-relay] ${error.code}: ${error.message}`),
    });
    const relay = session.relay(); // before start(): a failed start reaches the browser as `end`
    current = { session, started: session.start().then(() => session) };
    void (async () => {
      for await (const event of relay) if (ws.readyState === ws.OPEN) ws.send(event.data); // in order
    })();
    return current.started;
  }

  ws.on('close', () => current?.session.close());
  ws.on('message', async (data) => {
    const command = parseCommand(data);
    if (command.type === 'interrupt') {
      turn += 1; // cancel the speech loop, as a voice agent cancels its TTS on a barge-in
      if (current?.session.state === 'connected') current.session.interrupt();
      return;
    }
    if (command.type !== 'speak') return;
    const myTurn = ++turn;
    let session;
    try {
      session = await liveSession();
    } catch {
      return; // reported by onError, and to the browser as the relay's `end` control
    }
    if (myTurn !== turn) return;
    session.startTurn(); // a new reply: never dropped because the previous one was interrupted
    const pcm = speech();
    for (let i = 0; i < pcm.length; i += RATE / 10) {
      if (myTurn !== turn || session.state !== 'connected') return;
      session.sendAudio(pcm.subarray(i, i + RATE / 10), i + RATE / 10 >= pcm.length); // 100 ms chunks
      await new Promise((r) => setTimeout(r, 100)); // in real time, like a TTS stream
    }
  });
});

const host = env.HOST ?? '127.0.0.1';
server.listen(Number(env.PORT ?? 8788), host, () => {
  console.log(`host-relay listening on ws://${host}:${server.address().port}/relay`);
});
