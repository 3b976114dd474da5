import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { UNMAPPED_NAMES_SQL } from '../../db/repositories/event-listing';
import { createSecretBox } from '../../db/secret-box';

/**
 * What the `events_received` index buys and costs on a big workspace: `rules suggest` (unmapped event names of the
 * last 7 days, with counts) and the newest events of a small workspace sharing the table, each timed with the index
 * and with PostgreSQL's index scans turned off (the plan the table had before); then the price at ingest, batches of
 * 1,000 events inserted with and without the index. Prints medians, ratios and the PostgreSQL backend's CPU (queries
 * run without parallel workers, so that it is all of their CPU).
 *
 *   npm run bench:suggest    # BENCH_EVENTS (1000000), BENCH_ROUNDS (5), DATABASE_URL (admin connection, default local)
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BIG = 'ws_bench_big';
const SMALL = 'ws_bench_7';
const NAMES = ['Product Viewed', 'Product Added', 'Order Completed', 'Checkout Started', 'Products Searched', 'Signed Up', 'Cart Viewed', 'Coupon Applied', 'Product Clicked', 'Promotion Viewed', 'Wishlist Shared', 'Review Posted'];
const DAY_MS = 86_400_000;
/** The plan the table had before the index. */
const NO_INDEXES = 'SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; SET LOCAL enable_bitmapscan = off';
/** One process per query, so that the backend's CPU is all of it (parallel workers are processes of their own). */
const NO_PARALLEL = 'SET LOCAL max_parallel_workers_per_gather = 0';

/** CPU milliseconds a process has used (Linux /proc: utime + stime, 100 ticks per second). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function seed(db: Knex): Promise<void> {
  await db.raw(`INSERT INTO workspaces (id, name) SELECT 'ws_bench_' || i, 'Shop ' || i FROM generate_series(0, 49) i UNION ALL SELECT ?, 'Big shop'`, [BIG]);
  // Half the events are the big workspace's, spread over 30 days; 70% are tracks of twelve names, the rest page views.
  await db.raw(
    `INSERT INTO events (workspace_id, message_id, type, event_name, anonymous_id, occurred_at, received_at, message)
     SELECT CASE WHEN i % 2 = 0 THEN ? ELSE 'ws_bench_' || (i % 50) END, 'm-' || i,
            CASE WHEN i % 10 < 7 THEN 'track' ELSE 'page' END,
            CASE WHEN i % 10 < 7 THEN (?::text[])[1 + (i / 10) % 12] ELSE 'Home' END,
            'a-' || (i % 100000), t.at, t.at, '{"type":"track"}'::jsonb
     FROM generate_series(1, ?) i, LATERAL (SELECT now() - (i::float8 / ?) * interval '30 days' AS at) t`,
    [BIG, NAMES, EVENTS, EVENTS],
  );
  await db('conversion_rules').insert(['Order Completed', 'Product Added'].map((event) => ({ workspace_id: BIG, source_event: event, tiktok_event: 'CompletePayment', value_source: 'order_total' })));
  await db.raw('VACUUM ANALYZE events');
}

/** Median wall time and the backend's CPU per round, with PostgreSQL free to use indexes or not. */
async function timed(db: Knex, backendPid: number, useIndexes: boolean, query: (trx: Knex) => Promise<unknown>) {
  const walls: number[] = [];
  const cpuBefore = cpuMs(backendPid);
  for (let round = 0; round < ROUNDS; round++) {
    await db.transaction(async (trx) => {
      await trx.raw(useIndexes ? NO_PARALLEL : `${NO_PARALLEL}; ${NO_INDEXES}`);
      const started = performance.now();
      await query(trx);
      walls.push(performance.now() - started);
    });
  }
  return { wallMs: median(walls), cpuMs: (cpuMs(backendPid) - cpuBefore) / ROUNDS };
}

