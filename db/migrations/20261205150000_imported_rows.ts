import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 45: a file's rows are imported once. Ingest looks for a message ID in the day it is received and the day
 * before only, so a row imported again days later would be stored a second time (its conversion is not: conversions
 * are unique per TikTok event and event_id). The message IDs of imported rows are kept here, for as long as the
 * workspace. A new table. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'create imported_rows (workspace_id, message_id)',
    locks: 'SHARE ROW EXCLUSIVE on workspaces for a moment, for the foreign key',
    waits: 'a change to a workspace waits for that moment',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('imported_rows', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('message_id').notNullable();
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'message_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('imported_rows');
}
