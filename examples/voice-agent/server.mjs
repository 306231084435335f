// Voice-agent quick start, the server: serves the page, gives it a session token (the API key
// stays here), and in Host mode speaks the TTS through an AvatarSession whose relay stream goes
// to the page over a WebSocket. See docs/quickstart-voice-agent.md.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { feedPcm } from '@avatar-drive/core';
import { AvatarSession, createSessionToken } from '@avatar-drive/server-sdk';
import { WebSocketServer } from 'ws';
import { tts } from './tts.mjs';

const env = process.env;
const RATE = 16000; // what the avatar session is configured with; the TTS's rate does not matter
const where = {
  region: env.AVATAR_DRIVE_REGION, // or explicit URLs (a self-hosted or local service):
  consoleUrl: env.AVATAR_DRIVE_CONSOLE_URL,
  ingressUrl: env.AVATAR_DRIVE_INGRESS_URL,
};
const PAGE = `<!doctype html><meta charset="utf-8"><title>voice agent</title>
<div id="avatar" style="width:480px;height:480px"></div>
<input id="text" value="Hello! I am your avatar."><button id="speak">Speak</button><button id="stop">Stop</button>
<script type="module" src="/page.js"></script>`;

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && (req.url === '/' || req.url.startsWith('/?'))) {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  } else if (req.method === 'GET' && req.url === '/page.js') {
    const js = readFileSync(new URL('./public/page.js', import.meta.url)); // pnpm build makes it
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
  } else if (req.method === 'POST' && req.url === '/session-token') {
    const sessionToken = await createSessionToken({
      apiKey: env.AVATAR_DRIVE_API_KEY,
      ...where,
      ttlSeconds: 600,
    });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(
      JSON.stringify({ sessionToken, appId: env.AVATAR_DRIVE_APP_ID, avatarId: env.AVATAR_ID, ...where }),
    );
  } else {
    res.writeHead(404).end();
  }
});

// Host mode: per page, an AvatarSession opened at the first "speak" (and again after the service
// closed an idle one); its relay stream goes to the page in order.
new WebSocketServer({ server, path: '/relay' }).on('connection', (ws) => {
  let session;
  let started;
  let speaking; // AbortController of the reply being spoken
  const live = () => {
    if (session && session.state !== 'closing' && session.state !== 'closed') return started;
    session = new AvatarSession({
      avatarId: env.AVATAR_ID,
      appId: env.AVATAR_DRIVE_APP_ID,
      apiKey: env.AVATAR_DRIVE_API_KEY,
      ...where,
      sampleRate: RATE,
      onError: (e) => console.error(`[voice-agent] ${e.code}: ${e.message}`),
    });
    const relay = session.relay();
    started = session.start().then(() => session);
    void (async () => {
      for await (const event of relay) if (ws.readyState === ws.OPEN) ws.send(event.data);
    })();
    return started;
  };
  ws.on('close', () => session?.close());
  ws.on('message', async (data) => {
    const command = JSON.parse(String(data)); // {"type":"speak","text":"…"} or {"type":"interrupt"}
    speaking?.abort(); // a barge-in or a new reply: stop the TTS of the current one
    if (command.type === 'interrupt') {
      if (session?.state === 'connected') session.interrupt();
      return;
    }
    const reply = new AbortController();
    speaking = reply;
    const s = await live().catch(() => undefined); // a failure reaches the page as the relay's `end`
    if (!s || reply.signal.aborted) return;
    s.startTurn();
    await feedPcm(tts(command.text), (pcm, end) => s.sendAudio(pcm, end), {
      inputRate: 24000, // the TTS's rate
      outputRate: RATE,
      signal: reply.signal,
    }).catch((e) => console.error(`[voice-agent] ${e.code}: ${e.message}`)); // e.g. the session dropped
  });
});

server.listen(Number(env.PORT ?? 8791), '127.0.0.1', () => {
  console.log(`voice agent on http://127.0.0.1:${server.address().port}/`);
});
