import type { Knex } from 'knex';

/**
 * Issue 18: a workspace may have conversions without a click inside the attribution window sent all the same, for
 * TikTok to match on its other keys. Each such conversion says so, and the overview's hourly rollup counts them apart
 * from click-attributed ones (part of its key). Constant defaults: no table is rewritten. Frozen: imports no
 * application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('match_without_click').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('conversions', (t) => {
    t.boolean('sent_without_click').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('conversion_counts_hourly', (t) => {
    t.boolean('sent_without_click').notNullable().defaultTo(false);
    t.dropPrimary();
    t.primary(['workspace_id', 'hour', 'tiktok_event', 'status', 'reason', 'tiktok_code', 'test_mode', 'sent_without_click']);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Rows of the two kinds would collide under the old key: the rollup is emptied and rebuilt by its next run.
  await knex('conversion_counts_hourly').delete();
  await knex('rollup_progress').where({ name: 'conversion_counts_hourly' }).delete();
  await knex.schema.alterTable('conversion_counts_hourly', (t) => {
    t.dropPrimary();
    t.primary(['workspace_id', 'hour', 'tiktok_event', 'status', 'reason', 'tiktok_code', 'test_mode']);
    t.dropColumn('sent_without_click');
  });
  await knex.schema.alterTable('conversions', (t) => t.dropColumn('sent_without_click'));
  await knex.schema.alterTable('workspaces', (t) => t.dropColumn('match_without_click'));
}
