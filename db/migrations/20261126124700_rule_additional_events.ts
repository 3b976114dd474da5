import type { Knex } from 'knex';

/**
 * A rule may send its events as a few more TikTok events besides its own (issue 18): `also_send_as` holds their names,
 * and each conversion records which of its rule's events it is (`rule_event_index`: 0 the rule's own, 1… the
 * additional ones in the rule's order), so the conversions made from one message can be shown together in order.
 * Columns with a constant default are added without rewriting the tables. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversion_rules ADD COLUMN also_send_as text[] NOT NULL DEFAULT '{}'");
  await knex.raw('ALTER TABLE conversions ADD COLUMN rule_event_index smallint NOT NULL DEFAULT 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversions DROP COLUMN rule_event_index');
  await knex.raw('ALTER TABLE conversion_rules DROP COLUMN also_send_as');
}
