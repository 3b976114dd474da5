import type { Knex } from 'knex';

/**
 * Issue 43, last click across sources: where a conversion's click was found, `message` (its own event carried it, such
 * as a Shopify order's landing page) or `visitor` (a visitor's profile, the converting one's or one linked to the
 * person), so that the console and `conversions show` can say so. Null without a click, and for conversions prepared
 * before. A nullable column: no table is rewritten. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => t.text('click_source'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => t.dropColumn('click_source'));
}
