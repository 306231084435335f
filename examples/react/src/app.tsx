/**
 * The app: one avatar under an <AvatarProvider>, connected on mount with a token from the token
 * server, and controls made of the package's hooks — speak the sample, interrupt, the
 * microphone, and "remount" (a new view in place of the old, as a route change would).
 */
import type { AvatarView as MeshView } from '@avatar-drive/client-web';
import { ARKIT_BLENDSHAPES, parseWav, wavToSendablePcm } from '@avatar-drive/core';
import {
  AvatarProvider,
  AvatarView,
  useAudioFeed,
  useAvatarController,
  useAvatarError,
  useConnectionState,
  useConversationState,
  useMicrophone,
} from '@avatar-drive/react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { type PageConfig, sdkOptions } from './config.js';

export function App({ config, avatarId }: { config: PageConfig; avatarId: string }): ReactNode {
  const options = useMemo(() => sdkOptions(config), [config]);
  const [generation, setGeneration] = useState(0);
  const [shown, setShown] = useState(false);
  // Views drawn so far (one per mount that reached its first frame): what the e2e test waits on.
  const [drawn, setDrawn] = useState(0);
  return (
    <AvatarProvider appId={config.appId} options={options} tokenUrl={config.tokenUrl}>
      <main style={{ display: 'flex', gap: 24, padding: 24, flexWrap: 'wrap' }}>
        <AvatarView
          key={generation}
          avatarId={avatarId}
          autoConnect
          options={{ preserveDrawingBuffer: true }}
          onFirstRendering={() => {
            setShown(true);
            setDrawn((n) => n + 1);
          }}
          className="avatar"
          style={{ width: 420, height: 420, borderRadius: 12, background: '#e7e2da' }}
        >
          {!shown && <p style={{ position: 'absolute', margin: 16 }}>Loading the avatar…</p>}
        </AvatarView>
        <Controls
          onRemount={() => {
            setShown(false);
            setGeneration((g) => g + 1);
          }}
        />
      </main>
      <TestProbe shown={shown} drawn={drawn} />
    </AvatarProvider>
  );
}

function Controls({ onRemount }: { onRemount: () => void }): ReactNode {
  const { controller, connect } = useAvatarController();
  const connection = useConnectionState();
  const conversation = useConversationState();
  const error = useAvatarError();
  const audio = useAudioFeed();
  const mic = useMicrophone();

  const speak = async () => {
    await connect(); // in the click: resumes the audio, and reconnects if the session dropped
    const wav = parseWav(new Uint8Array(await (await fetch('samples/hello.wav')).arrayBuffer()));
    const { samples, sampleRate } = wavToSendablePcm(wav);
    await audio.feed([samples], { sampleRate }).done;
  };

  return (
    <section style={{ display: 'grid', gap: 8, alignContent: 'start', minWidth: 260 }}>
      <p>
        Connection <b data-testid="connection">{connection}</b> · conversation{' '}
        <b data-testid="conversation">{conversation}</b>
      </p>
      <button
        type="button"
        data-testid="speak"
        disabled={!controller}
        onClick={() => speak().catch(() => {})}
      >
        Speak the sample
      </button>
      <button
        type="button"
        data-testid="interrupt"
        disabled={!controller}
        onClick={() => controller?.interrupt()}
      >
        Interrupt
      </button>
      <button
        type="button"
        data-testid="microphone"
        disabled={!controller}
        onClick={() => (mic.active ? mic.stop() : mic.start().catch(() => {}))}
      >
        {mic.active ? 'Stop the microphone' : 'Talk through the microphone'}
      </button>
      <button type="button" data-testid="remount" onClick={onRemount}>
        Remount the view
      </button>
      {error && (
        <p role="alert" data-testid="error" style={{ color: '#a00' }}>
          {error.code}: {error.message}
        </p>
      )}
    </section>
  );
}

/** What the e2e test reads (window.__reactExample): states over time and the mouth, every frame. */
export interface ExampleProbe {
  shown: boolean;
  /** Views that reached their first frame (a remount adds one). */
  drawn: number;
  timeline: string[];
  /** Largest jawOpen in the frames applied (the drive frames' data) while playing. */
  frameJawMax: number;
  /** Largest jawOpen influence on the mesh while playing. */
  meshJawMax: number;
  /** Rendered frames while playing whose jawOpen differed from the frame before (the mouth moving). */
  framesWhilePlaying: number;
  /** Rendered frames while playing with jawOpen above 0.1 (the mouth open). */
  openFrames: number;
  /** The mesh's jawOpen influence at the last rendered frame. */
  jaw: number;
  canvases: number;
  reset(): void;
}

declare global {
  interface Window {
    __reactExample?: ExampleProbe;
  }
}

const JAW_OPEN = ARKIT_BLENDSHAPES.indexOf('jawOpen');

function TestProbe({ shown, drawn }: { shown: boolean; drawn: number }): ReactNode {
  const { view } = useAvatarController();
  const connection = useConnectionState();
  const conversation = useConversationState();
  const [probe] = useState<ExampleProbe>(() => {
    const p: ExampleProbe = {
      shown: false,
      drawn: 0,
      timeline: [],
      frameJawMax: 0,
      meshJawMax: 0,
      framesWhilePlaying: 0,
      openFrames: 0,
      jaw: 0,
      canvases: 0,
      reset() {
        p.timeline = [];
        p.frameJawMax = 0;
        p.meshJawMax = 0;
        p.framesWhilePlaying = 0;
        p.openFrames = 0;
      },
    };
    window.__reactExample = p;
    return p;
  });
  probe.shown = shown;
  probe.drawn = drawn;
  useEffect(() => {
    probe.timeline.push(`connection:${connection}`);
  }, [probe, connection]);
  useEffect(() => {
    probe.timeline.push(`conversation:${conversation}`);
  }, [probe, conversation]);
  useEffect(() => {
    const mesh = view as MeshView | undefined;
    let raf = 0;
    let lastJaw = -1;
    const sample = () => {
      raf = requestAnimationFrame(sample);
      probe.canvases = document.querySelectorAll('.avatar canvas').length;
      probe.jaw = mesh?.getMorphInfluence('jawOpen') ?? 0;
      if (mesh?.controller.conversationState !== 'playing') return;
      const jaw = mesh.lastFrame?.expression[JAW_OPEN] ?? 0;
      if (jaw !== lastJaw) probe.framesWhilePlaying += 1;
      if (jaw > 0.1) probe.openFrames += 1;
      lastJaw = jaw;
      probe.frameJawMax = Math.max(probe.frameJawMax, jaw);
      probe.meshJawMax = Math.max(probe.meshJawMax, mesh.getMorphInfluence('jawOpen') ?? 0);
    };
    raf = requestAnimationFrame(sample);
    return () => cancelAnimationFrame(raf);
  }, [probe, view]);
  return null;
}
