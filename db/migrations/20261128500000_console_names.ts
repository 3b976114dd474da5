import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 31, words not codes: the pixel's name as TikTok listed it when it was chosen (the console names the pixel
 * by it), and for each refused ingest request the page origin it came from and the refusal's reason (the event
 * debugger says what to fix in words). Nullable columns: no table is rewritten. Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'add nullable columns to tiktok_connections and ingest_refusals',
    locks: 'ACCESS EXCLUSIVE on tiktok_connections and ingest_refusals, a catalog change',
    waits: 'ingest waits to record a refused request, and the pipeline to read its TikTok connection, while it waits for running transactions on those tables (no time limit: run it when no long transaction holds those tables)',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tiktok_connections', (t) => t.text('pixel_name'));
  await knex.schema.alterTable('ingest_refusals', (t) => {
    t.text('origin');
    t.text('reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ingest_refusals', (t) => t.dropColumns('origin', 'reason'));
  await knex.schema.alterTable('tiktok_connections', (t) => t.dropColumn('pixel_name'));
}
