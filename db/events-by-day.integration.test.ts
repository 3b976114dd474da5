import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { migrateDownThrough, migrateUpTo, migrationConfig } from './knex';
import { createSecretBox } from './secret-box';
import { createRepositories } from './repositories';
import { addDays, dayOf } from './repositories/event-days';
import { isStoredBefore } from './repositories/ingest-writes';

const PARTITIONS = '20261130100000_events_by_day';
const MESSAGE_HASH = '20261201100000_events_message_by_hash';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: false });
});
afterAll(() => testDb.destroy());

describe('the upgrade to events by day', () => {
  it('keeps the events stored before as one partition, their conversions finding them, and takes new days beside them', async () => {
    await migrateUpTo(testDb.db, PARTITIONS);
    const db = testDb.db;
    await db('workspaces').insert({ id: 'ws_old', name: 'Before days' });
    const [stored] = await db('events')
      .insert([
        { workspace_id: 'ws_old', message_id: 'm-old', type: 'track', event_name: 'purchase', user_id: 'u-1', anonymous_id: 'a-1', occurred_at: new Date(), message: { type: 'track' } },
        { workspace_id: 'ws_old', message_id: 'm-page', type: 'page', anonymous_id: 'a-1', occurred_at: new Date(), message: { type: 'page' } },
      ])
      .returning('id');
    await db('conversions').insert({
      workspace_id: 'ws_old', event_row_id: stored.id, message_id: 'm-old', source_event: 'purchase', tiktok_event: 'CompletePayment', event_id: 'o-1', event_time: new Date(), workflow_id: 'w',
    });

    await db.migrate.latest(migrationConfig);

    const partitions = await db.raw<{ rows: { name: string; bound: string }[] }>(
      "SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1",
    );
    expect(partitions.rows).toContainEqual({ name: 'events_before_days', bound: "FOR VALUES FROM (MINVALUE) TO ('1970-01-01')" });
    expect(partitions.rows.length).toBe(1 + 9); // yesterday, today and the coming week
    expect(await db('events').orderBy('message_id').select('message_id', db.raw('received_on::text AS day'))).toEqual([
      { message_id: 'm-old', day: '-infinity' },
      { message_id: 'm-page', day: '-infinity' },
    ]);
    const conversion = await db('conversions').first('event_received_on', 'user_id', 'anonymous_id', db.raw('event_received_on::text AS day'));
    expect(conversion).toMatchObject({ day: '-infinity', user_id: 'u-1', anonymous_id: 'a-1' });

    // A pending conversion of the old layout still reaches its event through the join the pipeline reads it with.
    const repos = createRepositories(db, createSecretBox('11'.repeat(32)));
    // The console counts them live: the condition that keeps a read to its range's days keeps their partition too.
    const lastHour = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 60_000), timeZone: 'UTC' };
    expect((await repos.eventCounts.perDay('ws_old', lastHour)).reduce((sum, count) => sum + count.events, 0)).toBe(2);
    await db('conversions').update({ claim_id: '00000000-0000-4000-8000-000000000001' });
    expect(await repos.conversionGroups.toPrepare('00000000-0000-4000-8000-000000000001')).toEqual([
      expect.objectContaining({ eventId: 'o-1', message: { type: 'track', messageId: 'm-old', event: 'purchase', userId: 'u-1', anonymousId: 'a-1' } }),
    ]);

    // New events go to today's partition; the old ones leave by the row-by-row path.
    await repos.ingestWrites.storeUnmapped('ws_old', [{ messageId: 'm-new', type: 'page', eventName: null, userId: null, anonymousId: 'a-2', occurredAt: new Date(), messageJson: '{}' }], { sightings: [], links: [] }, []);
    // The database's day: its clock stamps the event.
    const { rows } = await db.raw<{ rows: { today: string }[] }>("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD') AS today");
    expect(await db('events').where({ message_id: 'm-new' }).first(db.raw('tableoid::regclass::text AS partition'))).toEqual({ partition: `events_${rows[0]?.today}` });
    await db('conversions').update({ status: 'delivered' });
    expect(await repos.retention.removeExpired('ws_old', new Date(Date.now() + 1_000), 10)).toEqual({ deleted: 2, stripped: 1 });

    // And back: one table again, holding every event left.
    await db('events').insert({ workspace_id: 'ws_old', message_id: 'm-later', type: 'page', occurred_at: new Date(), message: {} });
    await migrateDownThrough(db, PARTITIONS);
    expect(await db('events').orderBy('message_id').pluck('message_id')).toEqual(['m-later', 'm-old']);
  });
});

