import fastify from 'fastify';
import type { Registry } from 'prom-client';
import type { ReadinessReport } from './readiness';

export interface HealthServerOptions {
  host: string;
  port: number;
  readiness: () => Promise<ReadinessReport>;
  metrics: Registry;
}

export interface RunningHealthServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's `/healthz` (the process answers), `/readyz` (200 ready, 503 naming each check that is not) and
 * `/metrics` (Prometheus text). No auth: they carry counts and check names, never data.
 */
export async function startHealthServer({ host, port, readiness, metrics }: HealthServerOptions): Promise<RunningHealthServer> {
  const app = fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { ready, checks } = await readiness();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()));
  const url = await app.listen({ host, port });
  return { url, close: () => app.close() };
}
