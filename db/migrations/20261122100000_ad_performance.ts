import type { Knex } from 'knex';

/**
 * TikTok connection via OAuth (granted permissions, accessible advertisers, single-use OAuth states), the ad a click
 * came from (carried onto its conversion), and pulled ad statistics. Frozen: migrations import no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tiktok_connections', (t) => {
    // Permission IDs of the `scope` array as strings (some exceed 2^53); null for a manually entered token.
    t.specificType('granted_scopes', 'text[]');
    // [{ advertiserId, advertiserName }] as listed by oauth2/advertiser/get at connection time.
    t.jsonb('accessible_advertisers');
    t.timestamp('authorized_at', { useTz: true });
    t.timestamp('stats_pulled_at', { useTz: true });
    t.text('stats_pull_error');
  });
  await knex.raw("ALTER TABLE tiktok_connections ADD CONSTRAINT tiktok_connection_status CHECK (status IN ('active','reauthorization_required'))");

  // Each OAuth `state` nonce may complete one authorization; expired rows are pruned as new ones arrive.
  await knex.schema.createTable('oauth_state_uses', (t) => {
    t.text('nonce').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
  });

  await knex.schema.alterTable('clicks', (t) => {
    t.text('campaign_id');
    t.text('adgroup_id');
    t.text('ad_id');
  });
  await knex.schema.alterTable('conversions', (t) => {
    t.text('click_campaign_id');
    t.text('click_adgroup_id');
    t.text('click_ad_id');
  });
  await knex.raw(
    "CREATE INDEX conversions_delivered_by_campaign ON conversions (workspace_id, click_campaign_id, event_time) WHERE status = 'delivered' AND click_campaign_id IS NOT NULL",
  );

  // Names and status of campaigns, ad groups and ads (entity endpoints and attribute metrics).
  await knex.schema.createTable('ad_entities', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('level').notNullable();
    t.text('entity_id').notNullable();
    t.text('advertiser_id').notNullable();
    t.text('campaign_id');
    t.text('adgroup_id');
    t.text('name');
    t.text('status');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'level', 'entity_id']);
  });

  // One row per entity and day as TikTok last reported it; a re-pull overwrites it.
  // No foreign key: its per-row check would cost a pull of 200,000 rows most of a second; the trigger below removes a
  // deleted workspace's rows instead, as ON DELETE CASCADE would.
  await knex.schema.createTable('ad_stats_daily', (t) => {
    t.text('workspace_id').notNullable();
    // Byte-order collation on the key: these are identifiers, never sorted for people, and comparisons stay cheap.
    t.specificType('level', 'text COLLATE "C"').notNullable();
    t.specificType('entity_id', 'text COLLATE "C"').notNullable();
    t.date('stat_date').notNullable();
    t.text('advertiser_id').notNullable();
    t.text('campaign_id').notNullable();
    t.text('adgroup_id');
    t.specificType('spend', 'numeric');
    t.bigInteger('impressions');
    t.bigInteger('clicks');
    t.bigInteger('conversions');
    t.specificType('conversion_value', 'numeric');
    t.timestamp('pulled_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The key serves the reports too (workspace and level, then a date filter); a second index would slow every pull.
    t.primary(['workspace_id', 'level', 'entity_id', 'stat_date']);
  });
  await knex.raw(`
    CREATE FUNCTION delete_workspace_ad_stats() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ad_stats_daily WHERE workspace_id = OLD.id;
      RETURN OLD;
    END $$`);
  await knex.raw('CREATE TRIGGER workspaces_delete_ad_stats AFTER DELETE ON workspaces FOR EACH ROW EXECUTE FUNCTION delete_workspace_ad_stats()');
  for (const table of ['ad_entities', 'ad_stats_daily']) {
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_level CHECK (level IN ('campaign','adgroup','ad'))`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER workspaces_delete_ad_stats ON workspaces');
  await knex.raw('DROP FUNCTION delete_workspace_ad_stats()');
  await knex.schema.dropTable('ad_stats_daily');
  await knex.schema.dropTable('ad_entities');
  await knex.raw('DROP INDEX conversions_delivered_by_campaign');
  await knex.schema.alterTable('conversions', (t) => t.dropColumns('click_campaign_id', 'click_adgroup_id', 'click_ad_id'));
  await knex.schema.alterTable('clicks', (t) => t.dropColumns('campaign_id', 'adgroup_id', 'ad_id'));
  await knex.schema.dropTable('oauth_state_uses');
  await knex.raw('ALTER TABLE tiktok_connections DROP CONSTRAINT tiktok_connection_status');
  await knex.schema.alterTable('tiktok_connections', (t) =>
    t.dropColumns('granted_scopes', 'accessible_advertisers', 'authorized_at', 'stats_pulled_at', 'stats_pull_error'),
  );
}
