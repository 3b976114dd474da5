import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 43, last click across sources: where a conversion's click was found, `message` (its own event carried it, such
 * as a Shopify order's landing page) or `visitor` (a visitor's profile, the converting one's or one linked to the
 * person), so that the console and `conversions show` can say so. Null without a click, and for conversions prepared
 * before. A nullable column: no table is rewritten. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'conversions: add the nullable column click_source',
    locks: 'ACCESS EXCLUSIVE on conversions, a catalog change',
    waits: 'ingest (purchases) and the pipeline wait while it waits for running transactions on conversions (no time limit: run it when no long transaction holds conversions)',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => t.text('click_source'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => t.dropColumn('click_source'));
}
