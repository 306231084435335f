/**
 * The state one `<AvatarProvider>` shares with its view and hooks: whether the SDK is set up,
 * the mounted view and its controller, the connection and conversation states, and the last
 * error. An external store (subscribe / getSnapshot) read with `useSyncExternalStore`, so every
 * hook sees the same state in the same render, and snapshots are immutable.
 */
import { type AvatarController, AvatarSDK } from '@avatar-drive/client-web';
import { AvatarError, type ConnectionState, type ConversationState } from '@avatar-drive/core';
import type { FetchSessionToken } from './session-token.js';
import type { MountedView } from './view-kinds.js';

/** One snapshot of a provider's state. */
export interface AvatarState {
  /** True once the provider has set up the SDK (in an effect, so never during server rendering). */
  readonly sdkReady: boolean;
  /** The mounted view, once its avatar has loaded. */
  readonly view: MountedView | undefined;
  /** The view's controller (`undefined` until the view is mounted). */
  readonly controller: AvatarController | undefined;
  readonly connectionState: ConnectionState;
  readonly conversationState: ConversationState;
  /** The last error (SDK setup, token, avatar load, connection, session); cleared by a successful connect. */
  readonly error: AvatarError | undefined;
}

const INITIAL: AvatarState = Object.freeze({
  sdkReady: false,
  view: undefined,
  controller: undefined,
  connectionState: 'disconnected',
  conversationState: 'idle',
  error: undefined,
});

/** @internal The store behind a provider; the hooks are its public face. */
export class AvatarStore {
  #state: AvatarState = INITIAL;
  readonly #listeners = new Set<() => void>();
  #connecting: Promise<void> | undefined;
  /** Where session tokens come from (the provider's `tokenUrl` / `fetchToken`). */
  fetchToken: FetchSessionToken | undefined;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): AvatarState => this.#state;

  /** The snapshot a server render (and the first client render) sees. */
  readonly getServerSnapshot = (): AvatarState => INITIAL;

  setSdkReady(ready: boolean): void {
    this.#update({ sdkReady: ready });
  }

  /** Records `error` (normalised to an AvatarError) as the last error. */
  reportError(error: unknown): AvatarError {
    const typed =
      error instanceof AvatarError
        ? error
        : new AvatarError('unknown', `Unexpected failure: ${String(error)}`, { cause: error });
    this.#update({ error: typed });
    return typed;
  }

  /**
   * Makes `view` the one the hooks follow, listening to its controller's callbacks (which it
   * owns from now on). Returns the detach function; detaching a view no longer current is a no-op.
   */
  attachView(view: MountedView): () => void {
    const controller = view.controller;
    controller.onConnectionState = (state, failure) =>
      this.#update(failure ? { connectionState: state, error: failure } : { connectionState: state });
    controller.onConversationState = (state) => this.#update({ conversationState: state });
    controller.onError = (error) => this.#update({ error });
    this.#update({
      view,
      controller,
      connectionState: controller.connectionState,
      conversationState: controller.conversationState,
    });
    return () => {
      controller.onConnectionState = undefined;
      controller.onConversationState = undefined;
      controller.onError = undefined;
      if (this.#state.view !== view) return;
      this.#connecting = undefined;
      this.#update({
        view: undefined,
        controller: undefined,
        connectionState: 'disconnected',
        conversationState: 'idle',
      });
    };
  }

  /**
   * Opens the current view's session: resumes audio (call it from a user gesture; `resumeAudio:
   * false` skips it), then, in SDK mode, sets a fresh session token, then `controller.start()`.
   * Concurrent calls share one attempt; a view already connected resolves at once (after
   * resuming audio). Failures are recorded and rethrown.
   */
  connect(options: { resumeAudio?: boolean } = {}): Promise<void> {
    const resumeAudio = options.resumeAudio ?? true;
    if (this.#connecting) {
      const controller = this.#state.controller;
      // A click during an automatic connect still resumes the audio (it needs the gesture).
      if (resumeAudio && controller) {
        return Promise.all([controller.initializeAudioContext(), this.#connecting]).then(() => undefined);
      }
      return this.#connecting;
    }
    const attempt = this.#connect(resumeAudio).finally(() => {
      if (this.#connecting === attempt) this.#connecting = undefined;
    });
    this.#connecting = attempt;
    return attempt;
  }

  async #connect(resumeAudio: boolean): Promise<void> {
    const controller = this.#state.controller;
    try {
      if (!controller) {
        throw new AvatarError(
          'invalidState',
          'connect() needs a mounted <AvatarView> whose avatar has loaded: wait until useAvatarController().controller is set.',
          { phase: 'connect' },
        );
      }
      // Browsers resume audio only inside a user gesture; an automatic connect leaves it for the click.
      if (resumeAudio) await controller.initializeAudioContext();
      if (controller.connectionState === 'connected' || controller.connectionState === 'connecting') return;
      if (AvatarSDK.config.mode === 'sdk') {
        if (!this.fetchToken) {
          throw new AvatarError(
            'invalidState',
            'SDK mode needs a session token for each connection: give <AvatarProvider> a tokenUrl (your token server) or a fetchToken function.',
            { phase: 'connect' },
          );
        }
        const token = await this.fetchToken();
        // The view may have gone while the token was fetched: a fresh one gets its own connect().
        if (this.#state.controller !== controller) return;
        AvatarSDK.setSessionToken(token);
      }
      await controller.start();
      if (this.#state.error) this.#update({ error: undefined });
    } catch (error) {
      throw this.reportError(error);
    }
  }

  #update(patch: Partial<AvatarState>): void {
    this.#state = Object.freeze({ ...this.#state, ...patch });
    for (const listener of [...this.#listeners]) listener();
  }
}
