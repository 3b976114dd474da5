import type { Knex } from 'knex';

export const GROWTH_TABLES = ['events', 'conversions', 'visitors', 'clicks', 'identity_links'] as const;

export interface TableFootprint {
  table: string;
  rows: number;
  /** Table, TOAST and indexes. */
  bytes: number;
}

/**
 * One part of `events` over all its partitions: the table itself, its TOAST, one index (by its parent's name), or the
 * indexes each day's partition keeps of its own (its `messageId` constraint's hash index, event-days.ts).
 */
export interface EventsPart {
  part: string;
  bytes: number;
}

/** Each table's size on disk with its indexes (a partitioned one's: its partitions') and its exact row count. */
export async function footprint(db: Knex): Promise<TableFootprint[]> {
  const result: TableFootprint[] = [];
  for (const table of GROWTH_TABLES) {
    const { rows } = await db.raw<{ rows: { bytes: string; rows: string }[] }>(`SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(?::regclass)), pg_total_relation_size(?::regclass)) AS bytes,
              (SELECT count(*) FROM ${table}) AS rows`, [table, table]);
    result.push({ table, rows: Number(rows[0]?.rows), bytes: Number(rows[0]?.bytes) });
  }
  return result;
}

/** Where the bytes of `events` are: its rows, their TOAST and each index, summed over the partitions. */
export async function eventsParts(db: Knex): Promise<EventsPart[]> {
  const { rows } = await db.raw<{ rows: { part: string; bytes: string }[] }>(
    `SELECT 'rows' AS part, sum(pg_relation_size(relid)) AS bytes FROM pg_partition_tree('events')
     UNION ALL SELECT 'TOAST', coalesce(sum(pg_total_relation_size(c.reltoastrelid)), 0) FROM pg_partition_tree('events') t JOIN pg_class c ON c.oid = t.relid WHERE c.reltoastrelid <> 0
     UNION ALL SELECT i.indexrelid::regclass::text, (SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree(i.indexrelid)) FROM pg_index i WHERE i.indrelid = 'events'::regclass
     UNION ALL SELECT 'days'' own (messageId hash)', coalesce(sum(pg_relation_size(i.indexrelid)), 0) FROM pg_partition_tree('events') t JOIN pg_index i ON i.indrelid = t.relid
       WHERE t.isleaf AND NOT EXISTS (SELECT FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)`,
  );
  return rows.map((r) => ({ part: r.part, bytes: Number(r.bytes) }));
}
