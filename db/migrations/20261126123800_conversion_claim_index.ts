import type { Knex } from 'knex';

/**
 * The conversions of one claim (a group being prepared or delivered), found by `claim_id`: without an index each
 * group step read every pending conversion of every workspace. Partial: only pending, claimed rows. Built
 * CONCURRENTLY so that ingest keeps writing. Frozen: imports no application code.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_claim ON conversions (claim_id) WHERE status = 'pending' AND claim_id IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS conversions_claim');
}
