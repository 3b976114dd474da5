import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 30: conversions get a retention period per workspace too (90 days by default, at least TikTok's 28-day
 * attribution window); retention deletes the settled ones past it, oldest first, by when they were created.
 * Frozen: imports no application code.
 */
export const config = { transaction: false };

export const steps: MigrationStep[] = [
  {
    does: 'workspaces: add the conversion retention column (a constant default: no rewrite) and its CHECK',
    locks: 'ACCESS EXCLUSIVE on workspaces (the CHECK reads each workspace under it)',
    waits: 'ingest and the pipeline wait to read a workspace while it waits for running transactions on workspaces (no time limit: run it when no long transaction holds workspaces)',
  },
  {
    does: 'conversions: index of the settled ones by creation, built CONCURRENTLY',
    locks: 'SHARE UPDATE EXCLUSIVE on conversions',
    waits: 'ingest and the pipeline never wait',
    secondsPerMillion: { conversions: 4.8 },
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE workspaces ADD COLUMN conversion_retention_days integer NOT NULL DEFAULT 90,
                  ADD CONSTRAINT conversion_retention_range CHECK (conversion_retention_days BETWEEN 28 AND 3650)`);
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_settled_by_creation ON conversions (workspace_id, created_at) WHERE status <> 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_settled_by_creation');
  await knex.raw('ALTER TABLE workspaces DROP COLUMN conversion_retention_days');
}
