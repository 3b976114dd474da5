import type { Knex } from 'knex';

export const GROWTH_TABLES = ['events', 'conversions', 'visitors', 'clicks', 'identity_links'] as const;

export interface TableFootprint {
  table: string;
  rows: number;
  /** Table, TOAST and indexes. */
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
