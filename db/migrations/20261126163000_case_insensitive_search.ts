import type { Knex } from 'knex';

/**
 * The console's conversion search in any letter case (issue 20): an order ID or event_id through `lower(event_id)`,
 * an anonymous ID through the visitors and a user ID through its identity links, each by `lower()` of its value.
 * Not on the events table: two more indexes there would slow every ingest. Built CONCURRENTLY so that ingest keeps
 * writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_event_id_lower ON conversions (workspace_id, lower(event_id))');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS visitors_anonymous_id_lower ON visitors (workspace_id, lower(anonymous_id))');
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS identity_links_user_id_lower ON identity_links (workspace_id, lower(from_value)) WHERE from_kind = 'user_id'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS identity_links_user_id_lower');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS visitors_anonymous_id_lower');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_event_id_lower');
}
