import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 45: sales off the website reach TikTok. A TikTok connection selects, besides its pixel and app, an Offline
 * Event Set and a CRM Event Set of its advertiser (`event_source` `offline` and `crm`, reference §1.1); a conversion
 * rule says where its conversions go (`auto`: the app for app events, the Offline Event Set for events that happened
 * offline, else the pixel). Catalog changes with defaults only (no table rewrite). Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'tiktok_connections: add offline_event_set_id, offline_event_set_name, crm_event_set_id, crm_event_set_name (null)',
    locks: 'ACCESS EXCLUSIVE on tiktok_connections, a catalog change',
    waits: 'the worker and settings wait while it waits for running transactions on tiktok_connections',
  },
  {
    does: "conversion_rules: add destination ('auto', 'web', 'app', 'offline' or 'crm'; 'auto')",
    locks: 'ACCESS EXCLUSIVE on conversion_rules, a catalog change',
    waits: 'ingest waits while it waits for running transactions on conversion_rules',
  },
];

export async function up(knex: Knex): Promise<void> {
  for (const column of ['offline_event_set_id', 'offline_event_set_name', 'crm_event_set_id', 'crm_event_set_name']) {
    await knex.raw(`ALTER TABLE tiktok_connections ADD COLUMN IF NOT EXISTS ${column} text`);
  }
  await knex.raw(
    "ALTER TABLE conversion_rules ADD COLUMN IF NOT EXISTS destination text NOT NULL DEFAULT 'auto' CHECK (destination IN ('auto', 'web', 'app', 'offline', 'crm'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversion_rules DROP COLUMN IF EXISTS destination');
  for (const column of ['crm_event_set_name', 'crm_event_set_id', 'offline_event_set_name', 'offline_event_set_id']) {
    await knex.raw(`ALTER TABLE tiktok_connections DROP COLUMN IF EXISTS ${column}`);
  }
}
