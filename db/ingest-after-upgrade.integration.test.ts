import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import type { Client, QueryConfig } from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { buildTestApp, type TestApp } from '../test/helpers/test-app';
import { createDatabase, migrateUpTo, migrationConfig } from './knex';
import { addDays, dayOf, partitionOf, type Day } from './repositories/event-days';
import { createIngestWriteRepository, storeEventsQuery, storeUnmappedQuery, type NewEvent } from './repositories/ingest-writes';

/**
 * Issue 48: ingest on a store upgraded to days. Its events stored before the upgrade are one partition,
 * `events_before_days`, without the days' `messageId` hash index; ingest's statements must still probe indexes only,
 * and still recognise a message stored before the upgrade as a repeat within the window of deduplication.
 */
const PARTITIONS = '20261130100000_events_by_day';
const WORKSPACE = 'ws_upgraded';
/** Rows in the partition of the events stored before the upgrade, and in the day before's: enough for the planner to weigh them. */
const STORED = 60_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
const isEventsPartition = (node: PlanNode) => /^events_(\d{8}|before_days)$/.test(node['Relation Name'] ?? '');

/** A batch of 100 page views, as ingest stores a group. */
const batch: NewEvent[] = Array.from({ length: 100 }, (_, i) => ({
  messageId: `m-batch-${i}`, type: 'page', eventName: null, userId: null, anonymousId: `anon-${i % 7}`, occurredAt: new Date(), messageJson: '{"type":"page"}',
}));

/**
 * The plans PostgreSQL makes of a statement as ingest sends it (named, so generic after five runs; custom before):
 * both, through PREPARE and EXPLAIN EXECUTE with the statement's own values (EXPLAIN takes no bind parameters: they
 * are written as literals).
 */
