import type { Knex } from 'knex';

/**
 * A conversion's value is the amount the event carried (`total`, `value` or `revenue`), and TikTok documents no upper
 * bound for it: `numeric(18,4)` refused amounts from 10^14 up (e.g. `1e15`), failing the whole ingest request.
 * Unconstrained `numeric` holds every finite JSON number. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversions ALTER COLUMN value TYPE numeric');
}

/** Amounts that `numeric(18,4)` cannot hold become NULL (no value), as no row could keep them. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversions ALTER COLUMN value TYPE numeric(18,4) USING CASE WHEN abs(value) < 1e14 THEN value END');
}
