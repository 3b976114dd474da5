import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 30: a day's `messageId`s are kept unique by an exclusion constraint over a hash index on each day's partition,
 * instead of the partitioned unique B-tree `events_message`. Clients' `messageId`s are random, so every insert into
 * that B-tree landed on a random leaf of a tree as deep as the day was full: a full day cost batched ingest about a
 * fifth of its rate (BENCHMARKS.md). A hash index finds a key's bucket in one step whatever the day's size, and an
 * exclusion constraint with `=` refuses a second row as a unique index does, waiting for a concurrent inserter the
 * same way; `ON CONFLICT DO NOTHING` takes it as its arbiter. Hash indexes take one column: the key is the array of
 * workspace and `messageId`.
 *
 * PostgreSQL 15 has no exclusion constraints on a partitioned table, so each day's partition carries its own
 * (event-days.ts adds it to every partition it creates). Here today's and the coming days' partitions get one;
 * yesterday's, only looked into, gets the same hash index built CONCURRENTLY first, while ingest goes on; the older days
 * are neither written nor looked into by ingest and keep none. Dropping `events_message` and building today's
 * constraint hold the table for the time of that build: a release step (OPERATIONS.md).
 * Frozen: imports no application code.
 */
export const config = { transaction: false };

/** Builds without it cannot serve ingest: their inserts name `events_message`'s columns as the conflict target, and it is gone (42P10). */
export const breaksOlderBuilds = true;

const KEY = '(ARRAY[workspace_id, message_id])';

const TODAY = "(now() AT TIME ZONE 'UTC')::date";

/** The partitions of days whose `day` meets `condition` (SQL). */
const dayPartitions = (condition: string) => `
  SELECT name FROM (
    SELECT c.relname AS name, CASE WHEN c.relname ~ '^events_\\d{8}$' THEN to_date(substr(c.relname, 8), 'YYYYMMDD') END AS day
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass
  ) partitions
  WHERE day IS NOT NULL AND (${condition}) ORDER BY 1`;

async function names(knex: Knex, sql: string): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { name: string }[] }>(sql);
  return rows.map((row) => row.name);
}

export const steps: MigrationStep[] = [
  {
    does: "yesterday's partition: a hash index of messageIds built CONCURRENTLY",
    locks: "SHARE UPDATE EXCLUSIVE on yesterday's partition of events",
    waits: 'ingest and the pipeline never wait',
  },
  {
    does: "events: drop the B-tree events_message; today's and the coming days' partitions get their exclusion constraint, building today's hash index",
    locks: "ACCESS EXCLUSIVE on events for the build of today's index (9.6 s per million events of today, BENCHMARKS.md)",
    waits: 'ingest and the pipeline wait for all of it, after waiting up to 30 s for running transactions: run it early in a UTC day',
  },
];

export async function up(knex: Knex): Promise<void> {
  for (const yesterday of await names(knex, dayPartitions(`day = ${TODAY} - 1`))) {
    await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ?? ON ?? USING hash (${KEY})`, [`${yesterday}_message`, yesterday]);
  }
  await knex.transaction(async (trx) => {
    await trx.raw("SET LOCAL lock_timeout = '30s'");
    await trx.raw('DROP INDEX events_message');
    for (const name of await names(trx, dayPartitions(`day >= ${TODAY}`))) {
      await trx.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? EXCLUDE USING hash (${KEY} WITH =)`, [name, `${name}_message`]);
    }
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    for (const name of await names(trx, dayPartitions('true'))) {
      await trx.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [name, `${name}_message`]);
      await trx.raw('DROP INDEX IF EXISTS ??', [`${name}_message`]);
    }
    await trx.raw('CREATE UNIQUE INDEX events_message ON events (workspace_id, message_id, received_on)');
  });
}
