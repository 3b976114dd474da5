const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
// PostgreSQL SQLSTATEs meaning "cannot serve you right now": class 08 (connection exception), 53300
// too_many_connections, 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
const UNAVAILABLE_SQLSTATES = /^(08...|53300|57P0[123])$/;
const CONNECTION_MESSAGES = /Connection terminated|Timeout acquiring a connection|the database system is (starting up|shutting down)/i;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** True when PostgreSQL is unreachable or refusing work, so the client should retry later (503) rather than fix its request. */
export function isStorageUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { name, code, message, cause, errors } = error as ErrorLike;
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  const nested = [cause, ...(Array.isArray(errors) ? errors : [])];
  return nested.some((inner) => isStorageUnavailable(inner, depth + 1));
}