async function plansOf(db: Knex, { text, values = [] }: QueryConfig): Promise<PlanNode[][]> {
  const connection = (await db.client.acquireConnection()) as Client;
  const literal = (value: unknown) =>
    Array.isArray(value) ? `ARRAY[${value.map((v) => connection.escapeLiteral(String(v))).join(', ')}]::text[]` : connection.escapeLiteral(String(value));
  try {
    await connection.query(`PREPARE planned AS ${text}`);
    const plans: PlanNode[][] = [];
    for (const mode of ['force_generic_plan', 'force_custom_plan']) {
      await connection.query(`SET plan_cache_mode = ${mode}`);
      const { rows } = await connection.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) EXECUTE planned(${values.map(literal).join(', ')})`);
      plans.push(nodesOf((rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan));
    }
    return plans;
  } finally {
    await connection.query('DEALLOCATE planned; RESET plan_cache_mode').catch(() => undefined);
    await db.client.releaseConnection(connection);
  }
}

/** Every scan of a partition of `events` is an index scan, no hash or merge join reads one, and only `expected` are read. */
function expectIndexProbes(plan: PlanNode[], expected: string[]): void {
  const scans = plan.filter(isEventsPartition);
  expect([...new Set(scans.map((node) => node['Relation Name']))].sort()).toEqual([...expected].sort());
  for (const scan of scans) expect(`${scan['Node Type']} on ${scan['Relation Name']}`).toMatch(/^Index (Only )?Scan on /);
  for (const join of plan.filter((node) => ['Hash Join', 'Merge Join'].includes(node['Node Type']))) {
    expect(nodesOf(join).filter(isEventsPartition)).toEqual([]);
  }
}

/**
 * `count` page views of the workspace received at `received` (SQL): on `day`, or in the layout before days. On a
 * connection of its own, without the services' statement timeout.
 */
async function fill({ url }: TestDatabase, count: number, received: string, day?: Day): Promise<void> {
  const db = createDatabase({ url, poolMax: 1 });
  try {
    await db.raw(
      `INSERT INTO events (workspace_id, message_id, type, anonymous_id, occurred_at, received_at, ${day === undefined ? '' : 'received_on, '}message)
       SELECT ?, 'm-' || md5(? || g), 'page', 'anon-' || g % 500, t.at, t.at, ${day === undefined ? '' : '?::date, '}'{"type":"page"}'
       FROM generate_series(1, ?::int) g, (SELECT ${received} AS at) t`,
      [WORKSPACE, received, ...(day === undefined ? [] : [day]), count],
    );
    await db.raw('VACUUM ANALYZE events');
  } finally {
    await db.destroy();
  }
}

const noon = (day: Day) => `('${day}'::timestamp AT TIME ZONE 'UTC' + interval '12 hours')`;

describe('ingest on a store upgraded to days, the day after the upgrade', () => {
  let testDb: TestDatabase;
  let db: Knex;
  let today: Day;

  beforeAll(async () => {
    testDb = await createTestDatabase({ migrated: false });
    db = testDb.db;
    await migrateUpTo(db, PARTITIONS);
    await db('workspaces').insert({ id: WORKSPACE, name: 'Upgraded' });
    // Before the upgrade: a long history, and a few messages of the last hours that clients will send again.
    await fill(testDb, STORED, "now() - interval '5 days'");
    const old = (messageId: string, type: string, received: string, extra: object = {}) => ({
      workspace_id: WORKSPACE, message_id: messageId, type, anonymous_id: 'anon-old', occurred_at: db.raw(received), received_at: db.raw(received), message: { type }, ...extra,
    });
    await db('events').insert([
      old('m-before-upgrade', 'page', 'now()'),
      old('m-order-before-upgrade', 'track', 'now()', { event_name: 'purchase', user_id: 'u-1' }),
      old('m-three-days-ago', 'page', "now() - interval '3 days'"),
    ]);

    await db.migrate.latest(migrationConfig);
    // The day after: the day before holds a full day of events (its partition was made by the migration).
    today = dayOf(new Date());
    await fill(testDb, STORED, noon(addDays(today, -1)), addDays(today, -1));
  });
  afterAll(() => testDb.destroy());

  it("plans each ingest statement as index probes into the day before's partition and events_before_days only", async () => {
    const statements = [
      storeUnmappedQuery(WORKSPACE, batch, { sightings: [], links: [] }, ['page_scrolled'], today),
      storeEventsQuery(WORKSPACE, batch, ['purchase'], today),
    ];
    for (const statement of statements) {
      for (const plan of await plansOf(db, statement)) {
        expectIndexProbes(plan, [partitionOf(addDays(today, -1)), 'events_before_days']);
        expect(plan).toContainEqual(expect.objectContaining({ 'Relation Name': partitionOf(addDays(today, -1)), 'Index Name': `${partitionOf(addDays(today, -1))}_message` }));
      }
    }
  });

  describe('through the ingest API', () => {
    let subject: TestApp;
    let app: FastifyInstance;
    let key: string;

    beforeAll(async () => {
      subject = buildTestApp(db);
      app = subject.app;
      key = (await subject.repos.apiKeys.create(WORKSPACE, 'backend')).key;
      await subject.repos.conversionRules.put(WORKSPACE, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    });
    afterAll(() => app.close());

    const send = (batch: object[]) =>
      app.inject({ method: 'POST', url: '/v1/batch', payload: { batch }, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
    const stored = async (messageId: string) => Number((await db('events').where({ workspace_id: WORKSPACE, message_id: messageId }).count<{ count: string }[]>('* as count'))[0]?.count);

    it('answers a message stored before the upgrade, within the window, as a duplicate and stores it once', async () => {
      const response = await send([
        { type: 'page', messageId: 'm-before-upgrade', anonymousId: 'anon-old' },
        { type: 'page', messageId: 'm-after-upgrade', anonymousId: 'anon-old' },
      ]);
      expect(response.json()).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
      expect([await stored('m-before-upgrade'), await stored('m-after-upgrade')]).toEqual([1, 1]);
    });

    it('does so on the path of a batch a conversion rule maps, without a conversion for the repeat', async () => {
      const response = await send([{ type: 'track', event: 'purchase', messageId: 'm-order-before-upgrade', userId: 'u-1', properties: { order_id: 'o-1', total: 10 } }]);
      expect(response.json()).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
      expect(await stored('m-order-before-upgrade')).toBe(1);
      expect(await db('conversions').where({ workspace_id: WORKSPACE }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    });

    it('stores again a message stored before the upgrade but before the day before, as for the days after it', async () => {
      const response = await send([{ type: 'page', messageId: 'm-three-days-ago', anonymousId: 'anon-old' }]);
      expect(response.json()).toEqual({ success: true });
      expect(await stored('m-three-days-ago')).toBe(2);
    });
  });
});

describe('ingest on a store created with days', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(() => testDb.destroy());

  it('plans its statements over the day before only: there is no partition of events stored before days to look into', async () => {
    const today = dayOf(new Date());
    await fill(testDb, STORED, noon(addDays(today, -1)), addDays(today, -1));
    for (const statement of [storeUnmappedQuery(WORKSPACE, batch, { sightings: [], links: [] }, [], today), storeEventsQuery(WORKSPACE, batch, [], today)]) {
      for (const plan of await plansOf(testDb.db, statement)) expectIndexProbes(plan, [partitionOf(addDays(today, -1))]);
    }
  });

  it("keeps each connection's statements of today and the day before, and frees older days'", async () => {
    const { url } = testDb;
    const db = createDatabase({ url, poolMax: 1 });
    try {
      const first = addDays(dayOf(new Date()), 2);
      let day = first;
      const writes = createIngestWriteRepository(db, { now: () => new Date(`${day}T12:00:00Z`) });
      const prepared = async () => (await db.raw<{ rows: { name: string }[] }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'ingest-store-%' ORDER BY name")).rows.map((r) => r.name);
      const event = (messageId: string): NewEvent => ({ messageId, type: 'page', eventName: null, userId: null, anonymousId: 'a', occurredAt: new Date(), messageJson: '{}' });

      await writes.storeUnmapped('ws_days', [event('m-1')], { sightings: [], links: [] }, []);
      day = addDays(first, 1);
      await writes.transaction((trx) => trx.storeEvents('ws_days', [event('m-2')], []));
      expect(await prepared()).toEqual([`ingest-store-events ${day}`, `ingest-store-unmapped ${first}`]);

      day = addDays(first, 3);
      await writes.storeUnmapped('ws_days', [event('m-3')], { sightings: [], links: [] }, []);
      expect(await prepared()).toEqual([`ingest-store-unmapped ${day}`]);
      expect(await db('events').where({ workspace_id: 'ws_days' }).orderBy('message_id').select('message_id', db.raw('received_on::text AS day'))).toEqual([
        { message_id: 'm-1', day: first },
        { message_id: 'm-2', day: addDays(first, 1) },
        { message_id: 'm-3', day },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
