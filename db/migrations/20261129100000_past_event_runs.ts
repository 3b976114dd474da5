import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 31, "send past events": each run that turns a rule's stored events of the last days into conversions, with
 * where it got to (the last event done, by the order of the `events_received` index) and what it made, moved on in the
 * transaction that records each batch's conversions, so a run killed at any point carries on without doubles. At most
 * one run per rule at a time. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'create past_event_runs',
    locks: 'SHARE ROW EXCLUSIVE on workspaces (the new foreign key), a catalog change',
    waits: "ingest and the pipeline never wait (they only read workspaces); a change of a workspace's settings waits an instant",
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('past_event_runs', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('source_event').notNullable();
    t.integer('days').notNullable();
    // Events received in [since, until) whose event time is since `since` too.
    t.timestamp('since', { useTz: true }).notNullable();
    t.timestamp('until', { useTz: true }).notNullable();
    t.text('requested_by').notNullable();
    // The preview's counts when the run began.
    t.integer('events_to_send').notNullable();
    t.integer('conversions_to_send').notNullable();
    t.integer('events_scanned').notNullable().defaultTo(0);
    t.integer('conversions_created').notNullable().defaultTo(0);
    t.timestamp('cursor_received_at', { useTz: true });
    t.bigInteger('cursor_event_id');
    t.text('status').notNullable().defaultTo('running');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['workspace_id', 'source_event', 'id']);
  });
  await knex.raw("ALTER TABLE past_event_runs ADD CONSTRAINT past_event_run_status CHECK (status IN ('running','done','rule_removed'))");
  await knex.raw("CREATE UNIQUE INDEX past_event_runs_running ON past_event_runs (workspace_id, source_event) WHERE status = 'running'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('past_event_runs');
}
