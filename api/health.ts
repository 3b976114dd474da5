import type { FastifyPluginAsync } from 'fastify';
import { STORAGE_RETRY_AFTER_SECONDS } from './error-handler';
import { SchemaAheadError, SchemaBehindError, type ReadinessCheck } from '../db/readiness';

/**
 * Liveness (the process answers) and readiness (PostgreSQL answers, with the schema this code needs); both without
 * auth, for load balancers, so the answer names no error: the reason goes to the log. Pending migrations are named:
 * they are this code's own file names, and the deploy that forgot `signalbox migrate` needs to see them; so are a newer
 * build's, which are public in its release.
 */
export const healthRoutes: FastifyPluginAsync<{ checkReadiness: ReadinessCheck }> = async (app, { checkReadiness }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await checkReadiness();
      return { status: 'ready' };
    } catch (error) {
      reply.code(503).header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS));
      if (error instanceof SchemaBehindError) {
        request.log.warn({ pendingMigrations: error.pending }, 'readiness check: database migrations pending');
        return { status: 'not_ready', error: 'schema_behind', message: error.message, pendingMigrations: error.pending };
      }
      if (error instanceof SchemaAheadError) {
        request.log.warn({ newerMigrations: error.newer }, `readiness check: ${error.message}`);
        return { status: 'not_ready', error: 'schema_ahead', message: error.message, newerMigrations: error.newer };
      }
      request.log.warn({ err: error }, 'readiness check: PostgreSQL did not answer');
      return { status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' };
    }
  });
};
