/**
 * <AvatarProvider>, <AvatarView> and the hooks in happy-dom with a stand-in view (the real view,
 * service and Chromium are examples/react's e2e test): strict mode makes one view and one
 * session, unmounting disposes and resets, states and errors reach the hooks.
 */
import { AvatarSDK, type AvatarSDKOptions } from '@avatar-drive/client-web';
import { AvatarError } from '@avatar-drive/core';
import { act, type ReactNode, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AudioFeeder,
  type AvatarControls,
  AvatarProvider,
  AvatarView,
  useAudioFeed,
  useAvatarController,
  useAvatarError,
  useConnectionState,
  useConversationState,
} from '../src/index.js';
import { FAKE_AVATAR, recordingFactory } from './fake-view.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const OPTIONS: AvatarSDKOptions = {
  drivingServiceMode: 'sdk',
  endpoints: { consoleUrl: 'http://127.0.0.1:9', ingressUrl: 'ws://127.0.0.1:9/v2/driveningress' },
  backupRegion: null,
  logLevel: 'none',
};

interface Seen {
  controls?: AvatarControls;
  connection: string[];
  conversation: string[];
  error?: AvatarError;
  audio?: AudioFeeder;
}

function Probe({ seen }: { seen: Seen }): ReactNode {
  seen.controls = useAvatarController();
  const connection = useConnectionState();
  const conversation = useConversationState();
  seen.error = useAvatarError();
  seen.audio = useAudioFeed();
  if (seen.connection.at(-1) !== connection) seen.connection.push(connection);
  if (seen.conversation.at(-1) !== conversation) seen.conversation.push(conversation);
  return null;
}

let container: HTMLElement;
let root: Root;

beforeEach(() => {
  AvatarSDK.reset();
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  AvatarSDK.reset();
});

async function render(node: ReactNode): Promise<void> {
  await act(async () => root.render(node));
}

