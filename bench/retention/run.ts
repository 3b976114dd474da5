import type { Knex } from 'knex';
import { createDatabase, migrateToLatest, migrateUpTo } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { addDays, createEventDayRepository, dayOf } from '../../db/repositories/event-days';
import { createSecretBox } from '../../db/secret-box';
import { fillDay, scratchDatabase } from './store';

/**
 * Issue 30's retention benchmark, in one run on one PostgreSQL:
 * - one day of BENCH_RETENTION_EVENTS events (default 1,000,000) retired by dropping its partition, and another day of
 *   as many by the row-by-row path (what retention did for every event before partitions, and still does for a
 *   workspace whose period is shorter than the longest): time, WAL written, dead tuples left, and the VACUUM those
 *   need;
 * - the upgrades: a database of the layout before partitions holding as many events, migrated by `signalbox migrate`;
 *   and a database of days whose yesterday and today hold as many each, migrated to the `messageId`s' hash index (the
 *   time it holds `events`: ingest waits for it).
 *
 *   npm run bench:retention    # DATABASE_URL (admin connection, default local), BENCH_RETENTION_EVENTS
 */
const EVENTS = Number(process.env.BENCH_RETENTION_EVENTS ?? 1_000_000);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PARTITIONS_MIGRATION = '20261130100000_events_by_day';
const MESSAGE_HASH_MIGRATION = '20261201100000_events_message_by_hash';
const DROP_LIMIT_SECONDS = 5;
/** A day's events at the specification's 1,000 events/s. */
const DAY_AT_SPEC_RATE = 86_400_000;

const seconds = (from: number) => (performance.now() - from) / 1000;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function walPosition(db: Knex): Promise<string> {
  const { rows } = await db.raw<{ rows: { lsn: string }[] }>('SELECT pg_current_wal_lsn()::text AS lsn');
  return (rows[0] as { lsn: string }).lsn;
}

async function walSince(db: Knex, from: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { bytes: string }[] }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ?::pg_lsn)::bigint AS bytes', [from]);
  return Number(rows[0]?.bytes);
}

