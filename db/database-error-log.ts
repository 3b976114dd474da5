import { findDatabaseError, isDatabaseError } from './storage-errors';

/**
 * What a log line carries of an error PostgreSQL raised: its SQLSTATE, its own message and hint, and the names it gives
 * (table, column, constraint, the server's routine). Never the values: `detail` quotes them ("Key (email)=(…) already
 * exists", "Failing row contains (…)"), `where` quotes the JSON it could not read, and pg keeps no statement
 * parameters on the error; a data exception's message (SQLSTATE class 22) quotes the refused value, which is replaced.
 * The other classes' messages name only the schema (relations, columns, constraints, types) and the statement's words.
 */
export interface DatabaseErrorLog {
  sqlstate: string;
  message: string;
  severity?: string;
  hint?: string;
  table?: string;
  column?: string;
  constraint?: string;
  routine?: string;
}

/** knex puts the failed statement (placeholders, no values: compileSqlOnError is off) before PostgreSQL's message. */
const statementOf = new WeakMap<object, string>();

/** Called by knex's `query-error` event (db/knex.ts), so that PostgreSQL's own message can be told from the statement. */
export function rememberStatement(error: unknown, sql: string): void {
  if (typeof error === 'object' && error !== null) statementOf.set(error, sql);
}

const DATA_EXCEPTION = /^22/;
/** From a data exception's first quote to its last: the refused value, whatever quotes it holds itself. */
const QUOTED_VALUE = /".*"/s;

function ownMessage(error: Error): string {
  const { message } = error;
  const statement = statementOf.get(error);
  return statement !== undefined && message.startsWith(`${statement} - `) ? message.slice(statement.length + 3) : message;
}

/** The fields of pg's DatabaseError that hold names and PostgreSQL's words, never a value. */
const NAMED_FIELDS = ['severity', 'hint', 'table', 'column', 'constraint', 'routine'] as const;

/** The loggable part of the PostgreSQL error `error` is or wraps; undefined when PostgreSQL did not raise it. */
export function databaseErrorLog(error: unknown): DatabaseErrorLog | undefined {
  const found = findDatabaseError(error);
  if (found === undefined) return undefined;
  const message = ownMessage(found);
  const fields = found as Partial<Record<(typeof NAMED_FIELDS)[number], unknown>>;
  return {
    sqlstate: found.code,
    message: DATA_EXCEPTION.test(found.code) ? message.replace(QUOTED_VALUE, '"…"') : message,
    ...Object.fromEntries(NAMED_FIELDS.flatMap((name) => (typeof fields[name] === 'string' ? [[name, fields[name]]] : []))),
  };
}

/**
 * A log serializer's output (pino's `err`) for `error`: where `error`, or an error in its `cause` chain, is PostgreSQL's,
 * that one is written as databaseErrorLog keeps it, with `code` the SQLSTATE, and without its stack (pg's parser, whose
 * first line repeats the message as raised).
 */
export function withoutDatabaseValues(serialized: Record<string, unknown>, error: unknown, depth = 0): Record<string, unknown> {
  if (typeof error !== 'object' || error === null || depth > 4) return serialized;
  const cause = (error as { cause?: unknown }).cause;
  const serializedCause = serialized.cause;
  const rest =
    typeof serializedCause === 'object' && serializedCause !== null
      ? { cause: withoutDatabaseValues(serializedCause as Record<string, unknown>, cause, depth + 1) }
      : {};
  if (!isDatabaseError(error)) return { ...serialized, ...rest };
  const { sqlstate, ...log } = databaseErrorLog(error) as DatabaseErrorLog;
  return { type: serialized.type, code: sqlstate, ...log, ...rest };
}
