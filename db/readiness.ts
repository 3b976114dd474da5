import { Client, type QueryConfig } from 'pg';
import type { ReadRows, SchemaAhead } from './migration-status';
import type { SchemaErrorWatch } from './schema-errors';

export interface ReadinessOptions {
  connectionString: string;
  /** Connecting and answering `select 1` together. */
  timeoutMs: number;
  /** The migrations the database has not run yet (`db/migration-status.ts`); the schema is not checked without it. */
  pendingMigrations?: () => Promise<string[]>;
  /**
   * What the database ran beyond this code (`db/migration-status.ts`), asked on the probe's own connection: the check
   * fails once a migration that breaks this build has run, or once the database is ahead and `schemaErrors` has seen
   * this process's statements refused for their schema for a few seconds. Not checked without it.
   */
  schemaAhead?: (read: ReadRows) => Promise<SchemaAhead>;
  /** The SQLSTATEs of the statements the database refused to this process (the API's error handler tells it). */
  schemaErrors?: SchemaErrorWatch;
  /** How long an answer about the schema (migrations pending, or a newer build's) is reused before the database is asked again. */
  schemaRecheckMs?: number;
}

/** The probes' answers about the schema are at most this old: what `/readyz` needs to see a migration, whatever the probe interval. */
export const SCHEMA_RECHECK_MS = 2_000;

/** PostgreSQL answers, but its schema is behind this code: `signalbox migrate` has not run. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(`database migrations pending: ${pending.join(', ')}; run \`signalbox migrate\``);
    this.name = 'SchemaBehindError';
  }
}

/** PostgreSQL answers, but a newer build migrated it past what this code can serve: its processes should take the traffic. */
export class SchemaAheadError extends Error {
  constructor(
    readonly newer: readonly string[],
    refusals: readonly string[] = [],
  ) {
    const why = refusals.length === 0 ? 'which this build cannot serve' : `and refuses this build's statements (SQLSTATE ${refusals.join(', ')})`;
    super(`the database was migrated by a newer build (${newer.join(', ')}) ${why}: send requests to the new build and stop this process`);
    this.name = 'SchemaAheadError';
  }
}

/** Resolves when PostgreSQL answers with the schema this code needs; rejects when not (SchemaBehindError, SchemaAheadError) or not in time. */
export type ReadinessCheck = () => Promise<void>;

/** `select 1`, then `more` on the same connection, all within `timeoutMs`. */
async function askPostgres(connectionString: string, timeoutMs: number, more: (read: ReadRows) => Promise<void>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const client = new Client({ connectionString, connectionTimeoutMillis: timeoutMs, application_name: 'signalbox-readiness' });
  client.on('error', () => undefined); // the socket of a stalled server is destroyed after the answer was given
  try {
    await client.connect();
    // pg reads `query_timeout` per query too; its type declarations leave it out.
    const read: ReadRows = (text) => client.query({ text, query_timeout: Math.max(1, deadline - Date.now()) } as QueryConfig);
    await read('select 1');
    await more(read);
  } finally {
    // With a query still in flight, end() destroys the socket instead of waiting for the server.
    void client.end().catch(() => undefined);
  }
}

/**
 * Asks PostgreSQL on a connection of its own, so that a full or stalled pool neither delays the probe nor loses a
 * connection to it. Concurrent probes share one attempt: unauthenticated callers cannot open connections at will.
 * Pending migrations are checked until the schema is found up to date, which it then stays for this process (code and
 * migrations ship together); a newer build's migrations, at every probe. Each answer about the schema is reused for
 * `schemaRecheckMs`. Refused for its schema while the database is ahead, the process stays not ready until the
 * database is no longer ahead (a migration undone): nothing else would make it serve again.
 */
export function createReadinessCheck({
  connectionString,
  timeoutMs,
  pendingMigrations,
  schemaAhead,
  schemaErrors,
  schemaRecheckMs = SCHEMA_RECHECK_MS,
}: ReadinessOptions): ReadinessCheck {
  let inFlight: Promise<void> | undefined;
  let schema: { pending: string[]; askedAt: number } | undefined;
  let ahead: { answer: SchemaAhead; askedAt: number } | undefined;
  let refusedFor: string[] = [];

  async function checkBehind(pendingMigrations: () => Promise<string[]>): Promise<void> {
    if (schema === undefined || (schema.pending.length > 0 && Date.now() - schema.askedAt >= schemaRecheckMs)) {
      schema = { pending: await pendingMigrations(), askedAt: Date.now() };
    }
    if (schema.pending.length > 0) throw new SchemaBehindError(schema.pending);
  }

  async function checkAhead(schemaAhead: (read: ReadRows) => Promise<SchemaAhead>, read: ReadRows): Promise<void> {
    if (ahead === undefined || Date.now() - ahead.askedAt >= schemaRecheckMs) ahead = { answer: await schemaAhead(read), askedAt: Date.now() };
    const { newer, breaking } = ahead.answer;
    if (breaking.length > 0) throw new SchemaAheadError(breaking);
    if (newer.length === 0) refusedFor = [];
    else if (refusedFor.length === 0) refusedFor = schemaErrors?.persisting() ?? [];
    if (refusedFor.length > 0) throw new SchemaAheadError(newer, refusedFor);
  }

  async function probe(): Promise<void> {
    await askPostgres(connectionString, timeoutMs, async (read) => {
      if (pendingMigrations !== undefined) await checkBehind(pendingMigrations);
      if (schemaAhead !== undefined) await checkAhead(schemaAhead, read);
    });
  }

  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
