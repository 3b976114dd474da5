import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 44: the tracking tag drives TikTok's pixel with the event IDs the server sends. A workspace chooses whether the
 * tag leaves the pixel alone (`off`, the default, as before), loads it (`load`) or uses the page's own (`page`), and
 * whether TikTok's Limited Data Use applies to both channels; a rule may keep its events from the pixel
 * (`server_only`). Catalog changes with defaults only (no table rewrite). Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: "workspaces: add browser_pixel ('off', 'load' or 'page'; 'off') and limited_data_use (false)",
    locks: 'ACCESS EXCLUSIVE on workspaces, a catalog change',
    waits: 'requests that read a workspace wait while it waits for running transactions on workspaces',
  },
  {
    does: 'conversion_rules: add server_only (false)',
    locks: 'ACCESS EXCLUSIVE on conversion_rules, a catalog change',
    waits: 'ingest waits while it waits for running transactions on conversion_rules',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "ALTER TABLE workspaces ADD COLUMN IF NOT EXISTS browser_pixel text NOT NULL DEFAULT 'off' CHECK (browser_pixel IN ('off', 'load', 'page'))",
  );
  await knex.raw('ALTER TABLE workspaces ADD COLUMN IF NOT EXISTS limited_data_use boolean NOT NULL DEFAULT false');
  await knex.raw('ALTER TABLE conversion_rules ADD COLUMN IF NOT EXISTS server_only boolean NOT NULL DEFAULT false');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversion_rules DROP COLUMN IF EXISTS server_only');
  await knex.raw('ALTER TABLE workspaces DROP COLUMN IF EXISTS limited_data_use');
  await knex.raw('ALTER TABLE workspaces DROP COLUMN IF EXISTS browser_pixel');
}
