// Expo's Metro configuration finds the pnpm workspace (the SDK packages are linked from
// packages/*) and lets .wav files be bundled as assets.
const { getDefaultConfig } = require('expo/metro-config');

module.exports = getDefaultConfig(__dirname);