/** Dead tuples of a table, as autovacuum sees them, once `db` (one connection, the one that deleted) has reported its statistics. */
async function deadTuples(db: Knex, table: string): Promise<number> {
  await db.raw('SELECT pg_stat_force_next_flush()');
  await db.raw('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.raw<{ rows: { dead: string }[] }>('SELECT n_dead_tup AS dead FROM pg_stat_user_tables WHERE relname = ?', [table]);
  return Number(rows[0]?.dead ?? 0);
}

interface Retired {
  seconds: number;
  walBytes: number;
  deadTuples: number;
  vacuumSeconds: number;
}

async function retireByDrop(db: Knex, day: string): Promise<Retired> {
  await db.raw('CHECKPOINT');
  const wal = await walPosition(db);
  const started = performance.now();
  await createEventDayRepository(db).drop(day);
  return { seconds: seconds(started), walBytes: await walSince(db, wal), deadTuples: 0, vacuumSeconds: 0 };
}

/** The retention workflow's batches of 1,000 events, on one connection (whose statistics `deadTuples` reads). */
async function retireByDelete(url: string, workspaceId: string, day: string): Promise<Retired> {
  const db = createDatabase({ url, poolMax: 1 });
  try {
    const retention = createRepositories(db, createSecretBox('0'.repeat(64))).retention;
    const cutoff = new Date(`${addDays(day, 1)}T00:00:00Z`);
    await db.raw('CHECKPOINT');
    const wal = await walPosition(db);
    const started = performance.now();
    for (;;) {
      const removed = await retention.removeExpired(workspaceId, cutoff, 1_000);
      if (removed.deleted + removed.stripped < 1_000) break;
    }
    const took = seconds(started);
    const walBytes = await walSince(db, wal);
    const partition = `events_${day.replaceAll('-', '')}`;
    const dead = await deadTuples(db, partition);
    const vacuumStarted = performance.now();
    await db.raw('VACUUM ??', [partition]);
    return { seconds: took, walBytes, deadTuples: dead, vacuumSeconds: seconds(vacuumStarted) };
  } finally {
    await db.destroy();
  }
}

async function measureRetirement(): Promise<{ drop: Retired; del: Retired }> {
  const scratch = await scratchDatabase(ADMIN_URL, 'retention');
  try {
    await migrateToLatest(scratch.db);
    const repos = createRepositories(scratch.db, createSecretBox('0'.repeat(64)));
    const [dropped, deleted] = [await repos.workspaces.create('Retired by drop'), await repos.workspaces.create('Retired by delete')];
    const today = dayOf(new Date());
    const [dropDay, deleteDay] = [addDays(today, -40), addDays(today, -41)];
    await createEventDayRepository(scratch.db).ensure(deleteDay, dropDay);
    const started = performance.now();
    await fillDay(scratch.db, dropped.id, dropDay, EVENTS, { withDay: true });
    await fillDay(scratch.db, deleted.id, deleteDay, EVENTS, { withDay: true });
    console.log(`loaded two days of ${fmt(EVENTS)} events in ${seconds(started).toFixed(0)} s; retiring one by each path`);
    return { drop: await retireByDrop(scratch.db, dropDay), del: await retireByDelete(scratch.url, deleted.id, deleteDay) };
  } finally {
    await scratch.drop();
  }
}

/** A database migrated up to just before partitions, holding `EVENTS` events, then migrated: the seconds it took. */
async function measureUpgrade(): Promise<number> {
  const scratch = await scratchDatabase(ADMIN_URL, 'upgrade');
  try {
    await migrateUpTo(scratch.db, PARTITIONS_MIGRATION);
    const ws = await scratch.db('workspaces').insert({ id: 'ws_upgrade', name: 'Before partitions' }).returning('id');
    await fillDay(scratch.db, (ws[0] as { id: string }).id, addDays(dayOf(new Date()), -1), EVENTS, { withDay: false });
    const started = performance.now();
    await migrateToLatest(scratch.db);
    return seconds(started);
  } finally {
    await scratch.drop();
  }
}

interface MessageHashUpgrade {
  seconds: number;
  /** The longest an insert of one event into today waited meanwhile, inserting every 20 ms: how long ingest was held. */
  longestInsertSeconds: number;
}

/** Inserts one event into today every 20 ms, on a connection of its own, until `work` ends: the longest insert, in s. */
async function longestInsertDuring(url: string, workspaceId: string, work: Promise<unknown>): Promise<number> {
  const db = createDatabase({ url, poolMax: 1 });
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  let longest = 0;
  try {
    for (let n = 0; !done; n++) {
      const started = performance.now();
      await db.raw("INSERT INTO events (workspace_id, message_id, type, occurred_at, message) VALUES (?, ?, 'page', now(), '{}')", [workspaceId, `probe-${n}`]);
      longest = Math.max(longest, seconds(started));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await db.destroy();
  }
  return longest;
}

/** A database of days whose yesterday and today hold `EVENTS` events each, then migrated to the hash index. */
async function measureMessageHashUpgrade(): Promise<MessageHashUpgrade> {
  const scratch = await scratchDatabase(ADMIN_URL, 'message_hash');
  try {
    await migrateUpTo(scratch.db, MESSAGE_HASH_MIGRATION);
    const ws = await scratch.db('workspaces').insert({ id: 'ws_upgrade', name: 'Days' }).returning('id');
    const workspaceId = (ws[0] as { id: string }).id;
    const today = dayOf(new Date());
    for (const day of [addDays(today, -1), today]) await fillDay(scratch.db, workspaceId, day, EVENTS, { withDay: true, timesOn: addDays(today, -1) });
    const started = performance.now();
    const migration = migrateToLatest(scratch.db);
    const longestInsertSeconds = await longestInsertDuring(scratch.url, workspaceId, migration);
    await migration;
    return { seconds: seconds(started), longestInsertSeconds };
  } finally {
    await scratch.drop();
  }
}

async function main(): Promise<void> {
  console.log(`Signalbox retention benchmark: one day of ${fmt(EVENTS)} events retired by dropping its partition and another by DELETE, then the upgrade of a store of ${fmt(EVENTS)} events`);
  const { drop, del } = await measureRetirement();
  const mb = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MB`;
  console.log('\n| path | seconds | events/s | WAL written | dead tuples left | VACUUM after |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(`| drop the day's partition | ${drop.seconds.toFixed(3)} | ${fmt(EVENTS / drop.seconds)} | ${mb(drop.walBytes)} | ${fmt(drop.deadTuples)} | none needed |`);
  console.log(`| DELETE in batches of 1,000 | ${del.seconds.toFixed(1)} | ${fmt(EVENTS / del.seconds)} | ${mb(del.walBytes)} | ${fmt(del.deadTuples)} | ${del.vacuumSeconds.toFixed(1)} s |`);
  const upgrade = await measureUpgrade();
  console.log(`\nupgrade: \`signalbox migrate\` on a store of ${fmt(EVENTS)} events before partitions took ${upgrade.toFixed(1)} s (${(upgrade / (EVENTS / 1_000_000)).toFixed(1)} s per million events)`);

  const messageHash = await measureMessageHashUpgrade();
  console.log(
    `upgrade: \`signalbox migrate\` to the messageIds' hash index with yesterday and today holding ${fmt(EVENTS)} events each took ${messageHash.seconds.toFixed(1)} s; ` +
      `an insert into today meanwhile waited at most ${messageHash.longestInsertSeconds.toFixed(1)} s (${(messageHash.longestInsertSeconds / (EVENTS / 1_000_000)).toFixed(1)} s per million events of today)`,
  );

  const deleteHoursPerDay = DAY_AT_SPEC_RATE / (EVENTS / del.seconds) / 3600;
  console.log('\nverdicts:');
  console.log(`- one day of ${fmt(EVENTS)} events retired in under ${DROP_LIMIT_SECONDS} s with no dead tuples: ${drop.seconds < DROP_LIMIT_SECONDS && drop.deadTuples === 0 ? 'met' : 'NOT met'} (${drop.seconds.toFixed(3)} s, DELETE ${del.seconds.toFixed(1)} s and ${fmt(del.deadTuples)} dead tuples)`);
  console.log(
    `- a day at 1,000 events/s (86,400,000 events): dropped with one catalog change whatever its size; by DELETE at the rate measured it would take ${deleteHoursPerDay.toFixed(1)} hours of statements every day, plus its VACUUM`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
