import path from 'node:path';
import type { Knex } from 'knex';
import { addConversions, previousBuildWriting, watchLocks } from '../bench/migrate/under-load';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { MIGRATIONS, migrateUpTo, migrationConfig } from './knex';
import type { MigrationParams } from './migration-plan';
import { migrationFiles } from './migration-source';

/**
 * Issue 48: 20261130100000_events_by_day fills the stored conversions' user and anonymous IDs in batches (it once did
 * it in the transaction that added their columns, holding `conversions`), while the previous build's ingest and
 * pipeline write.
 */
const PARTITIONS = '20261130100000_events_by_day';
const EVENTS = 30_000;
/** Every third event a purchase: two batches of 5,000. */
const CONVERSIONS = 10_000;
/** One batch's transaction, its 1 s lock wait included, on a loaded machine: a writer never waits on the back-fill longer. */
const LONGEST_WAIT_ON_BACKFILL_S = 2;
/** Relation locks that conflict with none that ingest or the pipeline take (their INSERT, UPDATE, SELECT). */
const HARMLESS_LOCKS = new Set(['AccessShareLock', 'RowShareLock', 'RowExclusiveLock']);

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.destroy();
});

/** A store of the layout before days: events of users and visitors (some without either), every third a purchase. */
async function storeBeforeDays(): Promise<TestDatabase> {
  const testDb = await createTestDatabase({ migrated: false });
  databases.push(testDb);
  const { db } = testDb;
  await migrateUpTo(db, PARTITIONS);
  await db('workspaces').insert({ id: 'ws_up', name: 'Before days' });
  await db.raw(
    `INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, message)
     SELECT 'ws_up', 'm-' || g, 'track', 'purchase', CASE WHEN g % 4 <> 0 THEN 'u-' || g % 700 END, CASE WHEN g % 5 <> 0 THEN 'a-' || g % 900 END,
            now() - interval '1 hour', '{}' FROM generate_series(1, ?) g`,
    [EVENTS],
  );
  await addConversions(db, 'ws_up', CONVERSIONS);
  return testDb;
}

/** The shipped migrations, but 20261130100000 as released before issue 48: a store that ran it then. */
const releasedSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrationFiles(MIGRATIONS.directory, MIGRATIONS.extension),
  getMigrationName: (file) => file,
  getMigration: async (file) =>
    (await import(file.startsWith(PARTITIONS) ? path.join(__dirname, '..', 'test', 'fixtures', 'released-migrations', file) : path.join(MIGRATIONS.directory, file))) as Knex.Migration,
};

/** The stored conversions (by their event's messageId) with their event's day and IDs as the migration left them. */
async function storedConversions(db: Knex): Promise<{ message_id: string; day: string; user_id: string | null; anonymous_id: string | null }[]> {
  const { rows } = await db.raw("SELECT message_id, event_received_on::text AS day, user_id, anonymous_id FROM conversions WHERE message_id LIKE 'm-%' ORDER BY message_id");
  return rows;
}

/** What both stores' schemas must agree on: columns, constraints and indexes of conversions and events. */
async function schemaOf(db: Knex): Promise<unknown> {
  const tables = ['conversions', 'events', 'events_before_days'];
  const columns = await db('information_schema.columns').whereIn('table_name', tables).orderBy(['table_name', 'column_name']).select('table_name', 'column_name', 'data_type', 'is_nullable', 'column_default');
  const { rows: constraints } = await db.raw(
    'SELECT conrelid::regclass::text AS on_table, conname, pg_get_constraintdef(oid) AS def, convalidated FROM pg_constraint WHERE conrelid = ANY (?::regclass[]) ORDER BY 1, 2',
    [tables],
  );
  const indexes = await db('pg_indexes').whereIn('tablename', tables).orderBy(['tablename', 'indexname']).select('tablename', 'indexname', 'indexdef');
  return { columns, constraints, indexes };
}

