import packageJson from '../package.json' with { type: 'json' };

/**
 * The service version reported by /healthz, the OpenAPI document and `--version`: the package's
 * own, inlined at build time, so a release's version bump moves it too.
 */
export const SERVICE_VERSION: string = packageJson.version;
