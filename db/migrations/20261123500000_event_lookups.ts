import type { Knex } from 'knex';

/**
 * Reads of the events table that must stay fast on a workspace with millions of events: the events a workspace
 * received lately (newest first, and the unmapped event names of the last days with their counts, from the index
 * alone), and the events that repeat a conversion (also what PostgreSQL scans when that conversion is deleted).
 * Built CONCURRENTLY so that ingest keeps writing while an existing table is indexed. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS events_received ON events (workspace_id, received_at, id) INCLUDE (type, event_name)');
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS events_duplicate_of ON events (duplicate_of_conversion_id) WHERE duplicate_of_conversion_id IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS events_duplicate_of');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS events_received');
}
