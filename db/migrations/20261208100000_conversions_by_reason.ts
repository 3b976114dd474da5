import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 49: the console filters conversions by the reason they were skipped or failed. Walking
 * conversions_by_event_time for a reason few or none of them have read every conversion of the workspace to fill a
 * page (75–81 ms at 40,000,000 stored events in `npm run bench:growth`, 3–6 ms empty). This partial index holds only the
 * conversions with a reason (skipped, failed, test mode), by reason and then in the table's order, with the same
 * columns. Built CONCURRENTLY so that ingest keeps writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export const steps: MigrationStep[] = [
  {
    does: 'conversions: index of the conversions with a reason by reason and time, built CONCURRENTLY',
    locks: 'SHARE UPDATE EXCLUSIVE on conversions',
    waits: 'ingest and the pipeline never wait',
    // Not measured (npm run bench:migrate): the same scan as conversions_by_source's, writing the skipped and failed rows.
    secondsPerMillion: { conversions: 15.3 },
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_by_reason ON conversions (workspace_id, reason, event_time DESC, id DESC)
     INCLUDE (status, tiktok_event, tiktok_code, test_mode) WHERE reason IS NOT NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_by_reason');
}
