import type { Knex } from 'knex';

/**
 * Personal data at rest: a retention period per workspace for raw events, the mark of an event whose raw message was
 * stripped (by retention or erasure), the index that lets an event's conversions be found without scanning them all
 * (retention and erasure ask it for every event they touch), and the log of erasure requests (identifiers as keyed
 * digests only). Retention walks events by (workspace_id, received_at), the index of the event-lookups migration.
 * Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.integer('event_retention_days').notNullable().defaultTo(30);
  });
  await knex.raw('ALTER TABLE workspaces ADD CONSTRAINT event_retention_range CHECK (event_retention_days BETWEEN 1 AND 3650)');

  await knex.schema.alterTable('events', (t) => {
    t.timestamp('stripped_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX conversions_event_row ON conversions (event_row_id)');

  await knex.schema.createTable('erasure_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('requested_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('actor').notNullable();
    t.jsonb('identifiers').notNullable();
    t.jsonb('erased').notNullable();
    t.index(['workspace_id', 'requested_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('erasure_requests');
  await knex.raw('DROP INDEX conversions_event_row');
  await knex.schema.alterTable('events', (t) => t.dropColumn('stripped_at'));
  await knex.raw('ALTER TABLE workspaces DROP CONSTRAINT event_retention_range');
  await knex.schema.alterTable('workspaces', (t) => t.dropColumn('event_retention_days'));
}
