import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import { STORAGE_RETRY_AFTER_SECONDS } from '../error-handler';

/** Liveness (the process answers) and readiness (PostgreSQL answers); both without auth, for load balancers. */
export const healthRoutes: FastifyPluginAsync<{ db: Knex }> = async (app, { db }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await db.raw('select 1');
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: database unreachable');
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ error: 'storage_unavailable', message: `the database is unreachable: ${(error as Error).message}` });
    }
  });
};
