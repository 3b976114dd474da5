import type { Knex } from 'knex';

/**
 * What the console's pages read fast on a workspace with millions of rows (bench/console): conversions by time with
 * the columns its figures group by (an index-only scan for the overview and the paged table), conversions by their
 * event (search by user or anonymous ID), and a BRIN on events.received_at for the hourly rollup, which reads one
 * closed hour of every workspace at a time (events arrive in received_at order, so it is a few pages and costs
 * ingest next to nothing). Built CONCURRENTLY so that ingest keeps writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS events_received_at_brin ON events USING brin (received_at)');
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_by_event_time ON conversions (workspace_id, event_time DESC, id DESC) INCLUDE (status, tiktok_event, reason, tiktok_code, test_mode)',
  );
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_by_event_row ON conversions (event_row_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_by_event_row');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_by_event_time');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS events_received_at_brin');
}
