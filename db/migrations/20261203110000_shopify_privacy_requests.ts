import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 46: Shopify's mandatory privacy webhooks, as each source received them, for the owner to see and act on.
 * A repeat of a signed body (same source, same SHA-256) is the same request. A data request keeps the customer's ID,
 * email and phone (the owner must know whom to answer) until that customer is erased; an erasure points to its entry
 * in the erasure log; a shop's removal keeps what it removed, counted. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'create shopify_privacy_requests',
    locks: 'SHARE ROW EXCLUSIVE on workspaces, webhook_sources and erasure_requests (the new foreign keys), a catalog change',
    waits: "ingest and the pipeline never wait to read; a write to those tables waits an instant (a workspace's settings, a webhook delivery's last-delivery time, an erasure)",
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shopify_privacy_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('source_id').notNullable().references('webhook_sources.id').onDelete('CASCADE');
    t.text('topic').notNullable();
    t.text('body_sha256').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('shop_domain');
    t.jsonb('customer');
    t.jsonb('orders');
    t.text('data_request_id');
    t.uuid('erasure_id').references('erasure_requests.id').onDelete('SET NULL');
    t.jsonb('removed');
    t.unique(['source_id', 'body_sha256']);
    t.index(['workspace_id', 'received_at']);
  });
  await knex.raw("ALTER TABLE shopify_privacy_requests ADD CONSTRAINT shopify_privacy_topic CHECK (topic IN ('customers/data_request','customers/redact','shop/redact'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('shopify_privacy_requests');
}
