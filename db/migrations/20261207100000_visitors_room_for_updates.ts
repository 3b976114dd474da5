import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 49: ingest updates a visitor's row with each of its events (last seen, click, cookie, device). With full pages
 * an update cannot stay on its row's page, so it writes a new entry into each of the table's three indexes; with room
 * left on each page, PostgreSQL keeps the new version beside the old one and writes no index (a heap-only tuple), as
 * long as no indexed column changed. Only pages filled from now on keep the room; nothing is rewritten. Frozen:
 * imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'visitors: fill pages to 80%, leaving room for updates on the same page',
    locks: 'SHARE UPDATE EXCLUSIVE on visitors',
    waits: 'ingest and the pipeline never wait',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE visitors SET (fillfactor = 80)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE visitors RESET (fillfactor)');
}
