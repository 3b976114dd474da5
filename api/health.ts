import type { FastifyPluginAsync } from 'fastify';
import { STORAGE_RETRY_AFTER_SECONDS } from './error-handler';
import type { ReadinessCheck } from '../db/readiness';

/**
 * Liveness (the process answers) and readiness (PostgreSQL answers); both without auth, for load balancers, so the
 * answer names no error: the reason goes to the log.
 */
export const healthRoutes: FastifyPluginAsync<{ checkReadiness: ReadinessCheck }> = async (app, { checkReadiness }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await checkReadiness();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: PostgreSQL did not answer');
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' });
    }
  });
};
