/**
 * The Helm chart (deploy/helm/avatar-drive), checked without a cluster: `helm lint --strict`,
 * `helm template` for the ways it is meant to be used, every rendered object validated by
 * kubeconform against the strict Kubernetes schemas of the oldest and newest supported versions,
 * then what the objects must mean for this service (probes, draining, HPA metric, TLS, secrets).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../src/pack.js';
import { KUBERNETES_VERSIONS, schemaLocation, tool } from './support/deploy-tools.js';

const run = promisify(execFile);
const CHART = join(REPO_ROOT, 'deploy/helm/avatar-drive');

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML of Kubernetes objects, read field by field in assertions
type K8sObject = { kind: string; apiVersion: string; metadata: { name: string }; [key: string]: any };

const CREDENTIALS = {
  credentials: {
    signingKey: 'a'.repeat(43),
    apps: [{ appId: 'app_test', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }],
  },
};

/** The ways the chart is meant to be installed (values files), by name. */
const SCENARIOS: Record<string, Record<string, unknown>> = {
  'try it out (bundled Redis, autoscaling)': CREDENTIALS,
  'production (Sentinels, TLS, existing secrets)': {
    region: 'us-west',
    credentials: { existingSecret: 'avatar-drive-credentials' },
    redis: { enabled: false },
    externalRedis: { sentinels: 'redis-0:26379,redis-1:26379,redis-2:26379', existingSecret: 'redis-auth' },
    tls: { enabled: true, secretName: 'avatar-drive-tls' },
    uploads: { persistence: { existingClaim: 'avatar-uploads-efs' } },
    trustedProxies: '10.0.0.0/8',
    publicUrl: 'https://avatars.example.com',
    limits: { AVATAR_DRIVE_MAX_SESSIONS_PER_APP: '200' },
    autoscaling: { minReplicas: 3, maxReplicas: 30, targetLiveSessionsPerPod: 25 },
    drain: { preStopSeconds: 10, timeoutSeconds: 60 },
  },
  'with the token server (chart-made Secret, LiveKit)': {
    ...CREDENTIALS,
    tokenServer: {
      enabled: true,
      appId: 'app_test',
      apiKey: 'adk_chart-test-key',
      livekitApiKey: 'lk-key',
      livekitApiSecret: 'lk-secret',
      livekit: { url: 'wss://livekit.example.com', agentName: 'avatar-agent' },
      corsOrigin: 'https://app.example.com',
    },
  },
  'fixed size (external Redis URL, no autoscaling)': {
    ...CREDENTIALS,
    redis: { enabled: false },
    externalRedis: { url: 'redis://redis.example:6379' },
    autoscaling: { enabled: false },
    replicaCount: 4,
  },
};

let work: string;
const rendered = new Map<string, K8sObject[]>();

