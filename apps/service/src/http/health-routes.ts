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
}

const checkSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    region: { type: 'string' },
    version: { type: 'string' },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

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
        summary: 'Readiness: shared store and engine',
        tags: ['ops'],
        response: { 200: checkSchema, 503: checkSchema },
      },
    },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      try {
        await deps.store.ping();
        checks.store = `ok (${deps.store.kind})`;
      } catch (error) {
        checks.store = `unavailable: ${(error as Error).message}`;
      }
      checks.engine = deps.engine.ready() ? `ok (${deps.engine.mode})` : 'unavailable';
      const ready = Object.values(checks).every((c) => c.startsWith('ok'));
      reply.code(ready ? 200 : 503);
      return { status: ready ? 'ready' : 'unavailable', region: deps.region, version: deps.version, checks };
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
