import { performance } from 'node:perf_hooks';
import { deflateRawSync } from 'node:zlib';
import type { Knex } from 'knex';
import { createKnownLinks } from '../../api/ingest/known-links';
import { profilesOf, toNewEvent } from '../../api/ingest/record-batch';
import { migrateToLatest } from '../../db/knex';
import { addDays, createEventDayRepository, dayOf, partitionOf } from '../../db/repositories/event-days';
import { createIngestWriteRepository, type NewEvent, type Profiles } from '../../db/repositories/ingest-writes';
import { messageBody } from '../../db/event-message';
import { eventsParts, footprint } from '../growth/footprint';
import { benchEvents, chunk, type BenchEvent } from '../ingest/workload';
import { received } from '../day-size/stores';
import { scratchDatabase } from '../retention/store';

/**
 * Bytes per stored event (issue 49: `events`, table + indexes, at most 655), counted rather than timed: N of the
 * ingest benchmark's events go through ingest's own statement (`storeUnmapped`, batches of 100, one connection) with
 * the visitor sightings and identity links `observe` finds in them, into a freshly migrated scratch database per
 * layout. Every layout stores the same messages, so the first (the schema as migrated) is the figure without a change
 * in the same run. Printed per event: `events`' rows, TOAST and each index, and the other tables ingest writes.
 *
 * The other layouts are what issue 49 asked to try, applied to the scratch database after migrating (none of them is
 * a migration of this project):
 * - `PostgreSQL compression`: today's partition with `toast_tuple_target = 128`, its `message` stored MAIN and
 *   compressed with lz4. PostgreSQL 15 starts toasting a row only above TOAST_TUPLE_THRESHOLD (about 2 kB, fixed when
 *   it is built: `heap_prepare_insert`), whatever `toast_tuple_target` says, so a row of under 1 kB is stored as is
 *   (https://go.mail-archive.com/pgsql-hackers@lists.postgresql.org/msg36725.html; BENCHMARKS.md, issue 49).
 * - `lean indexes`: `events_user` and `events_anonymous` partial (WHERE … IS NOT NULL), `events_received` without its
 *   INCLUDE (type, event_name).
 * - `message deflated by the application`: each stored body (`messageBody`) compressed by Node's zlib (deflateRaw,
 *   level 6, with the preset DICTIONARY of Segment's field names and common web values) and stored base64-encoded as
 *   a jsonb string, so that it still goes through ingest's statement unchanged; a `bytea` column would hold about a
 *   quarter less. Its compression time per message is printed.
 *
 * The statement time per event (wall clock, sum over the statements) is printed beside the bytes: on a shared
 * machine it moves from run to run; the bytes do not.
 *
 *   npm run bench:bytes   # BENCH_BYTES_EVENTS (100000), DATABASE_URL (admin)
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_BYTES_EVENTS ?? 100_000);
const BATCH = 100;
const WORKSPACE_ID = 'ws_bytes';
/** Issue 49: half of the 1,311 bytes per event of `events` at turn 4. */
const LIMIT = 655;
/** One event in this many carries a TikTok click ID (the growth benchmark's 25 clicks per 1,000 events). */
const CLICK_EVERY = 40;

interface Layout {
  label: string;
  /** DDL run on the migrated scratch database, with today's partition created, before anything is stored. */
  apply(db: Knex, today: string): Promise<void>;
  /** The stored body made from `messageBody`'s JSON; unchanged when absent. */
  pack?: (json: string) => string;
}

/**
 * Strings common in Segment messages from websites and apps (the spec's field names, user agents' fixed parts, URL
 * parts), most frequent last as deflate's preset dictionary wants them. None is one of the benchmark's own values, but
 * its iOS Safari user agent differs from theirs only by the version, and they all share it: the benchmark's bodies
 * deflate better than real traffic's would.
 */