/** Settles effects, the view's asynchronous creation and state updates. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

describe('<AvatarProvider> and <AvatarView>', () => {
  it('strict mode (mount, unmount, mount) makes one view; unmounting disposes it and resets the SDK', async () => {
    const factory = recordingFactory();
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <StrictMode>
        <AvatarProvider appId="app_test" options={OPTIONS} fetchToken={async () => 'tok'}>
          <AvatarView avatar={FAKE_AVATAR} createView={factory} className="avatar" />
          <Probe seen={seen} />
        </AvatarProvider>
      </StrictMode>,
    );
    await settle();
    expect(factory.views).toHaveLength(1);
    expect(AvatarSDK.isInitialized).toBe(true);
    expect(AvatarSDK.config.appId).toBe('app_test');
    const view = factory.views[0]!;
    expect(seen.controls?.view).toBe(view);
    expect(seen.controls?.controller).toBe(view.controller);
    expect(container.querySelectorAll('div.avatar canvas')).toHaveLength(1);
    // SDK mode: the view reconnects a dropped session with a fresh token from the provider.
    expect(await view.options.refreshSessionToken?.()).toBe('tok');

    await act(async () => root.unmount());
    expect(view.disposed).toBe(true);
    expect(container.querySelectorAll('canvas')).toHaveLength(0);
    expect(AvatarSDK.isInitialized).toBe(false);
    root = createRoot(container); // for afterEach
  });

  it('autoConnect under strict mode fetches one token and starts one session', async () => {
    const factory = recordingFactory();
    const tokens: string[] = [];
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <StrictMode>
        <AvatarProvider
          appId="app_test"
          options={OPTIONS}
          fetchToken={async () => {
            tokens.push(`tok${tokens.length}`);
            return tokens.at(-1)!;
          }}
        >
          <AvatarView avatar={FAKE_AVATAR} createView={factory} autoConnect />
          <Probe seen={seen} />
        </AvatarProvider>
      </StrictMode>,
    );
    await settle();
    expect(factory.views).toHaveLength(1);
    expect(tokens).toEqual(['tok0']);
    expect(AvatarSDK.sessionToken).toBe('tok0');
    expect(factory.views[0]!.fake.calls.filter((c) => c === 'start')).toHaveLength(1);
    // Without a user gesture the audio is left suspended, for connect() from a click to resume.
    expect(factory.views[0]!.fake.calls).not.toContain('initializeAudioContext');
    expect(seen.connection.at(-1)).toBe('connected');
    expect(seen.connection).not.toContain('failed');
  });

  it('connect(): a fresh token per connection, states through the hooks, errors shown then cleared', async () => {
    const factory = recordingFactory();
    let minted = 0;
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <AvatarProvider appId="app_test" options={OPTIONS} fetchToken={async () => `tok${minted++}`}>
        <AvatarView avatar={FAKE_AVATAR} createView={factory} />
        <Probe seen={seen} />
      </AvatarProvider>,
    );
    await settle();
    const fake = factory.views[0]!.fake;
    fake.failStart = new AvatarError('sessionTokenInvalid', 'refused');
    await act(async () => {
      await expect(seen.controls!.connect()).rejects.toMatchObject({ code: 'sessionTokenInvalid' });
    });
    expect(seen.error?.code).toBe('sessionTokenInvalid');
    expect(seen.connection.at(-1)).toBe('failed');

    fake.failStart = undefined;
    await act(async () => {
      // Two clicks at once: one attempt, one token.
      await Promise.all([seen.controls!.connect(), seen.controls!.connect()]);
    });
    expect(minted).toBe(2);
    expect(AvatarSDK.sessionToken).toBe('tok1');
    expect(seen.error).toBeUndefined();
    expect(seen.connection.at(-1)).toBe('connected');
    await act(async () => seen.controls!.connect()); // already connected: nothing more
    expect(minted).toBe(2);
    // Every call resumes the audio (it may be the one in a click): the failed one, both of the
    // shared attempt, the no-op one. One start() per attempt.
    expect(fake.calls.filter((c) => c === 'initializeAudioContext').length).toBe(4);
    expect(fake.calls.filter((c) => c === 'start').length).toBe(2);

    await act(async () => {
      await seen.audio!.feed([new Int16Array(3200), new Int16Array(1600)], { sampleRate: 16000 }).done;
    });
    expect(fake.sent.reduce((n, s) => n + s.samples, 0)).toBe(4800);
    expect(fake.sent.at(-1)?.end).toBe(true);
    expect(seen.conversation.at(-1)).toBe('playing');
    await act(async () => fake.finishPlaying());
    expect(seen.conversation).toEqual(['idle', 'playing', 'idle']);
  });

  it('SDK mode without a token source: connect() fails with invalidState saying what to give', async () => {
    const factory = recordingFactory();
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <AvatarProvider appId="app_test" options={OPTIONS}>
        <AvatarView avatar={FAKE_AVATAR} createView={factory} />
        <Probe seen={seen} />
      </AvatarProvider>,
    );
    await settle();
    await act(async () => {
      await expect(seen.controls!.connect()).rejects.toMatchObject({ code: 'invalidState' });
    });
    expect(seen.error?.message).toMatch(/tokenUrl|fetchToken/);
    expect(factory.views[0]!.fake.calls).not.toContain('start');
  });

  it('re-renders keep the view; a new avatar replaces it, the old one disposed, the hooks following', async () => {
    const factory = recordingFactory();
    const seen: Seen = { connection: [], conversation: [] };
    // An inline createView (a new function each render), as apps write it.
    const tree = (avatar: typeof FAKE_AVATAR) => (
      <AvatarProvider appId="app_test" options={{ ...OPTIONS }} fetchToken={async () => 't'}>
        <AvatarView avatar={avatar} createView={(a, el, o) => factory(a, el, o)} />
        <Probe seen={seen} />
      </AvatarProvider>
    );
    await render(tree(FAKE_AVATAR));
    await settle();
    await render(tree(FAKE_AVATAR)); // a re-render with new props objects: the same view
    await settle();
    expect(factory.views).toHaveLength(1);
    await render(tree({ id: 'other' } as typeof FAKE_AVATAR));
    await settle();
    expect(factory.views).toHaveLength(2);
    expect(factory.views[0]!.disposed).toBe(true);
    expect(factory.views[1]!.disposed).toBe(false);
    expect(seen.controls?.view).toBe(factory.views[1]);
    expect(container.querySelectorAll('canvas')).toHaveLength(1);
  });

  it('feeding before a view is mounted is an invalidState error', async () => {
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <AvatarProvider appId="app_test" options={OPTIONS}>
        <Probe seen={seen} />
      </AvatarProvider>,
    );
    await settle();
    expect(() => seen.audio!.feed([new Int16Array(10)], { sampleRate: 16000 })).toThrow(
      expect.objectContaining({ code: 'invalidState' }),
    );
  });

  it('a second provider with another app id reports invalidState; the first keeps the SDK', async () => {
    const seen: Seen = { connection: [], conversation: [] };
    await render(
      <>
        <AvatarProvider appId="app_one" options={OPTIONS} />
        <AvatarProvider appId="app_two" options={OPTIONS}>
          <Probe seen={seen} />
        </AvatarProvider>
      </>,
    );
    await settle();
    expect(AvatarSDK.config.appId).toBe('app_one');
    expect(seen.error?.code).toBe('invalidState');
    expect(seen.error?.message).toContain('app_one');
  });

  it('an SDK the app initialized itself is used and not reset', async () => {
    AvatarSDK.initialize('app_own', OPTIONS);
    const factory = recordingFactory();
    await render(
      <AvatarProvider appId="app_own" options={OPTIONS}>
        <AvatarView avatar={FAKE_AVATAR} createView={factory} />
      </AvatarProvider>,
    );
    await settle();
    expect(factory.views).toHaveLength(1);
    await act(async () => root.unmount());
    root = createRoot(container);
    expect(AvatarSDK.isInitialized).toBe(true);
  });
});