/**
 * Conversions whose event day is not their event's (the previous build's, stored during the migration, included), or
 * stored before it and without their event's IDs.
 */
async function conversionsNotMatchingTheirEvents(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { wrong: string }[] }>(
    `SELECT count(*) AS wrong FROM conversions c JOIN events e ON e.id = c.event_row_id
     WHERE c.event_received_on <> e.received_on
        OR (c.message_id LIKE 'm-%' AND (c.user_id IS DISTINCT FROM e.user_id OR c.anonymous_id IS DISTINCT FROM e.anonymous_id))`,
  );
  return Number(rows[0]?.wrong);
}

const migrateWithProgress = async (db: Knex, lines: string[], config: Knex.MigratorConfig = migrationConfig) => {
  const params: MigrationParams = { progress: (line) => lines.push(line) };
  await db.withUserParams(params).migrate.latest(config);
};

describe('the batched back-fill of 20261130100000_events_by_day', () => {
  it('holds no lock the previous build waits on, and leaves what the released one-transaction migration left', async () => {
    const released = await storeBeforeDays();
    await released.db.migrate.up({ migrationSource: releasedSource, tableName: MIGRATIONS.table });
    // A store that ran the released migration: knex knows it by name, and runs only what follows it.
    const releasedProgress: string[] = [];
    await migrateWithProgress(released.db, releasedProgress);
    expect(releasedProgress).toEqual([]);

    const upgraded = await storeBeforeDays();
    const writers = previousBuildWriting(upgraded.url, 'ws_up', CONVERSIONS);
    const locks = watchLocks(upgraded.url);
    const progress: string[] = [];
    try {
      await migrateWithProgress(upgraded.db, progress);
    } finally {
      const seen = await locks.stop();
      const writes = await writers.stop();
      expect(writes).toBeGreaterThan(0);
      expect(seen.backfillSamples).toBeGreaterThan(0);
      expect([...seen.heldByBackfill].filter((mode) => !HARMLESS_LOCKS.has(mode))).toEqual([]);
      expect(seen.longestWaitOnBackfill).toBeLessThan(LONGEST_WAIT_ON_BACKFILL_S);
    }
    expect(progress[0]).toMatch(/^ {2}back-fill of conversions' user and anonymous IDs: starting at 0 of [\d,]+$/);
    expect(progress.length).toBeGreaterThanOrEqual(1 + CONVERSIONS / 5_000);

    const stored = await storedConversions(upgraded.db);
    expect(stored.length).toBe(CONVERSIONS);
    expect(stored).toEqual(await storedConversions(released.db));
    expect(await conversionsNotMatchingTheirEvents(upgraded.db)).toBe(0);
    expect(await schemaOf(upgraded.db)).toEqual(await schemaOf(released.db));
  });

  it('carries on from where a stopped migrate got to, and ends as a run never stopped', async () => {
    const { db } = await storeBeforeDays();
    const first: string[] = [];
    const stopped = db
      .withUserParams({ progress: (line: string) => {
        first.push(line);
        if (first.length === 2) throw new Error('stopped by the operator');
      } } satisfies MigrationParams)
      .migrate.latest(migrationConfig);
    await expect(stopped).rejects.toThrow('stopped by the operator');
    expect(await db('backfill_progress').first('seen')).toEqual({ seen: '5000' });

    const second: string[] = [];
    await migrateWithProgress(db, second);
    expect(second).toEqual([
      `  back-fill of conversions' user and anonymous IDs: carrying on at 5,000 of ${CONVERSIONS.toLocaleString('en-US')}`,
      `  back-fill of conversions' user and anonymous IDs: 10,000 of ${CONVERSIONS.toLocaleString('en-US')} (9,500 changed)`,
    ]);
    expect(await db.schema.hasTable('backfill_progress')).toBe(false);
    expect(await conversionsNotMatchingTheirEvents(db)).toBe(0);
    expect((await storedConversions(db)).filter((c) => c.day !== '-infinity')).toEqual([]);
  });
});
