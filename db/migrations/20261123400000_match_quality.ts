import type { Knex } from 'knex';

/**
 * Match quality and honest reports: each visitor's latest page view with its device details (IP address, user agent,
 * page URL: match keys for conversions sent from a backend, forgotten once older than the attribution window); the
 * workspace's consent requirement for the tracking script and its exchange rates; the advertiser's currency and time
 * zone as TikTok reports them. Frozen: migrations import no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('visitors', (t) => {
    t.text('device_ip');
    t.text('device_user_agent');
    t.text('device_page_url');
    t.timestamp('device_seen_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX visitors_device_seen ON visitors (workspace_id, device_seen_at) WHERE device_seen_at IS NOT NULL');

  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('consent_required').notNullable().defaultTo(false);
    // { "EUR": "1.08" }: one unit of each currency in the advertiser's currency; null: never convert.
    t.jsonb('exchange_rates');
  });

  await knex.schema.alterTable('tiktok_connections', (t) => {
    t.text('advertiser_currency');
    t.text('advertiser_time_zone');
    t.timestamp('advertiser_info_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tiktok_connections', (t) => t.dropColumns('advertiser_currency', 'advertiser_time_zone', 'advertiser_info_at'));
  await knex.schema.alterTable('workspaces', (t) => t.dropColumns('consent_required', 'exchange_rates'));
  await knex.raw('DROP INDEX visitors_device_seen');
  await knex.schema.alterTable('visitors', (t) => t.dropColumns('device_ip', 'device_user_agent', 'device_page_url', 'device_seen_at'));
}
