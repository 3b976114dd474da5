import type { FastifyPluginAsync } from 'fastify';
import type { IngestMetrics } from './metrics';

/** Prometheus text format; counts only, no identifiers, so it needs no auth. */
export const metricsRoutes: FastifyPluginAsync<{ metrics: IngestMetrics }> = async (app, { metrics }) => {
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
};
