import type { Knex } from 'knex';

const HOT_TABLES = ['events', 'visitors', 'clicks', 'identity_links'];

/**
 * The tables every ingested event writes lose their foreign key to `workspaces`: PostgreSQL checked it with a trigger
 * per row that share-locked the workspace's row, so concurrent batches of a workspace queued on that one row (and made
 * a MultiXact per lock). Ingest writes only for a workspace its API key resolved to; no code deletes workspaces.
 * Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of HOT_TABLES) await knex.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_workspace_id_foreign`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of HOT_TABLES) {
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_workspace_id_foreign FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE`);
  }
}
