import type { Knex } from 'knex';

/**
 * Mobile apps: the TikTok App ID that app events are sent under (in place of the pixel), and the `app` key kind:
 * public, write-only keys shipped inside apps, whose events are app events. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tiktok_connections', (t) => t.text('app_id'));
  await knex.raw('ALTER TABLE api_keys DROP CONSTRAINT api_key_kind');
  await knex.raw("ALTER TABLE api_keys ADD CONSTRAINT api_key_kind CHECK (kind IN ('secret','browser','app'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE api_keys DROP CONSTRAINT api_key_kind');
  await knex.raw("ALTER TABLE api_keys ADD CONSTRAINT api_key_kind CHECK (kind IN ('secret','browser'))");
  await knex.schema.alterTable('tiktok_connections', (t) => t.dropColumn('app_id'));
}
