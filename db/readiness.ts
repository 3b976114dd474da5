import { Client, type QueryConfig } from 'pg';

export interface ReadinessOptions {
  connectionString: string;
  /** Connecting and answering `select 1` together. */
  timeoutMs: number;
}

/** Resolves when PostgreSQL answers, rejects when it does not within the deadline. */
export type ReadinessCheck = () => Promise<void>;

/**
 * Asks PostgreSQL on a connection of its own, so that a full or stalled pool neither delays the probe nor loses a
 * connection to it. Concurrent probes share one attempt: unauthenticated callers cannot open connections at will.
 */
export function createReadinessCheck({ connectionString, timeoutMs }: ReadinessOptions): ReadinessCheck {
  let inFlight: Promise<void> | undefined;

  async function probe(): Promise<void> {
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

  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
