import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 29: sources that post signed webhooks (a Shopify shop, or any platform through a mapping), each with its
 * signing secret sealed with SECRET_KEY (never stored in the clear: Shopify's key is the shop's, and anyone holding it
 * can forge orders), its last accepted delivery and last refusal. Shopify's carts are remembered per source and cart,
 * so that a carts/update delivery (the whole cart) tells what was added; kept 30 days. Frozen: imports no application
 * code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'create webhook_sources and shopify_carts',
    locks: 'SHARE ROW EXCLUSIVE on workspaces (the new foreign key), a catalog change',
    waits: "ingest and the pipeline never wait (they only read workspaces); a change of a workspace's settings waits an instant",
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_sources', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('name').notNullable();
    t.text('signing_secret_ciphertext').notNullable();
    // Generic webhooks: the header the signature travels in, and how the body becomes a message.
    t.text('signature_header');
    t.jsonb('mapping');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('secret_set_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_delivery_at', { useTz: true });
    t.timestamp('last_refusal_at', { useTz: true });
    t.integer('last_refusal_status');
    t.text('last_refusal_message');
    t.index(['workspace_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE webhook_sources ADD CONSTRAINT webhook_source_type CHECK (type IN ('shopify','webhook'))");

  await knex.schema.createTable('shopify_carts', (t) => {
    t.text('source_id').notNullable().references('webhook_sources.id').onDelete('CASCADE');
    t.text('cart_token').notNullable();
    t.text('webhook_id').notNullable();
    t.timestamp('cart_updated_at', { useTz: true }).notNullable();
    t.jsonb('quantities').notNullable();
    t.jsonb('previous_quantities').notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['source_id', 'cart_token']);
    t.index(['seen_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('shopify_carts');
  await knex.schema.dropTable('webhook_sources');
}
