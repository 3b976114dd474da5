import path from 'node:path';
import knex, { type Knex } from 'knex';
import { types, type Client } from 'pg';
import type { DatabaseTimeoutEnv } from '../config/env';
import { rememberStatement } from './database-error-log';
import { migrationSource } from './migration-source';

// Money and counts come back as exact strings unless parsed: bigint IDs stay strings, numerics become numbers.
types.setTypeParser(types.builtins.NUMERIC, (value) => Number(value));

/** Where the migrations are, which of their files run (the compiled ones, or the sources under ts), and their log. */
export const MIGRATIONS = {
  directory: path.join(__dirname, 'migrations'),
  extension: path.extname(__filename) === '.ts' ? '.ts' : '.js',
  table: 'knex_migrations',
};

export const migrationConfig: Knex.MigratorConfig = {
  migrationSource: migrationSource(MIGRATIONS.directory, MIGRATIONS.extension),
  tableName: MIGRATIONS.table,
};

/** How much longer than the server's `statement_timeout` the client waits for a server that stopped answering. */
export const STALLED_SERVER_GRACE_MS = 1_000;

export interface DatabaseTimeouts {
  connectMs: number;
  /** Waiting for a pooled connection, opening one included. */
  acquireMs: number;
  statementMs: number;
  idleInTransactionMs: number;
}

export function databaseTimeouts(env: DatabaseTimeoutEnv): DatabaseTimeouts {
  return {
    connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    acquireMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
    statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}

export interface DatabaseLogger {
  warn(message: string): void;
}

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
  /** Without them (tests, migrations, benchmarks) nothing times out. */
  timeouts?: DatabaseTimeouts;
  /** Where knex's own warnings (e.g. a failed connection attempt) go; default: the console. */
  logger?: DatabaseLogger;
}

const READ_TIMEOUT_MESSAGE = 'Query read timeout';

type QueryCallback = (error: Error | null, result: unknown) => void;

/**
 * pg's `query_timeout` answers the caller but leaves the query on the wire, so a transaction's ROLLBACK would queue
 * behind it and wait a second deadline. Closing the connection fails whatever is queued at once; the pool then
 * replaces it (pg's `end()` destroys the socket of a connection with a query in flight). Both ways of calling `query`
 * keep working: with a callback (knex) and without one, for a promise (named statements on a lent connection).
 */
function closeOnReadTimeout(connection: Client): void {
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  const closingOnTimeout = (callback: QueryCallback): QueryCallback => (error, result) => {
    if (error?.message === READ_TIMEOUT_MESSAGE) void connection.end().catch(() => undefined);
    callback(error, result);
  };
  (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === 'function') return query(...args.slice(0, -1), closingOnTimeout(last as QueryCallback));
    if (typeof (args[0] as { submit?: unknown }).submit === 'function') return query(...args); // a cursor or stream reports its own errors
    return new Promise((resolve, reject) => {
      query(...args, closingOnTimeout((error, result) => (error ? reject(error) : resolve(result))));
    });
  };
}

function connectionSettings(url: string, timeouts: DatabaseTimeouts | undefined) {
  const base = { connectionString: url, application_name: 'signalbox' };
  if (timeouts === undefined) return base;
  return {
    ...base,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + STALLED_SERVER_GRACE_MS,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  };
}

export function createDatabase({ url, poolMax = 10, timeouts, logger }: DatabaseOptions): Knex {
  const pool: Knex.PoolConfig = { min: 0, max: poolMax };
  if (timeouts !== undefined) {
    pool.afterCreate = (connection: Client, done: (error: Error | null, connection: Client) => void) => {
      closeOnReadTimeout(connection);
      done(null, connection);
    };
    // A connection whose last query never finished (read timeout) is not handed out again.
    pool.validate = (connection: Client & { readyForQuery?: boolean }) => connection.readyForQuery === true;
  }
  const db = knex({
    client: 'pg',
    connection: connectionSettings(url, timeouts),
    pool,
    ...(timeouts === undefined ? {} : { acquireConnectionTimeout: timeouts.acquireMs }),
    ...(logger === undefined ? {} : { log: { warn: (message: string) => logger.warn(String(message)) } }),
    // Knex would otherwise write every bound value (messages, emails, key hashes) into a failed query's error message.
    compileSqlOnError: false,
    migrations: migrationConfig,
  });
  db.on('query-error', (error: unknown, query: { sql: string }) => rememberStatement(error, query.sql));
  return db;
}

export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** Runs the migrations before `name` (a file name without its extension), as a database of an earlier release has them. */
export async function migrateUpTo(db: Knex, name: string): Promise<void> {
  for (;;) {
    const [, pending] = (await db.migrate.list(migrationConfig)) as [unknown[], { file: string }[]];
    if (pending[0] === undefined || pending[0].file.startsWith(name)) return;
    await db.migrate.up(migrationConfig);
  }
}

/** Undoes migrations, newest first, until `name` (a file's name without its extension) is undone too. */
export async function migrateDownThrough(db: Knex, name: string): Promise<void> {
  for (;;) {
    const [completed] = (await db.migrate.list(migrationConfig)) as [{ name: string }[], unknown[]];
    const newest = completed.at(-1);
    if (newest === undefined || newest.name < name) return;
    await db.migrate.down(migrationConfig);
  }
}
