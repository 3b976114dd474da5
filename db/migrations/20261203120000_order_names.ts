import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 46: a conversion keeps its order's number as the shop shows it (a Shopify order's `name`, e.g. `#9074`), which
 * the console shows and searches: the number a shop owner knows, where the order ID is Shopify's internal one. Null for
 * events without one, and for conversions made before. Searched through its own index (in lower case, per workspace),
 * built CONCURRENTLY so that ingest keeps writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export const steps: MigrationStep[] = [
  {
    does: 'conversions: add the nullable column order_name',
    locks: 'ACCESS EXCLUSIVE on conversions, a catalog change',
    waits: 'ingest (purchases) and the pipeline wait while it waits for running transactions on conversions (no time limit: run it when no long transaction holds conversions)',
  },
  {
    does: 'conversions: index of order names per workspace, built CONCURRENTLY',
    locks: 'SHARE UPDATE EXCLUSIVE on conversions',
    waits: 'ingest and the pipeline never wait',
    // `npm run bench:migrate` (BENCHMARKS.md, "Migrations under load"): 11.6 and 5.0 s per million conversions in its
    // two runs (150,000 conversions, the previous build writing); the higher, as the section's figures are upper bounds.
    secondsPerMillion: { conversions: 11.6 },
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversions ADD COLUMN IF NOT EXISTS order_name text');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_order_name_lower ON conversions (workspace_id, lower(order_name)) WHERE order_name IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_order_name_lower');
  await knex.raw('ALTER TABLE conversions DROP COLUMN IF EXISTS order_name');
}
