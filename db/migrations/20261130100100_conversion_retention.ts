import type { Knex } from 'knex';

/**
 * Issue 30: conversions get a retention period per workspace too (90 days by default, at least TikTok's 28-day
 * attribution window); retention deletes the settled ones past it, oldest first, by when they were created.
 * Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE workspaces ADD COLUMN conversion_retention_days integer NOT NULL DEFAULT 90,
                  ADD CONSTRAINT conversion_retention_range CHECK (conversion_retention_days BETWEEN 28 AND 3650)`);
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_settled_by_creation ON conversions (workspace_id, created_at) WHERE status <> 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_settled_by_creation');
  await knex.raw('ALTER TABLE workspaces DROP COLUMN conversion_retention_days');
}
