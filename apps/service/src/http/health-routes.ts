/** GET /healthz (process up), /readyz (can take sessions), /metrics (Prometheus). */
import type { FastifyInstance } from 'fastify';
import type { EnginePool } from '../engine-pool/engine-pool.js';
import type { ServiceMetrics } from '../metrics.js';
import type { SharedStore } from '../store/shared-store.js';

export interface HealthRouteDeps {
  region: string;
  store: SharedStore;
  engine: EnginePool;
  metrics: ServiceMetrics;
  version: string;
  /** Files of the avatars directory that were skipped: /readyz lists them as warnings. */
  avatarProblems?: () => readonly { file: string; reason: string }[];
  /** True once the node drains (SIGTERM): /readyz answers 503 so load balancers send no more. */
  isDraining?: () => boolean;
  /** Set while the node refuses new sessions for overload (why): /readyz answers 503 meanwhile. */
  overload?: () => string | undefined;
}

const checkSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    region: { type: 'string' },
    version: { type: 'string' },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
    warnings: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** What an operator should know about the store that does not stop the node from serving. */
async function storeWarnings(store: SharedStore): Promise<string[]> {
  if (!store.persistence) return [];
  try {
    const { state, detail } = await store.persistence();
    if (state === 'on') return [];
    return [
      `store persistence ${state} (${detail}): after a Redis restart, session tokens already used work once more until they expire. Enable RDB or AOF persistence on this Redis.`,
    ];
  } catch {
    return [];
  }
}

export async function healthRoutes(app: FastifyInstance, deps: HealthRouteDeps): Promise<void> {
  app.get(
    '/healthz',
    { schema: { summary: 'Liveness', tags: ['ops'], response: { 200: checkSchema } } },
    async () => ({ status: 'ok', region: deps.region, version: deps.version }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: shared store and engine, not draining, not overloaded',
        tags: ['ops'],
        response: { 200: checkSchema, 503: checkSchema },
      },
    },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      if (deps.isDraining?.()) checks.drain = 'draining: finishing open utterances, taking no new sessions';
      const overload = deps.overload?.();
      if (overload) checks.load = `overloaded: refusing new sessions (${overload})`;
      try {
        await deps.store.ping();
        checks.store = `ok (${deps.store.kind})`;
      } catch (error) {
        checks.store = `unavailable: ${(error as Error).message}`;
      }
      checks.engine = deps.engine.ready() ? `ok (${deps.engine.mode})` : 'unavailable';
      const ready = Object.values(checks).every((c) => c.startsWith('ok'));
      const warnings = ready ? await storeWarnings(deps.store) : [];
      for (const p of deps.avatarProblems?.() ?? [])
        warnings.push(`avatar file ${p.file} skipped: ${p.reason}`);
      reply.code(ready ? 200 : 503);
      return {
        status: ready ? 'ready' : 'unavailable',
        region: deps.region,
        version: deps.version,
        checks,
        ...(warnings.length > 0 && { warnings }),
      };
    },
  );
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['ops'],
        response: { 200: { type: 'string', description: 'Prometheus text exposition format.' } },
      },
    },
    async (_request, reply) => {
      reply.header('content-type', deps.metrics.registry.contentType);
      return deps.metrics.registry.metrics();
    },
  );
}
