/**
 * SDK mode (`drivingServiceMode: 'sdk'`): the app's PCM goes to the driving service over the
 * ingress WebSocket ({@link IngressConnection}: region fallback under the shared reconnect
 * policy) and the animation comes back. Owns the confirmed session and its capabilities (pause
 * and resume reach the service only when it confirmed `playback_control`), and reconnects on its
 * own after a retryable drop when the app gave `refreshSessionToken`.
 */
import {
  AvatarError,
  animationToDriveFrames,
  audioInputMessage,
  int16ToBytes,
  interruptMessage,
  type Message,
  pauseMessage,
  resumeMessage,
  shouldReconnectAfterDrop,
} from '@avatar-drive/core';
import { type ConfirmedSession, IngressConnection } from '../ingress-connection.js';
import { logger } from '../logger.js';
import { AvatarSDK } from '../sdk.js';
import { PcmSource } from './pcm-source.js';

/** The drive source of SDK mode: the driving service over driveningress.v2. */
export class IngressSource extends PcmSource {
  #ingress: IngressConnection | undefined;
  #session: ConfirmedSession | undefined;

  /** The session the service confirmed, while connected. */
  override get session(): ConfirmedSession | undefined {
    return this.#session;
  }

  protected get linked(): boolean {
    return this.#ingress !== undefined;
  }

  async open(): Promise<void> {
    this.emit('state', 'connecting');
    await this.#connect();
  }

  close(): void {
    const ingress = this.#ingress;
    this.#ingress = undefined;
    this.#session = undefined;
    this.endOpenUtterance();
    ingress?.close();
  }

  interrupt(): void {
    const id = this.latestId;
    if (id && this.context.connectionState() === 'connected') this.#safeSend(interruptMessage(id));
    this.endOpenUtterance();
  }

  override pause(): void {
    const id = this.latestId;
    if (id && this.#supports('playback_control')) this.#safeSend(pauseMessage(id));
  }

  override resume(): void {
    const id = this.latestId;
    if (id && this.#supports('playback_control')) this.#safeSend(resumeMessage(id));
  }

  protected transmit(id: string, pcm: Int16Array, end: boolean): void {
    this.#ingress!.send(audioInputMessage({ reqId: id, audio: int16ToBytes(pcm), end }));
  }

  /** Opens the ingress under the shared policy; the state is already `connecting`. */
  async #connect(): Promise<void> {
    const { config, avatarId, options } = this.context;
    const ingress = new IngressConnection({
      endpoints: config.endpoints,
      appId: config.appId,
      avatarId,
      sampleRate: config.sampleRate,
      token: () => AvatarSDK.sessionToken,
      onMessage: (message) => this.#onMessage(message),
      onServerError: (error) => this.emit('error', error),
      onClosed: (error) => this.#onClosed(ingress, error),
      onRetry: (attempt, endpoint, error) =>
        logger.debug(`retry ${attempt} against ${endpoint.region} after ${error.code}`),
      ...(options.webSocket && { webSocket: options.webSocket }),
      reconnect: {
        ...options.reconnect,
        ...(options.maxConnectAttempts !== undefined && { maxAttempts: options.maxConnectAttempts }),
        ...(options.backoffMs !== undefined && { initialDelayMs: options.backoffMs }),
      },
    });
    this.#ingress = ingress;
    let session: ConfirmedSession;
    try {
      session = await ingress.connect();
    } catch (error) {
      if (this.#ingress !== ingress) throw error; // close() during connect
      this.#ingress = undefined;
      this.emit('state', 'failed', error as AvatarError);
      throw error;
    }
    if (this.#ingress !== ingress) return; // close() during connect
    this.#session = session;
    this.emit('state', 'connected');
  }

  #onMessage(message: Message): void {
    switch (message.data.case) {
      case 'serverResponseAnimation': {
        const animation = message.data.value;
        try {
          this.deliverFrames(animation.reqId, animation.end, (first) =>
            animationToDriveFrames(animation, first),
          );
        } catch (error) {
          this.emit('error', error as AvatarError);
        }
        return;
      }
      case 'serverError':
        return; // reported once by the connection (with the close that may follow it)
      case 'serverPlaybackState':
        logger.debug('server playback state', message.data.value.state, message.data.value.reason);
        return;
      default:
        return;
    }
  }

  #onClosed(ingress: IngressConnection, error: AvatarError | undefined): void {
    if (this.#ingress !== ingress) return;
    this.#ingress = undefined;
    this.#session = undefined;
    this.endOpenUtterance();
    if (!error) {
      this.emit('state', 'disconnected');
      return;
    }
    this.emit('state', 'failed', error);
    const refresh = this.context.options.refreshSessionToken;
    if (refresh && shouldReconnectAfterDrop(error, true)) void this.#reconnectAfterDrop(refresh);
  }

  /** After a retryable drop: a fresh token from the app's server, then the same connect. */
  async #reconnectAfterDrop(refresh: () => Promise<string>): Promise<void> {
    try {
      const token = await refresh();
      if (this.context.connectionState() !== 'failed') return; // closed or restarted meanwhile
      AvatarSDK.setSessionToken(token);
    } catch (cause) {
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError(
              'sessionTokenInvalid',
              'refreshSessionToken() failed; call start() with a new token.',
              {
                cause,
                phase: 'connect',
              },
            );
      this.emit('error', error);
      return;
    }
    this.emit('reconnecting');
    await this.#connect().catch(() => undefined); // reported through the states and errors
  }

  #supports(capability: string): boolean {
    return this.#session?.capabilities.includes(capability) ?? false;
  }

  #safeSend(message: Message): void {
    try {
      this.#ingress?.send(message);
    } catch (error) {
      logger.warn('could not send a control message:', error);
    }
  }
}
