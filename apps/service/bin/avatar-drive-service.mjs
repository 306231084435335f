#!/usr/bin/env node
// The `avatar-drive-service` command. A committed shim rather than dist/main.js itself, so
// `pnpm install` can link the bin on a fresh checkout before the first build.
import '../dist/main.js';