const DICTIONARY = Buffer.from(
  [
    '"integrations":{},"library":{"name":"analytics.js","version":"},"campaign":{"source":"medium":"name":"content":"timezone":"',
    '"screen":{"width":"height":"density":"os":{"name":"iOS","Android","version":"},"app":{"build":"namespace":"},"device":{"model":"manufacturer":"Apple"',
    '"order_id":"revenue":"total":"value":"products":[{"sku":"tax":"shipping":"discount":"coupon":"EUR","GBP","phone":"+1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    '"path":"/","search":"?utm_source=tiktok&utm_medium=paid&utm_campaign=","title":"","ttclid":"","ttp":"',
    '{"timestamp":"2026-12-01T12:00:00.000Z","properties":{"product_id":"","name":"","category":"","price":,"currency":"USD","quantity":1},',
    '"context":{"ip":"","userAgent":"Mozilla/5.0 ","locale":"en-US","page":{"url":"https://www.","referrer":"https://www.google.com/"},"traits":{"email":"@gmail.com"}}}',
  ].join(''),
);

const deflated = (json: string) => deflateRawSync(json, { level: 6, windowBits: 12, memLevel: 4, dictionary: DICTIONARY });

const LAYOUTS: Layout[] = [
  { label: 'as migrated', apply: async () => undefined },
  {
    label: 'PostgreSQL compression (lz4, toast_tuple_target 128)',
    async apply(db, today) {
      const partition = partitionOf(today);
      await db.raw('ALTER TABLE ?? SET (toast_tuple_target = 128)', [partition]);
      await db.raw('ALTER TABLE ?? ALTER COLUMN message SET STORAGE MAIN, ALTER COLUMN message SET COMPRESSION lz4', [partition]);
    },
  },
  {
    label: 'lean indexes',
    async apply(db) {
      await db.raw('DROP INDEX events_user, events_anonymous, events_received');
      await db.raw('CREATE INDEX events_user ON events (workspace_id, user_id) WHERE user_id IS NOT NULL');
      await db.raw('CREATE INDEX events_anonymous ON events (workspace_id, anonymous_id) WHERE anonymous_id IS NOT NULL');
      await db.raw('CREATE INDEX events_received ON events (workspace_id, received_at, id)');
    },
  },
  {
    label: 'message deflated by the application',
    apply: async () => undefined,
    pack: (json) => JSON.stringify(deflated(json).toString('base64')),
  },
];

/** The benchmark's product views, one in CLICK_EVERY with a `ttclid` as a TikTok ad's link gives it. */
function messages(count: number): BenchEvent[] {
  return benchEvents(count).map((event, i) =>
    i % CLICK_EVERY === 0 ? { ...event, context: { ...event.context, ttclid: `E.C.P.${event.messageId.replaceAll('-', '')}` } } : event,
  );
}

/** What ingest's recorder makes of a message, its stored body packed by the layout. */
function toStored(batch: readonly BenchEvent[], pack: (json: string) => string = (json) => json): { events: NewEvent[]; profiles: Profiles } {
  const arrivals = batch.map(received);
  const events = arrivals.map((arrival) => {
    const event = toNewEvent(arrival);
    return { ...event, messageJson: pack(event.messageJson) };
  });
  return { events, profiles: profilesOf({ id: WORKSPACE_ID, defaultPhoneRegion: 'US' }, arrivals, createKnownLinks()) };
}

interface Measured {
  label: string;
  parts: { part: string; bytes: number }[];
  tables: { table: string; rows: number; bytes: number }[];
  statementMs: number;
}

