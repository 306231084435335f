import packageJson from '../package.json' with { type: 'json' };

/** This package's version (inlined at build time), printed by `avatar-drive-token-server --version`. */
export const TOKEN_SERVER_VERSION: string = packageJson.version;
