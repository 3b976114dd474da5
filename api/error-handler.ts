import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serviceErrorAsHttp } from './services/service-errors';
import { databaseErrorLog } from '../db/database-error-log';
import { isStorageUnavailable } from '../db/storage-errors';
import type { SchemaErrorWatch } from '../db/schema-errors';

/** Seconds a client should wait before retrying while PostgreSQL is unavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

interface ErrorBody {
  error: string;
  message: string;
  issues?: readonly string[];
  details?: Readonly<Record<string, unknown>>;
}

function describeFrameworkError(error: FastifyError, request: FastifyRequest): ErrorBody & { status: number } {
  const status = error.statusCode ?? 500;
  if (status === 413) {
    const limit = request.routeOptions.bodyLimit;
    return { status, error: 'payload_too_large', message: `request body exceeds the limit of ${limit} bytes (uncompressed)` };
  }
  if (status === 415) {
    return { status, error: 'unsupported_media_type', message: `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported: send application/json` };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status, error: 'invalid_request', message: 'body is not valid JSON' };
  }
  if (status >= 400 && status < 500) return { status, error: 'invalid_request', message: error.message };
  return { status: 500, error: 'internal_error', message: 'internal error; the server log has the details' };
}

/**
 * Every error leaves as `{ error, message }` (plus `issues` for validation, `details` for facts), whatever raised it.
 * The database's refusals are told to `schemaErrors`, which readiness watches for a newer build's schema.
 */
export function registerErrorHandling(app: FastifyInstance, schemaErrors?: SchemaErrorWatch): void {
  app.setErrorHandler(async (error: FastifyError, request, reply: FastifyReply) => {
    const known = serviceErrorAsHttp(error);
    if (known !== undefined) {
      if (known.statusCode >= 500) request.log.error({ err: error }, known.message);
      const body: ErrorBody = { error: known.code, message: known.message };
      if (known.issues) body.issues = known.issues;
      if (known.details) body.details = known.details;
      return reply.code(known.statusCode).headers(known.headers).send(body);
    }
    if (isStorageUnavailable(error)) {
      request.log.warn({ err: error }, 'storage unavailable');
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ error: 'storage_unavailable', message: `the database is unavailable; retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds` });
    }
    const database = databaseErrorLog(error);
    if (database !== undefined) {
      const { sqlstate } = database;
      schemaErrors?.note(sqlstate);
      // Validation should have refused whatever PostgreSQL refuses: nothing was stored, and the fault is ours. The log
      // gets PostgreSQL's message and names, never the values its detail quotes (db/database-error-log.ts).
      request.log.error({ database }, 'the database refused a request that passed validation');
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ error: 'storage_error', message: `the database could not store this request (SQLSTATE ${sqlstate}); nothing was stored; retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds` });
    }
    const { status, ...body } = describeFrameworkError(error, request);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: 'not_found', message: `${request.method} ${request.url.split('?')[0]} is not a route of this API` }),
  );
}
