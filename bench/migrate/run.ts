import type { Knex } from 'knex';
import { migrateUpTo, migrationConfig } from '../../db/knex';
import { pendingMigrations } from '../../db/migration-status';
import { addDays, dayOf } from '../../db/repositories/event-days';
import { fillDay, scratchDatabase } from '../retention/store';
import { addConversions, previousBuildWriting, watchLocks } from './under-load';

/**
 * Issue 48: `signalbox migrate` from the layout before days (the release before issue 30) on a store holding
 * BENCH_MIGRATE_EVENTS events (default 1,000,000) and BENCH_MIGRATE_CONVERSIONS conversions (default 150,000, the
 * issue's store's ratio), while the previous build stores purchases and its pipeline updates stored conversions. Each
 * migration runs alone; each statement is timed and counted against the table it reads (conversions first: the
 * back-fill names both), which gives the seconds per million rows the migrations declare in their `steps`. The lock
 * watch reports the longest a writer waited, on the back-fill and on any step.
 *
 *   npm run bench:migrate    # DATABASE_URL (admin connection, default local), BENCH_MIGRATE_EVENTS, BENCH_MIGRATE_CONVERSIONS
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_MIGRATE_EVENTS ?? 1_000_000);
const CONVERSIONS = Number(process.env.BENCH_MIGRATE_CONVERSIONS ?? 150_000);
const PARTITIONS_MIGRATION = '20261130100000_events_by_day';
const WORKSPACE_ID = 'ws_migrate';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Seconds spent per migration, table read and kind of statement (its first word). */
type Spent = Map<string, number>;

function timeStatements(db: Knex, current: () => string): Spent {
  const spent: Spent = new Map();
  const started = new Map<string, number>();
  db.client.on('query', (query: { __knexQueryUid: string }) => started.set(query.__knexQueryUid, performance.now()));
  db.client.on('query-response', (_response: unknown, query: { __knexQueryUid: string; sql: string }) => {
    const from = started.get(query.__knexQueryUid);
    if (from === undefined) return;
    const table = /\bconversions\b/.test(query.sql) ? 'conversions' : /\bevents\b/.test(query.sql) ? 'events' : 'other';
    const kind = (query.sql.trim().split(/\s+/)[0] ?? '').toUpperCase();
    const key = `${current()}\t${table}\t${kind}`;
    spent.set(key, (spent.get(key) ?? 0) + (performance.now() - from) / 1000);
  });
  return spent;
}

async function main(): Promise<void> {
  console.log(`Signalbox migrate benchmark: the upgrade from the layout before days with ${fmt(EVENTS)} events and ${fmt(CONVERSIONS)} conversions, the previous build writing`);
  const scratch = await scratchDatabase(ADMIN_URL, 'migrate');
  try {
    const { db } = scratch;
    await migrateUpTo(db, PARTITIONS_MIGRATION);
    await db('workspaces').insert({ id: WORKSPACE_ID, name: 'Before days' });
    await fillDay(db, WORKSPACE_ID, addDays(dayOf(new Date()), -1), EVENTS, { withDay: false });
    await addConversions(db, WORKSPACE_ID, CONVERSIONS);
    await db.raw('ANALYZE conversions');

    let running = '';
    const spent = timeStatements(db, () => running);
    const writers = previousBuildWriting(scratch.url, WORKSPACE_ID, CONVERSIONS);
    const locks = watchLocks(scratch.url);
    const took = new Map<string, number>();
    try {
      for (const name of await pendingMigrations(db)) {
        running = name;
        const started = performance.now();
        await db.migrate.up(migrationConfig);
        took.set(name, (performance.now() - started) / 1000);
      }
    } finally {
      const seen = await locks.stop();
      const writes = await writers.stop();
      console.log(`\nthe previous build committed ${fmt(writes)} writes meanwhile; the longest a writer waited on a lock: ${seen.longestWait.toFixed(2)} s, ` +
        `on one the back-fill held: ${seen.longestWaitOnBackfill.toFixed(2)} s; the back-fill held ${[...seen.heldByBackfill].sort().join(', ') || 'nothing seen'}`);
    }

    console.log('\n| migration | seconds | table read | statements | seconds | per million rows |');
    console.log('|---|---:|---|---|---:|---:|');
    for (const [name, seconds] of took) {
      const rows = [...spent].filter(([key, s]) => key.startsWith(`${name}\t`) && s >= 0.05);
      if (rows.length === 0) console.log(`| ${name} | ${seconds.toFixed(2)} | | | | |`);
      for (const [index, [key, s]] of rows.entries()) {
        const [, table, kind] = key.split('\t') as [string, string, string];
        const size = table === 'events' ? EVENTS : table === 'conversions' ? CONVERSIONS : 0;
        const perMillion = size === 0 ? '' : `${(s / (size / 1_000_000)).toFixed(1)} s / M ${table}`;
        console.log(`| ${index === 0 ? name : ''} | ${index === 0 ? seconds.toFixed(2) : ''} | ${table} | ${kind} | ${s.toFixed(2)} | ${perMillion} |`);
      }
    }
    const total = [...took.values()].reduce((sum, s) => sum + s, 0);
    console.log(`\nall migrations: ${total.toFixed(1)} s`);
  } finally {
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
