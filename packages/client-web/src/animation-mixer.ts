/** The idle-and-transition mixer is platform-neutral: it lives in client-core (shared with React Native). */
export { AnimationMixer, type AnimationMixerOptions } from '@avatar-drive/client-core';
