import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 46: whether a source's signing secret was made by Signalbox (none was given) or given by whoever set it up
 * (Shopify's key), so that a Shopify source can say whether Shopify's key was ever given. Sources made before say
 * false: which of them got a made secret is not known. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'webhook_sources: add the column secret_made (false for the sources there)',
    locks: 'ACCESS EXCLUSIVE on webhook_sources, a catalog change',
    waits: "webhook deliveries wait while it waits for running transactions on webhook_sources (they read the source's secret); other ingest and the pipeline never wait",
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_sources', (t) => t.boolean('secret_made').notNullable().defaultTo(false));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_sources', (t) => t.dropColumn('secret_made'));
}
