/**
 * Smoke check of the RTC stack against a running LiveKit server (scripts/livekit.sh start):
 * two @livekit/rtc-node participants, one publishing a tone at 16, 24 and 48 kHz plus data
 * packets, the other measuring what arrives. Prints figures; exits non-zero on a failure.
 *
 *   pnpm --filter @avatar-drive/service exec tsx scripts/livekit-smoke.ts [ws://127.0.0.1:7880]
 */
import { execFileSync } from 'node:child_process';
import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  ParticipantKind,
  type RemoteParticipant,
  type RemoteTrack,
  Room,
  RoomEvent,
  TrackPublishOptions,
  TrackSource,
} from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';

const url =
  process.argv[2] ?? execFileSync('bash', ['scripts/livekit.sh', 'url'], { cwd: '../..' }).toString().trim();
const room = `smoke-${Date.now()}`;

async function token(identity: string, kind?: string, attributes?: Record<string, string>): Promise<string> {
  const at = new AccessToken('devkey', 'secret', { identity, ttl: '10m' });
  at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  if (kind) at.kind = kind;
  if (attributes) at.attributes = attributes;
  return at.toJwt();
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

async function main(): Promise<void> {
  const listener = new Room();
  const publisher = new Room();
  const got = { data: 0, energy: [] as number[], sampleRates: new Set<number>() };
  let avatar: RemoteParticipant | undefined;

  listener.on(RoomEvent.ParticipantConnected, (p) => {
    avatar = p;
  });
  listener.on(RoomEvent.DataReceived, (payload, _p, _kind, topic) => {
    if (topic === 'smoke') got.data += payload.length > 0 ? 1 : 0;
  });
  const subscribed = new Promise<RemoteTrack>((resolve) => {
    listener.on(RoomEvent.TrackSubscribed, (track) => resolve(track));
  });

  await listener.connect(url, await token('listener'), { autoSubscribe: true, dynacast: false });
  const t0 = Date.now();
  await publisher.connect(
    url,
    await token('avatar', 'agent', { 'lk.publish_on_behalf': 'agent-1', extra: 'x' }),
    { autoSubscribe: false, dynacast: false },
  );
  console.log(`publisher connected in ${Date.now() - t0} ms`);

  for (const rate of [16000, 24000, 48000]) {
    const source = new AudioSource(rate, 1, 200);
    const track = LocalAudioTrack.createAudioTrack(`tone-${rate}`, source);
    const options = new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE });
    const publication = await publisher.localParticipant!.publishTrack(track, options);
    const remote = await (rate === 16000
      ? subscribed
      : new Promise<RemoteTrack>((resolve) => listener.once(RoomEvent.TrackSubscribed, (t) => resolve(t))));
    const stream = new AudioStream(remote, { sampleRate: 48000, numChannels: 1 });
    const reader = stream.getReader();
    const reading = (async () => {
      const deadline = Date.now() + 1500;
      while (Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done || !value) break;
        got.sampleRates.add(value.sampleRate);
        got.energy.push(rms(value.data));
      }
    })();
    // One second of a 440 Hz tone in 10 ms frames; captureFrame paces us in real time.
    const frameSamples = rate / 100;
    for (let f = 0; f < 100; f++) {
      const data = new Int16Array(frameSamples);
      for (let i = 0; i < frameSamples; i++) {
        data[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (f * frameSamples + i)) / rate));
      }
      await source.captureFrame(new AudioFrame(data, rate, 1, frameSamples));
      if (f % 10 === 0) {
        await publisher.localParticipant!.publishData(new Uint8Array([f]), {
          reliable: true,
          topic: 'smoke',
        });
      }
    }
    await reading;
    reader.releaseLock();
    const loud = got.energy.filter((e) => e > 1000).length;
    console.log(
      `${rate} Hz: ${got.energy.length} frames received, ${loud} above RMS 1000, max RMS ${Math.round(Math.max(...got.energy))}`,
    );
    if (loud < 20) throw new Error(`no tone received at ${rate} Hz`);
    got.energy = [];
    await publisher.localParticipant!.unpublishTrack(publication.sid!);
    await source.close();
  }
  console.log(`data packets received: ${got.data} (sent 30)`);
  console.log(
    `avatar seen by listener: kind=${avatar ? ParticipantKind[avatar.kind] : '?'} attributes=${JSON.stringify(avatar?.attributes)}`,
  );
  if (got.data < 30) throw new Error('data packets lost');
  await publisher.disconnect();
  await listener.disconnect();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
