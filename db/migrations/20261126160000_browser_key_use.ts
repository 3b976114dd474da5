import type { Knex } from 'knex';

/**
 * Issue 20's setup checklist: "the tracking script seen from an allowed origin". Ingest records on a browser key
 * when it last had events accepted and from which page origin (at most once a minute per key and process, after the
 * commit). Nullable columns: no table is rewritten. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.timestamp('last_used_at', { useTz: true });
    t.text('last_used_origin');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => t.dropColumns('last_used_at', 'last_used_origin'));
}
