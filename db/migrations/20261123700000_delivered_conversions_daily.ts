import type { Knex } from 'knex';

/**
 * The ad reports' delivered side on big workspaces: delivered production conversions per workspace, day in the
 * advertiser's time zone, the click's campaign, ad group and ad, and currency, rolled up off the ingest path by the
 * console-rollup job (below a line; reads count the rest live). A missing click ID is stored as '' so that
 * it can be part of the key. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('delivered_conversions_daily', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('campaign_id').notNullable();
    t.text('adgroup_id').notNullable();
    t.text('ad_id').notNullable();
    t.text('currency').notNullable();
    t.bigInteger('conversions').notNullable();
    // Null when none of them carried a value, as sum() is.
    t.decimal('value', null);
    t.primary(['workspace_id', 'day', 'campaign_id', 'adgroup_id', 'ad_id', 'currency']);
  });
  // The zone each workspace's days were rolled up in: rows of another zone than the advertiser's are never read.
  await knex.schema.createTable('delivered_conversions_daily_zones', (t) => {
    t.text('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.text('time_zone').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('delivered_conversions_daily_zones');
  await knex.schema.dropTable('delivered_conversions_daily');
}
