import type { Knex } from 'knex';

/**
 * Alerts (issue 20): each workspace's conditions and channels, the incidents they opened (at most one open per
 * workspace and condition, so two evaluators cannot open it twice) and each channel's notification of an incident
 * (claimed before it is sent, so it is sent once). Password resets by mail: only the token's SHA-256 is stored;
 * requests are logged to limit them per address and per client. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_settings', (t) => {
    t.text('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.boolean('on_reauthorization').notNullable().defaultTo(true);
    // Percent of the last hour's settled deliveries that failed; null: this condition is off.
    t.integer('failed_share_percent');
    // Minutes without an event; null: this condition is off.
    t.integer('silence_minutes');
    t.boolean('email_enabled').notNullable().defaultTo(false);
    // Empty: the workspace's owners.
    t.specificType('email_recipients', 'text[]').notNullable().defaultTo('{}');
    // Sealed with SECRET_KEY: a Slack incoming-webhook URL is a credential.
    t.text('webhook_url_ciphertext');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE alert_settings ADD CONSTRAINT alert_failed_share CHECK (failed_share_percent BETWEEN 1 AND 100)');
  await knex.raw('ALTER TABLE alert_settings ADD CONSTRAINT alert_silence CHECK (silence_minutes BETWEEN 5 AND 10080)');

  await knex.schema.createTable('alert_incidents', (t) => {
    t.bigIncrements('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('condition').notNullable();
    t.text('detail').notNullable();
    t.timestamp('opened_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('closed_at', { useTz: true });
    t.index(['workspace_id', 'opened_at']);
  });
  await knex.raw("ALTER TABLE alert_incidents ADD CONSTRAINT alert_condition CHECK (condition IN ('reauthorization','failed_deliveries','no_events'))");
  await knex.raw('CREATE UNIQUE INDEX alert_incidents_open ON alert_incidents (workspace_id, condition) WHERE closed_at IS NULL');

  await knex.schema.createTable('alert_notifications', (t) => {
    t.bigInteger('incident_id').notNullable().references('alert_incidents.id').onDelete('CASCADE');
    t.text('channel').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('claimed_until', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.text('last_error');
    t.primary(['incident_id', 'channel']);
  });
  await knex.raw("ALTER TABLE alert_notifications ADD CONSTRAINT alert_channel CHECK (channel IN ('email','webhook'))");
  await knex.raw('CREATE INDEX alert_notifications_unsent ON alert_notifications (incident_id) WHERE sent_at IS NULL');

  await knex.schema.createTable('password_resets', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('password_reset_requests', (t) => {
    t.bigIncrements('id').primary();
    t.text('email').notNullable();
    t.text('address').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['email', 'at']);
    t.index(['address', 'at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_reset_requests');
  await knex.schema.dropTable('password_resets');
  await knex.schema.dropTable('alert_notifications');
  await knex.schema.dropTable('alert_incidents');
  await knex.schema.dropTable('alert_settings');
}
