#!/usr/bin/env node
// The `avatar-drive-token-server` command. A committed shim rather than dist/bin.js itself, so
// `pnpm install` can link the bin on a fresh checkout before the first build.
import '../dist/bin.js';
