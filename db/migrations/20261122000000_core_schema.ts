import type { Knex } from 'knex';

/** Frozen: migrations import no application code. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.integer('attribution_window_days').notNullable().defaultTo(30);
    t.boolean('test_mode').notNullable().defaultTo(false);
    t.text('test_event_code');
    t.text('default_phone_region').notNullable().defaultTo('US');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE workspaces ADD CONSTRAINT attribution_window_range CHECK (attribution_window_days BETWEEN 1 AND 90)');

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('kind').notNullable().defaultTo('secret');
    t.text('key_hash').notNullable().unique();
    t.text('display_prefix').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['workspace_id']);
  });

  await knex.schema.createTable('events', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('message_id').notNullable();
    t.text('type').notNullable();
    t.text('event_name');
    t.text('user_id');
    t.text('anonymous_id');
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb('message').notNullable();
    t.unique(['workspace_id', 'message_id']);
    t.index(['workspace_id', 'user_id']);
    t.index(['workspace_id', 'anonymous_id']);
  });

  await knex.schema.createTable('visitors', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('anonymous_id').notNullable();
    t.text('ttclid');
    t.timestamp('ttclid_captured_at', { useTz: true });
    t.text('ttp');
    t.timestamp('ttp_seen_at', { useTz: true });
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.primary(['workspace_id', 'anonymous_id']);
  });

  // Every click seen, so that attribution stays right for historical imports and events that arrive out of order.
  await knex.schema.createTable('clicks', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('anonymous_id').notNullable();
    t.text('ttclid').notNullable();
    t.timestamp('captured_at', { useTz: true }).notNullable();
    t.text('page_url');
    t.primary(['workspace_id', 'anonymous_id', 'ttclid']);
    t.index(['workspace_id', 'anonymous_id', 'captured_at']);
  });

  // An undirected graph between identifiers, stored as both directed edges so one index serves every walk.
  await knex.schema.createTable('identity_links', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('from_kind').notNullable();
    t.text('from_value').notNullable();
    t.text('to_kind').notNullable();
    t.text('to_value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'from_kind', 'from_value', 'to_kind', 'to_value']);
  });
  await knex.raw(
    "ALTER TABLE identity_links ADD CONSTRAINT identity_kind CHECK (from_kind IN ('anonymous_id','user_id','email_sha256','phone_sha256') AND to_kind IN ('anonymous_id','user_id','email_sha256','phone_sha256'))",
  );

  await knex.schema.createTable('conversion_rules', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('source_event').notNullable();
    t.text('tiktok_event').notNullable();
    t.text('value_source').notNullable();
    t.decimal('fixed_value', 18, 4);
    t.text('currency');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'source_event']);
  });
  await knex.raw("ALTER TABLE conversion_rules ADD CONSTRAINT value_source_kind CHECK (value_source IN ('order_total','fixed','none'))");

  await knex.schema.createTable('tiktok_connections', (t) => {
    t.text('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.text('access_token_ciphertext').notNullable();
    t.text('advertiser_id');
    t.text('pixel_code');
    t.text('source').notNullable().defaultTo('manual');
    t.text('status').notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('conversions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.bigInteger('event_row_id').notNullable().references('events.id').onDelete('CASCADE');
    t.text('message_id').notNullable();
    t.text('source_event').notNullable();
    t.text('tiktok_event').notNullable();
    t.text('event_id').notNullable();
    t.timestamp('event_time', { useTz: true }).notNullable();
    t.text('event_source').notNullable().defaultTo('web');
    t.decimal('value', 18, 4);
    t.text('currency');
    t.text('status').notNullable().defaultTo('pending');
    t.text('reason');
    t.text('workflow_id').notNullable().unique();
    t.timestamp('workflow_started_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('ttclid');
    t.timestamp('click_captured_at', { useTz: true });
    t.text('click_anonymous_id');
    t.text('ttp');
    t.boolean('test_mode').notNullable().defaultTo(false);
    t.integer('tiktok_code');
    t.text('tiktok_message');
    t.text('tiktok_request_id');
    t.jsonb('request_payload');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.unique(['workspace_id', 'tiktok_event', 'event_id']);
    t.index(['workspace_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE conversions ADD CONSTRAINT conversion_status CHECK (status IN ('pending','delivered','skipped','failed'))");
  await knex.raw("CREATE INDEX conversions_pending ON conversions (created_at) WHERE status = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['conversions', 'tiktok_connections', 'conversion_rules', 'identity_links', 'clicks', 'visitors', 'events', 'api_keys', 'workspaces']) {
    await knex.schema.dropTable(table);
  }
}