describe('the upgrade to messageIds kept by hash', () => {
  it("keeps yesterday's look and today's refusal of a repeat, and goes back to the B-tree", async () => {
    const upgraded = await createTestDatabase({ migrated: false });
    try {
      const db = upgraded.db;
      await migrateUpTo(db, MESSAGE_HASH);
      await db('workspaces').insert({ id: 'ws_up', name: 'Up' });
      const event = (messageId: string, daysAgo: number) => ({
        workspace_id: 'ws_up', message_id: messageId, type: 'page', occurred_at: new Date(), message: {},
        received_on: db.raw(`(now() AT TIME ZONE 'UTC')::date - ${daysAgo}`),
      });
      await db('events').insert([event('m-yesterday', 1), event('m-today', 0)]);

      await db.migrate.latest(migrationConfig);

      const repos = createRepositories(db, createSecretBox('11'.repeat(32)));
      const incoming = (messageId: string) => ({ messageId, type: 'page', eventName: null, userId: null, anonymousId: 'a', occurredAt: new Date(), messageJson: '{}' });
      const stored = await repos.ingestWrites.storeUnmapped('ws_up', [incoming('m-yesterday'), incoming('m-new')], { sightings: [], links: [] }, []);
      expect([...stored.storedBefore]).toEqual(['m-yesterday']);
      const refused = await repos.ingestWrites.storeUnmapped('ws_up', [incoming('m-today')], { sightings: [], links: [] }, []).catch((error: unknown) => error);
      expect(isStoredBefore(refused)).toBe(true);
      expect(await db('events').orderBy('message_id').pluck('message_id')).toEqual(['m-new', 'm-today', 'm-yesterday']);

      await migrateDownThrough(db, MESSAGE_HASH);
      const again = await db('events').insert(event('m-new', 0)).catch((error: unknown) => error);
      expect(again).toMatchObject({ code: '23505', constraint: expect.stringMatching(/message/) });
    } finally {
      await upgraded.destroy();
    }
  });
});

describe('a day created by the retention schedule', () => {
  it("refuses a messageId twice in the workspace and day, through its partition's exclusion constraint", async () => {
    const db = testDb.db;
    await db.migrate.latest(migrationConfig);
    const repos = createRepositories(db, createSecretBox('11'.repeat(32)));
    await db('workspaces').insert([{ id: 'ws_a', name: 'A' }, { id: 'ws_b', name: 'B' }]);
    const { rows } = await db.raw<{ rows: { now: Date }[] }>('SELECT now()');
    const later = addDays(dayOf((rows[0] as { now: Date }).now), 20);
    expect(await repos.eventDays.ensure(later, later)).toEqual([later]);
    const event = (workspaceId: string) => ({
      workspace_id: workspaceId, message_id: 'm-1', type: 'page', occurred_at: new Date(), received_on: db.raw('?::date', [later]), message: {},
    });
    await db('events').insert([event('ws_a'), event('ws_b')]);
    const refused = await db('events').insert(event('ws_a')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: '23P01', constraint: `events_${later.replaceAll('-', '')}_message` });
  });
});

describe('row-by-row retention on days', () => {
  it('reads and writes only the days up to its cutoff: it runs while a later day is locked', async () => {
    const db = testDb.db;
    await db.migrate.latest(migrationConfig);
    const repos = createRepositories(db, createSecretBox('11'.repeat(32)));
    await db('workspaces').insert({ id: 'ws_days', name: 'Days' });
    const { rows } = await db.raw<{ rows: { now: Date }[] }>('SELECT now()');
    const now = (rows[0] as { now: Date }).now;
    const longAgo = addDays(dayOf(now), -40);
    await repos.eventDays.ensure(longAgo, longAgo);
    const event = (messageId: string, receivedAt: Date) => ({
      workspace_id: 'ws_days', message_id: messageId, type: 'page', occurred_at: receivedAt, received_at: receivedAt, received_on: db.raw('?::date', [dayOf(receivedAt)]), message: { type: 'page' },
    });
    await db('events').insert([event('m-expired', new Date(`${longAgo}T12:00:00Z`)), event('m-today', now)]);

    const today = `events_${dayOf(now).replaceAll('-', '')}`;
    const holder = await db.transaction();
    try {
      await holder.raw(`LOCK TABLE ${today} IN ACCESS EXCLUSIVE MODE`);
      const cutoff = new Date(now.getTime() - 30 * 86_400_000);
      const removed = await db.transaction(async (trx) => {
        await trx.raw("SET LOCAL lock_timeout = '2s'");
        return repos.retention.removeExpired('ws_days', cutoff, 10, trx);
      });
      expect(removed).toEqual({ deleted: 1, stripped: 0 });
    } finally {
      await holder.rollback();
    }
    expect(await db('events').where({ workspace_id: 'ws_days' }).pluck('message_id')).toEqual(['m-today']);
  });
});