async function insertBatches(repos: ReturnType<typeof createRepositories>, label: string): Promise<number> {
  const walls: number[] = [];
  for (let batch = 0; batch < 20; batch++) {
    const events = Array.from({ length: 1000 }, (_, n) => ({
      messageId: `${label}-${batch}-${n}`,
      type: 'track',
      eventName: NAMES[n % NAMES.length] as string,
      userId: null,
      anonymousId: `a-${n}`,
      occurredAt: new Date(),
      messageJson: JSON.stringify({ type: 'track', event: NAMES[n % NAMES.length], properties: { order_id: `o-${n}`, total: 10 } }),
    }));
    const started = performance.now();
    await repos.ingestWrites.transaction((trx) => trx.storeEvents(BIG, events, []));
    walls.push(performance.now() - started);
  }
  return median(walls);
}

function row(what: string, withIndex: { wallMs: number; cpuMs: number }, without: { wallMs: number; cpuMs: number }): string {
  return `${what.padEnd(38)} ${withIndex.wallMs.toFixed(1).padStart(9)} ms ${without.wallMs.toFixed(1).padStart(9)} ms ${(without.wallMs / withIndex.wallMs).toFixed(1).padStart(7)}×   backend CPU ${withIndex.cpuMs.toFixed(0)} / ${without.cpuMs.toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const name = `signalbox_bench_suggest_${randomBytes(4).toString('hex')}`;
  const admin = createDatabase({ url: ADMIN_URL, poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  // One connection, so that one PostgreSQL backend runs every query and its CPU can be read from /proc.
  const db = createDatabase({ url: url.toString(), poolMax: 1 });
  try {
    await migrateToLatest(db);
    const seeding = performance.now();
    await seed(db);
    console.log(`${EVENTS.toLocaleString('en-US')} events (half in ${BIG}, over 30 days), seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s; median of ${ROUNDS} rounds`);
    const repos = createRepositories(db, createSecretBox('00'.repeat(32)));
    const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
    const backendPid = rows[0]?.pid as number;
    const since = new Date(Date.now() - 7 * DAY_MS);

    const suggest = (trx: Knex) => repos.eventListing.unmappedNames(BIG, since, 100, trx);
    const smallPage = (trx: Knex) => repos.eventListing.page(SMALL, { limit: 50 }, trx);
    const plan = async (sql: string, bindings: readonly Knex.RawBinding[], useIndexes: boolean) =>
      db.transaction(async (trx) => {
        await trx.raw(useIndexes ? NO_PARALLEL : `${NO_PARALLEL}; ${NO_INDEXES}`);
        const explained = await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>(`EXPLAIN ${sql}`, bindings);
        return explained.rows.map((r) => r['QUERY PLAN']).find((line) => /Scan/.test(line))?.trim();
      });
    console.log(`plan with the index:    ${await plan(UNMAPPED_NAMES_SQL, [BIG, since, BIG, 100], true)}`);
    console.log(`plan without:           ${await plan(UNMAPPED_NAMES_SQL, [BIG, since, BIG, 100], false)}`);
    console.log('');
    console.log(`${'query'.padEnd(38)} ${'index'.padStart(12)} ${'no index'.padStart(12)} ${'ratio'.padStart(8)}`);
    console.log(row('rules suggest, big workspace (7 days)', await timed(db, backendPid, true, suggest), await timed(db, backendPid, false, suggest)));
    console.log(row('events list, small workspace (50)', await timed(db, backendPid, true, smallPage), await timed(db, backendPid, false, smallPage)));

    const withIndex = await insertBatches(repos, 'with');
    await db.raw('DROP INDEX events_received');
    const withoutIndex = await insertBatches(repos, 'without');
    console.log(`ingest, 1,000 events per insert: ${withIndex.toFixed(1)} ms with the index, ${withoutIndex.toFixed(1)} ms without (${(withIndex / withoutIndex).toFixed(2)}×)`);
    console.log(`bench process CPU ${(cpuMs(process.pid) / 1000).toFixed(1)} s`);
  } finally {
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
