import type { Knex } from 'knex';

/**
 * Conversions processed in groups by one long-lived workflow per workspace (issue 11), delivered in TikTok requests
 * of up to 1,000 events, with a claim lease per conversion and a retry backoff per workspace (issue 12).
 * Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  // One row per TikTok request: its envelope, the conversions it carried in order, and TikTok's answer (null until it came).
  await knex.schema.createTable('tiktok_requests', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('claim_id').notNullable();
    t.text('event_source').notNullable();
    t.text('event_source_id').notNullable();
    t.text('test_event_code');
    t.specificType('conversion_ids', 'uuid[]').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('answered_at', { useTz: true });
    t.text('outcome');
    t.integer('http_status');
    t.integer('tiktok_code');
    t.text('tiktok_message');
    t.text('tiktok_request_id');
    t.index(['workspace_id', 'id']);
  });

  // The group workflow's state that ingest and the sweeper read: whether it sleeps waiting for a wake-up signal, and
  // the backoff after TikTok failed transiently (per error class, so throttling never inherits the 5xx count).
  await knex.schema.createTable('conversion_pipelines', (t) => {
    t.text('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.boolean('idle').notNullable().defaultTo(false);
    t.text('retry_class');
    t.integer('class_failures').notNullable().defaultTo(0);
    t.timestamp('resume_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.raw('ALTER TABLE conversions DROP CONSTRAINT conversions_workflow_id_unique');
  await knex.schema.alterTable('conversions', (t) => {
    t.text('workflow_run_id');
    t.text('claim_id');
    t.timestamp('claimed_until', { useTz: true });
    t.bigInteger('delivery_request_id').references('tiktok_requests.id').onDelete('SET NULL');
  });
  await knex.raw('DROP INDEX conversions_pending');
  await knex.raw("CREATE INDEX conversions_claimable ON conversions (workspace_id, created_at) WHERE status = 'pending'");
  // Conversions committed but never started by the per-conversion design are handed to the group workflow.
  await knex.raw("UPDATE conversions SET workflow_id = 'conversion-pipeline-' || workspace_id WHERE status = 'pending' AND workflow_started_at IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX conversions_claimable');
  await knex.raw("CREATE INDEX conversions_pending ON conversions (created_at) WHERE status = 'pending'");
  await knex.schema.alterTable('conversions', (t) => {
    t.dropColumn('delivery_request_id');
    t.dropColumn('claimed_until');
    t.dropColumn('claim_id');
    t.dropColumn('workflow_run_id');
  });
  // Group-processed conversions share their workspace's workflow ID; the per-conversion design needs one each.
  await knex.raw("UPDATE conversions SET workflow_id = workflow_id || '-' || id WHERE workflow_id LIKE 'conversion-pipeline-%'");
  await knex.raw('ALTER TABLE conversions ADD CONSTRAINT conversions_workflow_id_unique UNIQUE (workflow_id)');
  await knex.schema.dropTable('conversion_pipelines');
  await knex.schema.dropTable('tiktok_requests');
}
