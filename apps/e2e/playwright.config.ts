import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@avatar-drive/test-chromium';
import { defineConfig } from '@playwright/test';

// The fake capture device speaks one of the demo's sample sentences (built with the demo), in a
// loop, where it would otherwise beep: the microphone test then drives the mouth with speech.
const FAKE_MICROPHONE = join(import.meta.dirname, '../demo/dist/samples/weather.wav');

export default defineConfig({
  testDir: 'tests',
  // One stack, one browser, tests in order: the machine has 2 cores.
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: '.tmp/test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1000, height: 660 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${FAKE_MICROPHONE}`,
      ],
    },
  },
});
