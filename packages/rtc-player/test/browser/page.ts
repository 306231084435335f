// The page the Chromium test loads: rtc-player (and the client-web SDK it attaches to) as globals.
import { AvatarSDK } from '@avatar-drive/client-web';
import { AvatarPlayer, LiveKitProvider } from '../../src/index.js';

(window as unknown as { rtc: unknown }).rtc = { AvatarSDK, AvatarPlayer, LiveKitProvider };
document.title = 'ready';
