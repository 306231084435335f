// The demo page's `window.__demo` hook, as the tests read it (apps/demo/src/main.ts, DemoHook).
export {};

declare global {
  interface Window {
    __demo: {
      mode: string;
      avatarId: string | undefined;
      timeline: string[];
      connectionStates: string[];
      conversationStates: string[];
      errors: Array<{ code: string; message: string }>;
      level: number;
      peakLevel: number;
      jawOpen: number;
      peakJaw: number;
      syncOffsetMs: number | undefined;
      downloadedBytes: number | undefined;
      firstRendering: boolean;
      region: string | undefined;
      resetPeak(): void;
    };
  }
}
