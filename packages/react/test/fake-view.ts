/**
 * A stand-in view for the unit tests: a controller that records calls and moves through the
 * SDK's connection states, no canvas or audio. (The real view runs in the Chromium tests.)
 */
import type { Avatar, AvatarController, AvatarViewOptions } from '@avatar-drive/client-web';
import type { AvatarError, ConnectionState, ConversationState } from '@avatar-drive/core';
import type { AvatarViewFactory, MountedView } from '../src/index.js';

export class FakeController {
  connectionState: ConnectionState = 'disconnected';
  conversationState: ConversationState = 'idle';
  onConnectionState: ((state: ConnectionState, failure?: AvatarError) => void) | undefined;
  onConversationState: ((state: ConversationState) => void) | undefined;
  onError: ((error: AvatarError) => void) | undefined;
  readonly calls: string[] = [];
  readonly sent: Array<{ samples: number; end: boolean }> = [];
  failStart: AvatarError | undefined;

  async initializeAudioContext(): Promise<void> {
    this.calls.push('initializeAudioContext');
  }

  async start(): Promise<void> {
    this.calls.push('start');
    this.#connection('connecting');
    await Promise.resolve();
    if (this.failStart) {
      this.#connection('failed', this.failStart);
      this.onError?.(this.failStart);
      throw this.failStart;
    }
    this.#connection('connected');
  }

  send(pcm: Int16Array, end = false): string {
    this.sent.push({ samples: pcm.length, end });
    if (this.conversationState !== 'playing') {
      this.conversationState = 'playing';
      this.onConversationState?.('playing');
    }
    return 'req';
  }

  finishPlaying(): void {
    this.conversationState = 'idle';
    this.onConversationState?.('idle');
  }

  dispose(): void {
    this.calls.push('dispose');
    if (this.connectionState !== 'disconnected') this.#connection('disconnected');
  }

  #connection(state: ConnectionState, failure?: AvatarError): void {
    this.connectionState = state;
    this.onConnectionState?.(state, failure);
  }
}

export class FakeView implements MountedView {
  readonly controller: AvatarController;
  readonly fake = new FakeController();
  readonly ready = Promise.resolve();
  onFirstRendering: (() => void) | undefined;
  disposed = false;
  readonly canvas: HTMLElement;

  constructor(
    readonly avatar: Avatar,
    container: HTMLElement,
    readonly options: AvatarViewOptions,
  ) {
    this.controller = this.fake as unknown as AvatarController;
    this.canvas = container.appendChild(document.createElement('canvas'));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.fake.dispose();
    this.canvas.remove();
  }
}

/** A factory that remembers every view it made. */
export function recordingFactory(): AvatarViewFactory & { views: FakeView[] } {
  const views: FakeView[] = [];
  const factory = (avatar: Avatar, container: HTMLElement, options: AvatarViewOptions) => {
    const view = new FakeView(avatar, container, options);
    views.push(view);
    return view;
  };
  return Object.assign(factory, { views });
}

export const FAKE_AVATAR = { id: 'fake' } as unknown as Avatar;
