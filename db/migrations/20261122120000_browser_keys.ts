import type { Knex } from 'knex';

/**
 * Browser keys: an API key kind for web pages, accepted only from the workspace's allowed origins (exact
 * `scheme://host[:port]` strings, as browsers send them in `Origin`). Frozen: migrations import no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.specificType('allowed_origins', 'text[]').notNullable().defaultTo('{}');
  });
  await knex.raw("ALTER TABLE api_keys ADD CONSTRAINT api_key_kind CHECK (kind IN ('secret','browser'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE api_keys DROP CONSTRAINT api_key_kind');
  await knex.schema.alterTable('workspaces', (t) => t.dropColumn('allowed_origins'));
}
