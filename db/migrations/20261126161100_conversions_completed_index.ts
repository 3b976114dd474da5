import type { Knex } from 'knex';

/**
 * The alerts' share of failed deliveries in the last hour reads a workspace's settled conversions by when they
 * ended: without this index that is a scan of the workspace's conversions every minute. Built CONCURRENTLY so that
 * ingest keeps writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_settled_by_completion ON conversions (workspace_id, completed_at) INCLUDE (status) WHERE status IN ('delivered','failed')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_settled_by_completion');
}
