/** Where scripts/deploy-tools.sh put helm, kubeconform, hadolint and the Kubernetes schemas. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const TOOLS_DIR = process.env.DEPLOY_TOOLS_DIR ?? join(homedir(), '.cache/avatar-drive/deploy-tools');

/** The Kubernetes versions the chart is validated against (scripts/deploy-tools.sh SCHEMA_VERSIONS). */
export const KUBERNETES_VERSIONS = ['1.25.0', '1.37.0'];

/** The path of a tool; throws how to install it when it is missing. */
export function tool(name: 'helm' | 'kubeconform' | 'hadolint'): string {
  const path = join(TOOLS_DIR, 'bin', name);
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: run \`bash scripts/deploy-tools.sh install\` (scripts/setup.sh does).`,
    );
  }
  return path;
}

/** kubeconform's -schema-location for the schemas the script unpacked. */
export function schemaLocation(): string {
  return join(
    TOOLS_DIR,
    'schemas',
    '{{ .NormalizedKubernetesVersion }}-local-strict',
    '{{ .ResourceKind }}{{ .KindSuffix }}.json',
  );
}
