const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
// PostgreSQL SQLSTATEs meaning "cannot serve you right now": class 08 (connection exception), 40 (serialization
// failure, deadlock), 53 (insufficient resources), 57 (query canceled by statement_timeout, shutdowns), 58 (system
// error), 25P03 (idle_in_transaction_session_timeout), 55P03 (lock not available).
const UNAVAILABLE_SQLSTATES = /^(08...|40...|53...|57...|58...|25P03|55P03)$/;
// pg and knex report deadlines and dead connections only in the message: a connection that timed out or closed, a
// query the client stopped waiting for (query_timeout), a pool with no connection to give.
const CONNECTION_MESSAGES =
  /Connection terminated|timeout expired|Query read timeout|is not queryable|Timeout acquiring a connection|the database system is (starting up|shutting down)/i;
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Storage could not serve in time or at all (a caller's own deadline, for example): retry later. */
export class StorageUnavailableError extends Error {}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function nestedErrors({ cause, errors }: ErrorLike): unknown[] {
  return [cause, ...(Array.isArray(errors) ? errors : [])];
}

/** True when PostgreSQL is unreachable or refusing work, so the client should retry later (503) rather than fix its request. */
export function isStorageUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { name, code, message } = error as ErrorLike;
  if (name === 'KnexTimeoutError' || error instanceof StorageUnavailableError) return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  return nestedErrors(error as ErrorLike).some((inner) => isStorageUnavailable(inner, depth + 1));
}

/**
 * The SQLSTATE of an error PostgreSQL raised (e.g. `22P05` for a NUL in text), undefined for anything else. Input that
 * validation let through but the database refused is still the server's failure: the client did nothing wrong.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  return findDatabaseError(error)?.code;
}

/** Whether PostgreSQL raised `error` itself (pg's DatabaseError: a SQLSTATE and a severity). */
export function isDatabaseError(error: unknown): error is Error & { code: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { code, severity } = error as ErrorLike;
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string';
}

/** The error PostgreSQL raised, `error` itself or one it wraps; undefined for anything else. */
export function findDatabaseError(error: unknown, depth = 0): (Error & { code: string }) | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  if (isDatabaseError(error)) return error;
  for (const inner of nestedErrors(error as ErrorLike)) {
    const found = findDatabaseError(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
