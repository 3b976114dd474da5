import type { Knex } from 'knex';

/**
 * The console: people (email + argon2id password), their role in each workspace, server-side sessions, single-use
 * invitations, failed sign-ins (rate limit across replicas), requests the ingest API refused (the event debugger),
 * and the hourly event counts its pages read on big workspaces, rolled up off the ingest path (the indexes are in
 * the next migration). Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    // Stored lower-cased and trimmed: one account per address whatever its spelling.
    t.text('email').notNullable().unique();
    t.text('name').notNullable().defaultTo('');
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('memberships', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw("ALTER TABLE memberships ADD CONSTRAINT membership_role CHECK (role IN ('owner','editor','viewer'))");

  // The cookie holds a random token; only its SHA-256 is stored, so a copy of this table opens no session.
  await knex.schema.createTable('console_sessions', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('csrf_token').notNullable();
    t.text('user_agent');
    t.text('address');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('invitations', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.text('token_hash').notNullable().unique();
    t.text('invited_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true });
    t.text('accepted_by').references('users.id').onDelete('SET NULL');
    t.timestamp('revoked_at', { useTz: true });
    t.index(['workspace_id']);
  });
  await knex.raw("ALTER TABLE invitations ADD CONSTRAINT invitation_role CHECK (role IN ('owner','editor','viewer'))");

  await knex.schema.createTable('sign_in_failures', (t) => {
    t.bigIncrements('id').primary();
    t.text('email').notNullable();
    t.text('address').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['email', 'at']);
    t.index(['address', 'at']);
  });

  // Written on the ingest error path only, throttled per workspace and process, pruned to a day.
  await knex.schema.createTable('ingest_refusals', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('status').notNullable();
    t.text('error').notNullable();
    t.text('message').notNullable();
    t.jsonb('issues');
    t.text('path').notNullable();
    t.text('key_prefix');
    t.index(['workspace_id', 'id']);
  });

  // Events per workspace, UTC hour, type and name; `last_event_id` is a sample. Closed hours only; see rollup code.
  await knex.schema.createTable('event_counts_hourly', (t) => {
    t.text('workspace_id').notNullable();
    t.timestamp('hour', { useTz: true }).notNullable();
    t.text('type').notNullable();
    t.text('event_name').notNullable();
    t.bigInteger('events').notNullable();
    t.bigInteger('last_event_id').notNullable();
    t.primary(['workspace_id', 'hour', 'type', 'event_name']);
  });
  // Conversions per workspace, UTC hour of event_time and outcome, for hours older than a settling horizon; null reason
  // and code are stored as '' and 0 so that they can be part of the key.
  await knex.schema.createTable('conversion_counts_hourly', (t) => {
    t.text('workspace_id').notNullable();
    t.timestamp('hour', { useTz: true }).notNullable();
    t.text('tiktok_event').notNullable();
    t.text('status').notNullable();
    t.text('reason').notNullable();
    t.integer('tiktok_code').notNullable();
    t.boolean('test_mode').notNullable();
    t.bigInteger('conversions').notNullable();
    /** Of which carried an event_id or order ID a browser pixel can share (event_id ≠ messageId). */
    t.bigInteger('shareable').notNullable();
    t.primary(['workspace_id', 'hour', 'tiktok_event', 'status', 'reason', 'tiktok_code', 'test_mode']);
  });
  // How far each rollup reaches, and (for conversions) the ID watermarks that find older hours to roll up again.
  await knex.schema.createTable('rollup_progress', (t) => {
    t.text('name').primary();
    t.timestamp('rolled_through', { useTz: true }).notNullable();
    t.jsonb('watermarks').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rollup_progress', 'conversion_counts_hourly', 'event_counts_hourly', 'ingest_refusals', 'sign_in_failures', 'invitations', 'console_sessions', 'memberships', 'users']) {
    await knex.schema.dropTable(table);
  }
}
