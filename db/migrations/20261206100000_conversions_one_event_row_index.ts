import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 49: conversions had two identical indexes on `event_row_id` (`conversions_event_row`, made for erasure, and
 * `conversions_by_event_row`, for the console's search by event), and every conversion's insert and each of its three
 * updates wrote both. The second goes; the first serves both. Dropped CONCURRENTLY so that ingest and the pipeline
 * keep writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export const steps: MigrationStep[] = [
  {
    does: 'conversions: drop conversions_by_event_row, the same index as conversions_event_row, CONCURRENTLY',
    locks: 'SHARE UPDATE EXCLUSIVE on conversions',
    waits: 'ingest and the pipeline never wait',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_by_event_row');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_by_event_row ON conversions (event_row_id)');
}
