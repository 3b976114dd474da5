import { Client, type QueryConfig } from 'pg';

export interface ReadinessOptions {
  connectionString: string;
  /** Connecting and answering `select 1` together. */
  timeoutMs: number;
  /** The migrations the database has not run yet (`db/migration-status.ts`); the schema is not checked without it. */
  pendingMigrations?: () => Promise<string[]>;
  /** How long an answer naming pending migrations is reused before the database is asked again. */
  schemaRecheckMs?: number;
}

/** PostgreSQL answers, but its schema is behind this code: `signalbox migrate` has not run. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(`database migrations pending: ${pending.join(', ')}; run \`signalbox migrate\``);
    this.name = 'SchemaBehindError';
  }
}

/** Resolves when PostgreSQL answers with the schema this code needs; rejects when not (SchemaBehindError) or not in time. */
export type ReadinessCheck = () => Promise<void>;

async function askPostgres(connectionString: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const client = new Client({ connectionString, connectionTimeoutMillis: timeoutMs, application_name: 'signalbox-readiness' });
  client.on('error', () => undefined); // the socket of a stalled server is destroyed after the answer was given
  try {
    await client.connect();
    // pg reads `query_timeout` per query too; its type declarations leave it out.
    await client.query({ text: 'select 1', query_timeout: Math.max(1, deadline - Date.now()) } as QueryConfig);
  } finally {
    // With a query still in flight, end() destroys the socket instead of waiting for the server.
    void client.end().catch(() => undefined);
  }
}

/**
 * Asks PostgreSQL on a connection of its own, so that a full or stalled pool neither delays the probe nor loses a
 * connection to it. Concurrent probes share one attempt: unauthenticated callers cannot open connections at will.
 * The schema is checked until it is found up to date, which it then stays for this process (code and migrations ship
 * together); an answer naming pending migrations is reused for `schemaRecheckMs`.
 */
export function createReadinessCheck({ connectionString, timeoutMs, pendingMigrations, schemaRecheckMs = 5_000 }: ReadinessOptions): ReadinessCheck {
  let inFlight: Promise<void> | undefined;
  let schema: { pending: string[]; askedAt: number } | undefined;

  async function checkSchema(pendingMigrations: () => Promise<string[]>): Promise<void> {
    if (schema === undefined || (schema.pending.length > 0 && Date.now() - schema.askedAt >= schemaRecheckMs)) {
      schema = { pending: await pendingMigrations(), askedAt: Date.now() };
    }
    if (schema.pending.length > 0) throw new SchemaBehindError(schema.pending);
  }

  async function probe(): Promise<void> {
    await askPostgres(connectionString, timeoutMs);
    if (pendingMigrations !== undefined) await checkSchema(pendingMigrations);
  }

  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
