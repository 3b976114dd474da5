import type { Knex } from 'knex';

/**
 * Conversions set aside with `internal_error` (issue 19), counted by every scrape of `/metrics`: a partial index of
 * what should be a handful of rows, so the count never reads the table. Built CONCURRENTLY so that ingest keeps
 * writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_internal_error ON conversions (workspace_id) WHERE status = 'failed' AND reason = 'internal_error'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_internal_error');
}
