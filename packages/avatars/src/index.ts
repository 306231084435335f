/**
 * @avatar-drive/avatars — the built-in avatars (files under `dist/<id>/`) and the morph-target
 * name mapping that lets any glTF avatar follow the `arkit-52` rig.
 * @packageDocumentation
 */
export * from './manifest.js';
export * from './morph-names.js';

/** Ids of the built-in avatars, in `index.json` order. */
export const BUILT_IN_AVATAR_IDS = ['noa', 'mika', 'juno'] as const;