async function template(values: Record<string, unknown>, kubeVersion = KUBERNETES_VERSIONS.at(-1)!) {
  const file = join(work, `values-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(values));
  return run(tool('helm'), ['template', 'rel', CHART, '--kube-version', kubeVersion, '-f', file], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

const parse = (text: string) =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);

/** Every source file of the service, concatenated (where its environment variables are read). */
async function serviceSources(): Promise<string> {
  const files = await readdir(join(REPO_ROOT, 'apps/service/src'), { recursive: true });
  const texts = await Promise.all(
    files
      .filter((f) => f.endsWith('.ts') && !f.includes('gen/'))
      .map((f) => readFile(join(REPO_ROOT, 'apps/service/src', f), 'utf8')),
  );
  return texts.join('\n');
}

const find = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const isTokenServer = (o: K8sObject) => o.metadata.name.endsWith('-token-server');
/** The service's Deployment (the token server's, when rendered, is another). */
const deploymentOf = (objects: K8sObject[]) =>
  find(objects, 'Deployment').filter((o) => !isTokenServer(o))[0]!;
const containerOf = (objects: K8sObject[]) => deploymentOf(objects).spec.template.spec.containers[0];
const envNames = (objects: K8sObject[]) => {
  const config = find(objects, 'ConfigMap')[0]!;
  return [...Object.keys(config.data), ...containerOf(objects).env.map((e: { name: string }) => e.name)];
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'avd-chart-'));
  for (const [name, values] of Object.entries(SCENARIOS))
    rendered.set(name, parse((await template(values)).stdout));
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('deploy/helm/avatar-drive', () => {
  it('passes helm lint --strict', async () => {
    const file = join(work, 'lint.json');
    await writeFile(file, JSON.stringify(CREDENTIALS));
    const { stdout } = await run(tool('helm'), ['lint', '--strict', CHART, '-f', file]);
    expect(stdout).toContain('0 chart(s) failed');
  });

  for (const name of Object.keys(SCENARIOS)) {
    it(`${name}: every object is valid for Kubernetes ${KUBERNETES_VERSIONS.join(' and ')} (kubeconform, strict)`, async () => {
      for (const version of KUBERNETES_VERSIONS) {
        const { stdout: manifest } = await template(SCENARIOS[name]!, version);
        const file = join(work, `rendered-${version}.yaml`);
        await writeFile(file, manifest);
        const { stdout } = await run(tool('kubeconform'), [
          '-strict',
          '-summary',
          '-kubernetes-version',
          version,
          '-schema-location',
          schemaLocation(),
          file,
        ]);
        const count = parse(manifest).length;
        expect(stdout).toContain(`Valid: ${count}, Invalid: 0, Errors: 0, Skipped: 0`);
      }
    }, 60_000);
  }

  it('kubeconform does fail a misspelt field (the check is live)', async () => {
    const manifest = (await template(SCENARIOS['try it out (bundled Redis, autoscaling)']!)).stdout.replace(
      'maxUnavailable: 1',
      'maxUnavailabel: 1',
    );
    const file = join(work, 'broken.yaml');
    await writeFile(file, manifest);
    const failure = await run(tool('kubeconform'), [
      '-strict',
      '-kubernetes-version',
      KUBERNETES_VERSIONS.at(-1)!,
      '-schema-location',
      schemaLocation(),
      file,
    ]).catch((error: { stdout: string }) => error);
    expect((failure as { stdout: string }).stdout).toMatch(
      /additional properties 'maxUnavailabel' not allowed/,
    );
  });

  it('renders the objects a region needs', () => {
    const kinds = (name: string) =>
      rendered
        .get(name)!
        .map((o) => o.kind)
        .sort();
    expect(kinds('try it out (bundled Redis, autoscaling)')).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'PersistentVolumeClaim',
        'PodDisruptionBudget',
        'Secret',
        'Service',
        'Service',
        'ServiceAccount',
        'StatefulSet',
      ].sort(),
    );
    // Existing secrets and upload claim, external Redis: no Secret, no claim, no bundled Redis.
    expect(kinds('production (Sentinels, TLS, existing secrets)')).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'Service',
        'ServiceAccount',
      ].sort(),
    );
    const fixed = rendered.get('fixed size (external Redis URL, no autoscaling)')!;
    expect(find(fixed, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(deploymentOf(fixed).spec.replicas).toBe(4);
  });

  it('probes: readiness on /readyz, liveness on /healthz; non-root, read-only root file system', () => {
    for (const objects of rendered.values()) {
      const container = containerOf(objects);
      expect(container.readinessProbe.httpGet.path).toBe('/readyz');
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
      expect(deploymentOf(objects).spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    }
  });

  it('draining: preStop, then SIGTERM with the drain timeout, inside the grace period; rolling updates surge first', () => {
    const objects = rendered.get('production (Sentinels, TLS, existing secrets)')!;
    const pod = deploymentOf(objects).spec.template.spec;
    expect(pod.containers[0].lifecycle.preStop.exec.command).toEqual(['sleep', '10']);
    expect(find(objects, 'ConfigMap')[0]!.data.AVATAR_DRIVE_DRAIN_TIMEOUT_SECONDS).toBe('60');
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(10 + 60);
    expect(deploymentOf(objects).spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(find(objects, 'PodDisruptionBudget')[0]!.spec.maxUnavailable).toBe(1);
  });

  it('the HPA scales on live sessions per pod (avatar_drive_live_sessions) and CPU', () => {
    const hpa = find(
      rendered.get('production (Sentinels, TLS, existing secrets)')!,
      'HorizontalPodAutoscaler',
    )[0]!;
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 30 });
    expect(hpa.spec.metrics[0]).toEqual({
      type: 'Pods',
      pods: {
        metric: { name: 'avatar_drive_live_sessions' },
        target: { type: 'AverageValue', averageValue: '25' },
      },
    });
    expect(hpa.spec.metrics[1].resource.name).toBe('cpu');
  });

  it('TLS: the secret is mounted and handed to the service; probes and Service speak HTTPS', () => {
    const objects = rendered.get('production (Sentinels, TLS, existing secrets)')!;
    const pod = deploymentOf(objects).spec.template.spec;
    const container = pod.containers[0];
    expect(pod.volumes).toContainEqual({ name: 'tls', secret: { secretName: 'avatar-drive-tls' } });
    expect(container.volumeMounts).toContainEqual({
      name: 'tls',
      mountPath: '/etc/avatar-drive/tls',
      readOnly: true,
    });
    expect(container.env).toContainEqual({
      name: 'AVATAR_DRIVE_TLS_CERT',
      value: '/etc/avatar-drive/tls/tls.crt',
    });
    expect(container.env).toContainEqual({
      name: 'AVATAR_DRIVE_TLS_KEY',
      value: '/etc/avatar-drive/tls/tls.key',
    });
    expect(container.readinessProbe.httpGet.scheme).toBe('HTTPS');
    expect(find(objects, 'Service')[0]!.spec.ports[0]).toMatchObject({ name: 'https', port: 443 });
  });

  it('the shared store: bundled Redis, Sentinels, or a URL; signing key and apps from a Secret', () => {
    const env = (name: string) =>
      containerOf(rendered.get(name)!).env as Array<{ name: string; value?: string; valueFrom?: K8sObject }>;
    expect(env('try it out (bundled Redis, autoscaling)')).toContainEqual({
      name: 'REDIS_URL',
      value: 'redis://rel-redis:6379',
    });
    const production = env('production (Sentinels, TLS, existing secrets)');
    expect(production).toContainEqual({
      name: 'REDIS_SENTINELS',
      value: 'redis-0:26379,redis-1:26379,redis-2:26379',
    });
    expect(production.find((e) => e.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef.name).toBe(
      'redis-auth',
    );
    expect(production.find((e) => e.name === 'AVATAR_DRIVE_SIGNING_KEY')?.valueFrom?.secretKeyRef.name).toBe(
      'avatar-drive-credentials',
    );
    expect(env('fixed size (external Redis URL, no autoscaling)')).toContainEqual({
      name: 'REDIS_URL',
      value: 'redis://redis.example:6379',
    });
    const secret = find(rendered.get('try it out (bundled Redis, autoscaling)')!, 'Secret')[0]!;
    expect(JSON.parse(secret.stringData.AVATAR_DRIVE_APPS)).toEqual(CREDENTIALS.credentials.apps);
  });

  it('uploads: every pod mounts one shared claim as the data directory (kept on uninstall)', async () => {
    const tryIt = rendered.get('try it out (bundled Redis, autoscaling)')!;
    const claim = find(tryIt, 'PersistentVolumeClaim')[0]!;
    expect(claim.metadata.name).toBe('rel-avatar-drive-uploads');
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
    expect(
      (claim.metadata as { name: string; annotations: Record<string, string> }).annotations[
        'helm.sh/resource-policy'
      ],
    ).toBe('keep');
    for (const [name, objects] of rendered) {
      const pod = deploymentOf(objects).spec.template.spec;
      const container = containerOf(objects);
      expect(container.env, name).toContainEqual({
        name: 'AVATAR_DRIVE_DATA_DIR',
        value: '/var/lib/avatar-drive',
      });
      expect(container.volumeMounts, name).toContainEqual({
        name: 'uploads',
        mountPath: '/var/lib/avatar-drive',
      });
      const volume = pod.volumes.find((v: K8sObject) => v.name === 'uploads');
      const expected = name.startsWith('production') ? 'avatar-uploads-efs' : 'rel-avatar-drive-uploads';
      expect(volume.persistentVolumeClaim.claimName, name).toBe(expected);
    }
    // One fixed pod may keep its uploads on an emptyDir (a trial).
    const single = parse(
      (
        await template({
          ...CREDENTIALS,
          replicaCount: 1,
          autoscaling: { enabled: false },
          uploads: { persistence: { enabled: false } },
        })
      ).stdout,
    );
    expect(find(single, 'PersistentVolumeClaim')).toEqual([]);
    expect(deploymentOf(single).spec.template.spec.volumes).toContainEqual({ name: 'uploads', emptyDir: {} });
  });

  it('every environment variable it sets is one the service reads (apps/service/src)', async () => {
    const sources = await serviceSources();
    for (const name of new Set([...rendered.values()].flatMap(envNames))) {
      expect(sources, `${name} is read nowhere in apps/service/src`).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('the token server (optional): its own Deployment and Service, probes on /health, the API key only from a Secret', async () => {
    for (const [name, objects] of rendered) {
      if (name.startsWith('with the token server')) continue;
      expect(objects.filter(isTokenServer), `${name}: off by default`).toEqual([]);
    }
    const objects = rendered.get('with the token server (chart-made Secret, LiveKit)')!;
    const mine = objects
      .filter(isTokenServer)
      .map((o) => o.kind)
      .sort();
    expect(mine).toEqual(['Deployment', 'Service']);
    const deployment = find(objects, 'Deployment').find(isTokenServer)!;
    const service = find(objects, 'Service').find(isTokenServer)!;
    // Neither Service selects the other's pods.
    const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    const mainService = find(objects, 'Service').find((o) => o.metadata.name === 'rel-avatar-drive')!;
    const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    expect(matches(mainService.spec.selector, podLabels)).toBe(false);
    expect(matches(service.spec.selector, deploymentOf(objects).spec.template.metadata.labels)).toBe(false);
    expect(service.spec.ports[0]).toMatchObject({ port: 80, targetPort: 'http' });
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe('/health');
    expect(container.livenessProbe.httpGet.path).toBe('/health');
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const env = container.env as Array<{ name: string; value?: string; valueFrom?: K8sObject }>;
    const value = (n: string) => env.find((e) => e.name === n)?.value;
    expect(value('AVATAR_DRIVE_CONSOLE_URL')).toBe('http://rel-avatar-drive.default.svc:80');
    expect(value('AVATAR_DRIVE_APP_ID')).toBe('app_test');
    expect(value('TRUST_PROXY')).toBe('1');
    expect(value('PORT')).toBe('8790');
    // Secrets: only by reference, from the chart-made Secret, which holds them.
    const secretName = 'rel-avatar-drive-token-server-credentials';
    for (const key of ['AVATAR_DRIVE_API_KEY', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET']) {
      expect(env.find((e) => e.name === key)?.valueFrom?.secretKeyRef).toMatchObject({
        name: secretName,
        key,
      });
    }
    expect(JSON.stringify(deployment)).not.toContain('adk_chart-test-key');
    const secret = find(objects, 'Secret').find((o) => o.metadata.name === secretName)!;
    expect(secret.stringData).toEqual({
      AVATAR_DRIVE_API_KEY: 'adk_chart-test-key',
      LIVEKIT_API_KEY: 'lk-key',
      LIVEKIT_API_SECRET: 'lk-secret',
    });
    // Every variable it sets is one the token server reads.
    const files = await readdir(join(REPO_ROOT, 'packages/token-server/src'));
    const sources = (
      await Promise.all(files.map((f) => readFile(join(REPO_ROOT, 'packages/token-server/src', f), 'utf8')))
    ).join('\n');
    for (const { name } of env) {
      expect(sources, `${name} is read nowhere in packages/token-server/src`).toMatch(
        new RegExp(`\\b${name}\\b`),
      );
    }
    // An existing Secret: none made; with TLS on the service it mints over https.
    const existing = parse(
      (
        await template({
          ...CREDENTIALS,
          tls: { enabled: true, secretName: 'tls' },
          tokenServer: { enabled: true, appId: 'app_test', existingSecret: 'token-server-keys' },
        })
      ).stdout,
    );
    expect(find(existing, 'Secret').filter(isTokenServer)).toEqual([]);
    expect(find(existing, 'Secret').map((o) => o.metadata.name)).not.toContain(secretName);
    const existingEnv = find(existing, 'Deployment').find(isTokenServer)!.spec.template.spec.containers[0]
      .env;
    expect(existingEnv).toContainEqual({
      name: 'AVATAR_DRIVE_CONSOLE_URL',
      value: 'https://rel-avatar-drive.default.svc:443',
    });
    expect(
      existingEnv.find((e: { name: string }) => e.name === 'AVATAR_DRIVE_API_KEY').valueFrom.secretKeyRef
        .name,
    ).toBe('token-server-keys');
  });

  it('refuses values that cannot work, saying what to set', async () => {
    const error = (values: Record<string, unknown>) =>
      template(values).then(
        () => '',
        (e: { stderr: string }) => e.stderr,
      );
    expect(await error({})).toMatch(/set credentials.signingKey/);
    expect(await error({ ...CREDENTIALS, redis: { enabled: false } })).toMatch(/need a shared store/);
    expect(await error({ ...CREDENTIALS, tls: { enabled: true } })).toMatch(/tls.secretName is required/);
    expect(await error({ ...CREDENTIALS, uploads: { persistence: { enabled: false } } })).toMatch(
      /Give uploads.persistence a ReadWriteMany claim/,
    );
    expect(await error({ ...CREDENTIALS, tokenServer: { enabled: true, apiKey: 'k' } })).toMatch(
      /tokenServer.appId is required/,
    );
    expect(await error({ ...CREDENTIALS, tokenServer: { enabled: true, appId: 'app_test' } })).toMatch(
      /set tokenServer.apiKey .* or tokenServer.existingSecret/,
    );
  });
});
