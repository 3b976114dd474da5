import type { Knex } from 'knex';

/**
 * Partial indexes of delivered production conversions, a small part of the table: by TikTok event and time for the
 * overview's activity figures (the newest delivery of an event that has none no longer scans the workspace), and by
 * time with what the ad reports add up, for the live days of the reports and their daily rollup (index-only). The
 * latter replaces the reports' former index by campaign. Built CONCURRENTLY so that ingest keeps writing. Frozen:
 * imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_delivered_by_event ON conversions (workspace_id, tiktok_event, event_time) WHERE status = 'delivered' AND NOT test_mode",
  );
  await knex.raw(
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_delivered_by_time ON conversions (workspace_id, event_time)
     INCLUDE (click_campaign_id, click_adgroup_id, click_ad_id, currency, value) WHERE status = 'delivered' AND NOT test_mode`,
  );
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_delivered_by_campaign');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_delivered_by_campaign ON conversions (workspace_id, click_campaign_id, event_time) WHERE status = 'delivered' AND click_campaign_id IS NOT NULL",
  );
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_delivered_by_time');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_delivered_by_event');
}
