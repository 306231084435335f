// Host-mode relay server: one AvatarSession per browser WebSocket, its relay stream forwarded in
// order. Binary frames are relay messages (client-web's yieldAudioData / yieldFramesData), text
// frames are control messages (interrupt, pause, resume, end); RelayClient in the browser routes both.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { AvatarSession, createSessionToken } from '@avatar-drive/server-sdk';
import { WebSocketServer } from 'ws';

const env = process.env;
const RATE = 16000;
const where = { region: env.AVATAR_DRIVE_REGION, consoleUrl: env.AVATAR_DRIVE_CONSOLE_URL };

// What the avatar says: your TTS stream in real life; a WAV file or a hummed tone here.
function speech() {
  if (env.SPEECH_WAV) return wavToSendablePcm(parseWav(readFileSync(env.SPEECH_WAV)), RATE).samples;
  return Int16Array.from({ length: RATE * 2 }, (_, i) =>
    Math.round(6000 * Math.sin(i / 12) * Math.sin(i / 4000) ** 2),
  );
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

new WebSocketServer({ server, path: '/relay' }).on('connection', async (ws) => {
  const session = new AvatarSession({
    avatarId: env.AVATAR_ID,
    appId: env.AVATAR_DRIVE_APP_ID,
    apiKey: env.AVATAR_DRIVE_API_KEY,
    ...where,
    ingressUrl: env.AVATAR_DRIVE_INGRESS_URL,
    sampleRate: RATE,
    onError: (error) => console.error(`[host-relay] ${error.code}: ${error.message}`),
  });
  const relay = session.relay();
  const started = session.start();
  ws.on('close', () => session.close());
  ws.on('message', async (data) => {
    const command = parseCommand(data);
    if (
      !(await started.then(
        () => true,
        () => false,
      ))
    )
      return;
    if (command.type === 'interrupt') session.interrupt();
    if (command.type !== 'speak') return;
    const pcm = speech();
    for (let i = 0; i < pcm.length && session.state === 'connected'; i += RATE / 10) {
      session.sendAudio(pcm.subarray(i, i + RATE / 10), i + RATE / 10 >= pcm.length); // 100 ms chunks
      await new Promise((r) => setTimeout(r, 100)); // in real time, like a TTS stream
    }
  });
  started.catch((error) => ws.close(1011, error.code));
  for await (const event of relay) ws.send(event.data); // in order: relay bytes or control text
  ws.close();
});

server.listen(Number(env.PORT ?? 8788), '127.0.0.1', () => {
  console.log(`host-relay listening on ws://127.0.0.1:${server.address().port}/relay`);
});