async function measure(layout: Layout, batches: readonly BenchEvent[][]): Promise<Measured> {
  const scratch = await scratchDatabase(ADMIN_URL, 'bytes');
  try {
    const { db } = scratch;
    await migrateToLatest(db);
    await db('workspaces').insert({ id: WORKSPACE_ID, name: 'Bytes' });
    const today = dayOf(new Date());
    await createEventDayRepository(db).ensure(addDays(today, -1), addDays(today, 1));
    await layout.apply(db, today);
    const writes = createIngestWriteRepository(db);
    let statementMs = 0;
    for (const batch of batches) {
      const { events, profiles } = toStored(batch, layout.pack);
      const started = performance.now();
      await writes.storeUnmapped(WORKSPACE_ID, events, profiles, [...new Set(events.map((e) => e.eventName ?? ''))]);
      statementMs += performance.now() - started;
    }
    // Sizes as they stand after autovacuum's pass: the free space map and visibility map exist, nothing is moved.
    await db.raw('VACUUM events, visitors, clicks, identity_links');
    return { label: layout.label, parts: await eventsParts(db), tables: await footprint(db), statementMs };
  } finally {
    await scratch.drop();
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function report(results: readonly Measured[]): void {
  const [before] = results as [Measured];
  const perEvent = (bytes: number) => bytes / EVENTS;
  const partNames = [...new Set(results.flatMap((r) => r.parts.map((p) => p.part)))];
  console.log(`\nBytes per stored event, ${fmt(EVENTS)} events (limit for \`events\`: ${LIMIT}; first column: the schema as migrated)\n`);
  console.log(`| part | ${results.map((r) => r.label).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---:').join('|')}|`);
  for (const part of partNames) {
    const cells = results.map((r) => fmt(perEvent(r.parts.find((p) => p.part === part)?.bytes ?? 0)));
    console.log(`| events: ${part} | ${cells.join(' | ')} |`);
  }
  const eventsTotal = (r: Measured) => perEvent(r.tables.find((t) => t.table === 'events')?.bytes ?? 0);
  console.log(`| **events, table + indexes** | ${results.map((r) => `**${fmt(eventsTotal(r))}**`).join(' | ')} |`);
  for (const table of before.tables.filter((t) => t.table !== 'events')) {
    const cells = results.map((r) => {
      const t = r.tables.find((x) => x.table === table.table);
      return `${fmt(perEvent(t?.bytes ?? 0))} (${fmt(t?.rows ?? 0)} rows)`;
    });
    console.log(`| ${table.table} | ${cells.join(' | ')} |`);
  }
  const all = (r: Measured) => perEvent(r.tables.reduce((sum, t) => sum + t.bytes, 0));
  console.log(`| all five tables | ${results.map((r) => fmt(all(r))).join(' | ')} |`);
  console.log(`| statement time per event (wall, µs) | ${results.map((r) => fmt((r.statementMs * 1000) / EVENTS, 1)).join(' | ')} |`);
  console.log('');
  for (const r of results) {
    const bytes = eventsTotal(r);
    console.log(
      `${r.label}: ${fmt(bytes)} bytes per event in \`events\` against the limit of ${LIMIT}: ${bytes <= LIMIT ? 'PASS' : 'FAIL'}` +
        `; ${fmt((bytes / eventsTotal(before)) * 100, 1)}% of ${fmt(eventsTotal(before))} as migrated`,
    );
  }
}

/** The stored body's JSON and deflated sizes, and the time deflate takes per message (on this machine, as loaded as it is). */
function deflateCost(sample: readonly BenchEvent[]): string {
  const bodies = sample.map((e) => messageBody(e));
  deflated(bodies[0] as string);
  const started = performance.now();
  const sizes = bodies.map((body) => deflated(body).length);
  const micros = ((performance.now() - started) * 1000) / bodies.length;
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return `stored body ${fmt(mean(bodies.map((b) => Buffer.byteLength(b))))} bytes of JSON, deflated ${fmt(mean(sizes))} bytes, ${fmt(micros, 1)} µs a message to deflate`;
}

async function main(): Promise<void> {
  console.log(`Signalbox bytes per stored event: ${fmt(EVENTS)} of the ingest benchmark's events (1 in ${CLICK_EVERY} with a ttclid), ingest's statement, batches of ${BATCH}`);
  const batches = chunk(messages(EVENTS), BATCH);
  const results: Measured[] = [];
  for (const layout of LAYOUTS) {
    results.push(await measure(layout, batches));
    console.log(`  ${layout.label}: stored`);
  }
  report(results);
  console.log(`message deflated by the application: ${deflateCost(messages(Math.min(EVENTS, 20_000)))}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
