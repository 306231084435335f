#!/usr/bin/env node
// The `avatar-drive` command. A committed shim rather than dist/cli.js itself, so `pnpm install`
// can link the bin on a fresh checkout before the first build.
import '../dist/cli.js';
