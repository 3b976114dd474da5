import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { EVENT_COPY_COLUMNS, eventCsvLine, type BenchEvent } from './workload';

/**
 * PostgreSQL's own bulk path for the same `events` rows: one COPY, one transaction. Returns the seconds from start to
 * commit and what `whenDone` returned, called before the connection closes (its backend's CPU is still readable).
 */
export async function copyEvents<T>(url: string, workspaceId: string, events: readonly BenchEvent[], whenDone: () => T): Promise<{ seconds: number; done: T }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const lines = events.map((event) => eventCsvLine(workspaceId, event));
    const started = performance.now();
    await pipeline(Readable.from(lines), client.query(copyFrom(`COPY events ${EVENT_COPY_COLUMNS} FROM STDIN WITH (FORMAT csv)`)));
    return { seconds: (performance.now() - started) / 1000, done: whenDone() };
  } finally {
    await client.end();
  }
}
