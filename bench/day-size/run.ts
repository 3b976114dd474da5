import type { Knex } from 'knex';
import { createDatabase } from '../../db/knex';
import { addDays, partitionOf } from '../../db/repositories/event-days';
import { createIngestWriteRepository, type NewEvent } from '../../db/repositories/ingest-writes';
import { chunk } from '../ingest/workload';
import { statsReported } from '../growth/phase-cost';
import { cpuSecondsOf } from '../pipeline/cpu';
import { BATCH, dayCases, prepareStore, toNewEvents, WORKSPACE_ID, type Case, type Store } from './stores';

/**
 * What the size of a day costs ingest's statement, apart from everything else: PostgreSQL alone, no HTTP, no ingest
 * process around it. Ingest's own statement (`storeUnmapped`, events only) stores batches of 100 from 4 connections
 * into a freshly migrated database whose today and yesterday hold 0 or BENCH_DAY_SIZE_EVENTS events each: today's
 * indexes take the new rows, yesterday's `messageId` index (its partition's exclusion constraint) answers the look for
 * a `messageId` stored the day before. The stores of a group of cases are made first, then measured in rounds that
 * take the cases in turn (measureGroup).
 * Each case also prints the WAL it wrote per event, and how many of those were full-page images (`pg_stat_wal`), and
 * the buffers each relation of today's and yesterday's partitions was asked for per event (`pg_statio_user_*`).
 * The cases of the upgrade (issue 48) are the day after an upgrade from the layout before days: the database is
 * migrated from that layout holding BENCH_DAY_SIZE_EVENTS events received over the day before (`events_before_days`,
 * without the days' `messageId` hash index, its events still inside the window of deduplication), then yesterday's
 * partition is filled or not.
 *
 *   npm run bench:day-size   # BENCH_DAY_SIZE_EVENTS (1333333: 40,000,000 over 30 days), BENCH_DAY_SIZE_SECONDS (10),
 *                            # BENCH_DAY_SIZE_DROP_INDEXES (none: e.g. events_user,events_anonymous),
 *                            # BENCH_DAY_SIZE_CASES (days,upgrade: the groups of cases run), BENCH_DAY_SIZE_ROUNDS (2),
 *                            # DATABASE_URL (admin)
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_EVENTS = Number(process.env.BENCH_DAY_SIZE_EVENTS ?? 1_333_333);
const SECONDS = Number(process.env.BENCH_DAY_SIZE_SECONDS ?? 10);
const DROP_INDEXES = (process.env.BENCH_DAY_SIZE_DROP_INDEXES ?? '').split(',').filter((name) => name !== '');
const GROUPS = (process.env.BENCH_DAY_SIZE_CASES ?? 'days,upgrade').split(',');
const ROUNDS = Number(process.env.BENCH_DAY_SIZE_ROUNDS ?? 2);
const CONNECTIONS = 4;

const CASES = dayCases(DAY_EVENTS).filter((c) => GROUPS.includes(c.group));

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Wal {
  fullPages: number;
  bytes: number;
}

/** The whole cluster's WAL so far: the benchmark runs alone, so the difference across a case is the case's. */
async function walSoFar(db: Knex): Promise<Wal> {
  const { rows } = await db.raw<{ rows: { wal_fpi: string; wal_bytes: string }[] }>('SELECT wal_fpi, wal_bytes FROM pg_stat_wal');
  return { fullPages: Number(rows[0]?.wal_fpi), bytes: Number(rows[0]?.wal_bytes) };
}

async function walSettings(): Promise<string> {
  const db = createDatabase({ url: ADMIN_URL, poolMax: 1 });
  try {
    const names = ['shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression'];
    const { rows } = await db.raw<{ rows: { name: string; value: string }[] }>(
      'SELECT name, current_setting(name) AS value FROM unnest(?::text[]) AS name',
      [names],
    );
    return rows.map((r) => `${r.name} ${r.value}`).join(', ');
  } finally {
    await db.destroy();
  }
}

/** Buffer requests (hits and reads) of a day's partition: its heap and each index, named without the partition's prefix. */
async function bufferRequests(db: Knex, partition: string): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: { relation: string; blocks: string }[] }>(
    `SELECT 'heap' AS relation, coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0) AS blocks FROM pg_statio_user_tables WHERE relname = :partition
     UNION ALL
     SELECT replace(indexrelname, :partition || '_', ''), idx_blks_hit + idx_blks_read FROM pg_statio_user_indexes WHERE relname = :partition`,
    { partition },
  );
  return new Map(rows.map((r) => [r.relation, Number(r.blocks)]));
}

const perEvent = (before: Map<string, number>, after: Map<string, number>, events: number) =>
  [...after].map(([relation, blocks]) => `${relation} ${fmt((blocks - (before.get(relation) ?? 0)) / events, 2)}`).join(', ');

/**
 * CPU seconds so far of the database's client backends, by process (Linux /proc; PostgreSQL on this host): less
 * moved by other work on a shared machine than the rate is.
 */
async function backendCpu(db: Knex): Promise<Map<number, number>> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'");
  return new Map(rows.flatMap(({ pid }) => {
    const seconds = cpuSecondsOf(pid);
    return seconds === undefined ? [] : [[pid, seconds] as const];
  }));
}

/** CPU seconds between two snapshots; a backend started meanwhile counts from 0. */
const cpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);

