import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 46, Connect Shopify: a workspace's installation of the Signalbox Shopify app in one shop. The shop's access
 * token is sealed with SECRET_KEY (db/sealed-columns.ts); what Signalbox made in the shop (its webhook subscriptions
 * and storefront script tag, by Shopify's IDs) is kept so that disconnecting removes exactly that. The Shopify source
 * the deliveries go to and the browser key the script carries outlive a disconnection only as ordinary rows: the
 * source keeps its history, the key is revoked. A shop is connected to one workspace at a time. Frozen: imports no
 * application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'create shopify_connections',
    locks: 'SHARE ROW EXCLUSIVE on workspaces, webhook_sources and api_keys (the new foreign keys), a catalog change',
    waits:
      "ingest and the pipeline never wait to read; a write to those tables waits an instant (a workspace's settings, a webhook delivery's last-delivery time, a key's last use)",
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shopify_connections', (t) => {
    t.text('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.text('shop_domain').notNullable().unique();
    t.text('access_token_ciphertext').notNullable();
    t.specificType('granted_scopes', 'text[]').notNullable();
    t.text('source_id').references('webhook_sources.id').onDelete('SET NULL');
    t.text('browser_key_id').references('api_keys.id').onDelete('SET NULL');
    // [{ topic, id }]: Shopify's webhook subscriptions Signalbox created, as Shopify named them.
    t.jsonb('webhook_subscriptions').notNullable().defaultTo('[]');
    t.text('script_tag_id');
    t.text('script_tag_src');
    t.timestamp('connected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('shopify_connections');
}
