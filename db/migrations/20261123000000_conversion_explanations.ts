import type { Knex } from 'knex';

/**
 * What explains a conversion to the people who own it (the console, `conversions show`): warnings found at ingest,
 * where each match key came from, the identity path that found the click, and a timeline of its steps and delivery
 * attempts; a repeated event points at the conversion it repeats; every change to a workspace's settings is logged.
 * Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => {
    t.jsonb('warnings').notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.jsonb('match_keys');
    t.jsonb('identity_path');
  });
  await knex.schema.alterTable('events', (t) => {
    t.uuid('duplicate_of_conversion_id').references('conversions.id').onDelete('SET NULL');
  });

  await knex.schema.createTable('conversion_history', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('conversion_id').notNullable().references('conversions.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('step').notNullable();
    t.jsonb('detail').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
    t.index(['conversion_id', 'id']);
  });

  await knex.schema.createTable('change_log', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.text('target');
    t.jsonb('before');
    t.jsonb('after');
    t.index(['workspace_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('change_log');
  await knex.schema.dropTable('conversion_history');
  await knex.schema.alterTable('events', (t) => t.dropColumn('duplicate_of_conversion_id'));
  await knex.schema.alterTable('conversions', (t) => {
    t.dropColumn('identity_path');
    t.dropColumn('match_keys');
    t.dropColumn('warnings');
  });
}