interface Measured {
  perSecond: number;
  /** PostgreSQL's CPU (its backends of the scratch database) per stored event, µs. */
  cpuMicrosPerEvent: number;
  meanMs: number;
  fullPagesPerEvent: number;
  walBytesPerEvent: number;
  /** Buffers requested per event by relation, today's partition then yesterday's, then events_before_days' (upgraded stores). */
  buffersToday: string;
  buffersYesterday: string;
  buffersBeforeDays: string;
}

/** One round: SECONDS of ingest's statement from CONNECTIONS connections, from a checkpoint. */
async function measureRound({ db, day }: Store): Promise<Measured> {
  await db.raw('CHECKPOINT');
  // Enough batches for the fastest case; made before the clock starts.
  const batches = chunk(toNewEvents(Math.ceil(SECONDS * 60_000)), BATCH);
  const writes = createIngestWriteRepository(db);
  const noProfiles = { sightings: [], links: [] };
  const partitions = { today: partitionOf(day), yesterday: partitionOf(addDays(day, -1)), beforeDays: 'events_before_days' };
  const [todayBefore, yesterdayBefore, beforeDaysBefore] = [
    await bufferRequests(db, partitions.today),
    await bufferRequests(db, partitions.yesterday),
    await bufferRequests(db, partitions.beforeDays),
  ];
  const walBefore = await walSoFar(db);
  const cpuBefore = await backendCpu(db);
  let next = 0;
  let stored = 0;
  let statementMs = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline && next < batches.length) {
        const batch = batches[next++] as NewEvent[];
        const sent = performance.now();
        await writes.storeUnmapped(WORKSPACE_ID, batch, noProfiles, []);
        statementMs += performance.now() - sent;
        stored += batch.length;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMicrosPerEvent = (cpuBetween(cpuBefore, await backendCpu(db)) * 1e6) / stored;
  const walAfter = await walSoFar(db);
  await statsReported();
  return {
    buffersToday: perEvent(todayBefore, await bufferRequests(db, partitions.today), stored),
    buffersYesterday: perEvent(yesterdayBefore, await bufferRequests(db, partitions.yesterday), stored),
    buffersBeforeDays: perEvent(beforeDaysBefore, await bufferRequests(db, partitions.beforeDays), stored),
    perSecond: stored / seconds,
    cpuMicrosPerEvent,
    meanMs: statementMs / (stored / BATCH),
    fullPagesPerEvent: (walAfter.fullPages - walBefore.fullPages) / stored,
    walBytesPerEvent: (walAfter.bytes - walBefore.bytes) / stored,
  };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * A group's cases, each on its store, measured in ROUNDS rounds that take the cases in turn, each round starting one
 * case later: a case's share of the group's first is the geometric mean of its rounds' shares of that case's rate in
 * the same round, so that a machine whose load changes from minute to minute weighs on both alike.
 */
async function measureGroup(cases: readonly Case[]): Promise<{ rounds: Measured[][]; shares: number[] }> {
  const stores: Store[] = [];
  try {
    for (const c of cases) stores.push(await prepareStore(ADMIN_URL, c, DROP_INDEXES));
    const rounds: Measured[][] = cases.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let turn = 0; turn < cases.length; turn++) {
        const index = (round + turn) % cases.length;
        (rounds[index] as Measured[]).push(await measureRound(stores[index] as Store));
      }
    }
    const first = rounds[0] as Measured[];
    const shares = rounds.map((measured) => Math.exp(measured.reduce((sum, m, round) => sum + Math.log(m.perSecond / (first[round] as Measured).perSecond), 0) / ROUNDS));
    return { rounds, shares };
  } finally {
    for (const store of stores) await store.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `Signalbox day-size benchmark: ingest's statement, batches of ${BATCH} from ${CONNECTIONS} connections, ${ROUNDS} round(s) of ${SECONDS} s a case, with days holding 0 or ${fmt(DAY_EVENTS)} events` +
      (DROP_INDEXES.length > 0 ? `; indexes dropped: ${DROP_INDEXES.join(', ')}` : ''),
  );
  console.log(`PostgreSQL: ${await walSettings()}`);
  console.log('\n| days | events/s, each round | median | statement mean ms | PostgreSQL µs CPU per event, each round | full pages in WAL per event | WAL bytes per event | against the first of its group |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const buffers: string[] = [];
  for (const group of GROUPS) {
    const cases = CASES.filter((c) => c.group === group);
    if (cases.length === 0) continue;
    const { rounds, shares } = await measureGroup(cases);
    cases.forEach((c, index) => {
      const measured = rounds[index] as Measured[];
      const rate = median(measured.map((m) => m.perSecond));
      const m = measured.find((round) => round.perSecond === rate) as Measured;
      buffers.push(`- ${c.label}: today ${m.buffersToday}; yesterday ${m.buffersYesterday}${m.buffersBeforeDays === '' ? '' : `; events_before_days ${m.buffersBeforeDays}`}`);
      console.log(
        `| ${c.label} | ${measured.map((round) => fmt(round.perSecond)).join(', ')} | ${fmt(rate)} | ${fmt(m.meanMs, 2)} | ${measured.map((round) => fmt(round.cpuMicrosPerEvent, 1)).join(', ')} | ${fmt(m.fullPagesPerEvent, 3)} | ${fmt(m.walBytesPerEvent)} | ${fmt((shares[index] as number) * 100, 1)}% |`,
      );
    });
  }
  console.log('\nBuffers requested per stored event (hits and reads) in the median round, by relation of the partitions:');
  for (const line of buffers) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
