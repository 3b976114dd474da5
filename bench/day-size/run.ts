import type { Knex } from 'knex';
import { messageBody } from '../../db/event-message';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { addDays, createEventDayRepository, dayOf, partitionOf } from '../../db/repositories/event-days';
import { createIngestWriteRepository, type NewEvent } from '../../db/repositories/ingest-writes';
import { benchEvents, chunk } from '../ingest/workload';
import { statsReported } from '../growth/phase-cost';
import { fillDay, scratchDatabase } from '../retention/store';

/**
 * What the size of a day costs ingest's statement, apart from everything else: PostgreSQL alone, no HTTP, no ingest
 * process around it. Ingest's own statement (`storeUnmapped`, events only) stores batches of 100 from 4 connections
 * into a freshly migrated database whose today and yesterday hold 0 or BENCH_DAY_SIZE_EVENTS events each: today's
 * indexes take the new rows, yesterday's `messageId` index (its partition's exclusion constraint) answers the look for
 * a `messageId` stored the day before.
 * Each case also prints the WAL it wrote per event, and how many of those were full-page images (`pg_stat_wal`), and
 * the buffers each relation of today's and yesterday's partitions was asked for per event (`pg_statio_user_*`).
 *
 *   npm run bench:day-size   # BENCH_DAY_SIZE_EVENTS (1333333: 40,000,000 over 30 days), BENCH_DAY_SIZE_SECONDS (10),
 *                            # BENCH_DAY_SIZE_DROP_INDEXES (none: e.g. events_user,events_anonymous), DATABASE_URL (admin)
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_EVENTS = Number(process.env.BENCH_DAY_SIZE_EVENTS ?? 1_333_333);
const SECONDS = Number(process.env.BENCH_DAY_SIZE_SECONDS ?? 10);
const DROP_INDEXES = (process.env.BENCH_DAY_SIZE_DROP_INDEXES ?? '').split(',').filter((name) => name !== '');
const WORKSPACE_ID = 'ws_day_size';
const CONNECTIONS = 4;
const BATCH = 100;

interface Case {
  label: string;
  yesterday: number;
  today: number;
}

const CASES: Case[] = [
  { label: 'both days empty', yesterday: 0, today: 0 },
  { label: 'today full, yesterday empty', yesterday: 0, today: DAY_EVENTS },
  { label: 'yesterday full, today empty', yesterday: DAY_EVENTS, today: 0 },
  { label: 'both days full', yesterday: DAY_EVENTS, today: DAY_EVENTS },
];

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function toNewEvents(count: number): NewEvent[] {
  return benchEvents(count).map((e) => ({
    messageId: e.messageId,
    type: e.type,
    eventName: e.event,
    userId: e.userId,
    anonymousId: e.anonymousId,
    occurredAt: new Date(e.timestamp),
    messageJson: messageBody(e),
  }));
}

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

interface Measured {
  perSecond: number;
  meanMs: number;
  fullPagesPerEvent: number;
  walBytesPerEvent: number;
  /** Buffers requested per event by relation, today's partition then yesterday's. */
  buffersToday: string;
  buffersYesterday: string;
}

async function measure({ yesterday, today }: Case): Promise<Measured> {
  const scratch = await scratchDatabase(ADMIN_URL, 'day_size');
  try {
    await migrateToLatest(scratch.db);
    for (const index of DROP_INDEXES) await scratch.db.raw('DROP INDEX ??', [index]);
    await scratch.db('workspaces').insert({ id: WORKSPACE_ID, name: 'Day size' });
    const day = dayOf(new Date());
    await createEventDayRepository(scratch.db).ensure(addDays(day, -1), day);
    if (yesterday > 0) await fillDay(scratch.db, WORKSPACE_ID, addDays(day, -1), yesterday, { withDay: true });
    if (today > 0) await fillDay(scratch.db, WORKSPACE_ID, day, today, { withDay: true, timesOn: addDays(day, -1) });
    await scratch.db.raw('VACUUM ANALYZE events');
    await scratch.db.raw('CHECKPOINT');

    // Enough batches for the fastest case; made before the clock starts.
    const batches = chunk(toNewEvents(Math.ceil(SECONDS * 60_000)), BATCH);
    const writes = createIngestWriteRepository(scratch.db);
    const noProfiles = { sightings: [], links: [] };
    const partitions = { today: partitionOf(day), yesterday: partitionOf(addDays(day, -1)) };
    const [todayBefore, yesterdayBefore] = [await bufferRequests(scratch.db, partitions.today), await bufferRequests(scratch.db, partitions.yesterday)];
    const walBefore = await walSoFar(scratch.db);
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
    const walAfter = await walSoFar(scratch.db);
    await statsReported();
    return {
      buffersToday: perEvent(todayBefore, await bufferRequests(scratch.db, partitions.today), stored),
      buffersYesterday: perEvent(yesterdayBefore, await bufferRequests(scratch.db, partitions.yesterday), stored),
      perSecond: stored / seconds,
      meanMs: statementMs / (stored / BATCH),
      fullPagesPerEvent: (walAfter.fullPages - walBefore.fullPages) / stored,
      walBytesPerEvent: (walAfter.bytes - walBefore.bytes) / stored,
    };
  } finally {
    await scratch.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `Signalbox day-size benchmark: ingest's statement, batches of ${BATCH} from ${CONNECTIONS} connections for ${SECONDS} s, with today and yesterday holding 0 or ${fmt(DAY_EVENTS)} events` +
      (DROP_INDEXES.length > 0 ? `; indexes dropped: ${DROP_INDEXES.join(', ')}` : ''),
  );
  console.log(`PostgreSQL: ${await walSettings()}`);
  console.log('\n| days | events/s | statement mean ms | full pages in WAL per event | WAL bytes per event | against empty days |');
  console.log('|---|---:|---:|---:|---:|---:|');
  let empty: number | undefined;
  const buffers: string[] = [];
  for (const c of CASES) {
    const m = await measure(c);
    buffers.push(`- ${c.label}: today ${m.buffersToday}; yesterday ${m.buffersYesterday}`);
    empty ??= m.perSecond;
    console.log(
      `| ${c.label} | ${fmt(m.perSecond)} | ${fmt(m.meanMs, 2)} | ${fmt(m.fullPagesPerEvent, 3)} | ${fmt(m.walBytesPerEvent)} | ${fmt((m.perSecond / empty) * 100, 1)}% |`,
    );
  }
  console.log('\nBuffers requested per stored event (hits and reads), by relation of the two partitions:');
  for (const line of buffers) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
