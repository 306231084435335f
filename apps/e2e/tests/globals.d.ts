// The demo page's `window.__demo` hook, as the tests read it.
import type { DemoHook } from '@avatar-drive/demo/hook';

declare global {
  interface Window {
    __demo: DemoHook;
  }
}
