import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { planNodes, recordStatements, type SentStatement } from '../../test/helpers/query-plans';
import { addDays, createEventDayRepository, dayOf, partitionOf } from './event-days';
import { createEventCountRepository, ROLLUP_GRACE_MS } from './event-counts';

let testDb: TestDatabase;
const WS = 'ws_counts';
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
let serial = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.destroy();
});

async function received(at: Date, count: number): Promise<void> {
  await createEventDayRepository(testDb.db).ensure(dayOf(at), dayOf(at));
  const rows = Array.from({ length: count }, () => ({
    workspace_id: WS, message_id: `m-${(serial += 1)}`, type: 'track', event_name: 'viewed', occurred_at: at, received_at: at,
    received_on: testDb.db.raw('?::date', [dayOf(at)]), message: {},
  }));
  await testDb.db('events').insert(rows);
}

describe('event counts', () => {
  it('rolls up the hour in progress run after run, each event once, and reads live only what came after', async () => {
    const counts = createEventCountRepository(testDb.db);
    // An hour two days back, so every time below is past whatever the clock says.
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 48 * HOUR_MS);
    const at = (minutes: number) => new Date(hour.getTime() + minutes * MINUTE_MS);
    const range = { from: new Date(`${addDays(dayOf(hour), -1)}T00:00:00Z`), to: new Date(`${addDays(dayOf(hour), 2)}T00:00:00Z`), timeZone: 'UTC' };
    const total = async () => (await counts.perDay(WS, range)).reduce((sum, c) => sum + c.events, 0);
    const rolledUp = async () => Number((await testDb.db('event_counts_hourly').where({ workspace_id: WS }).sum<{ sum: string }[]>({ sum: 'events' }))[0]?.sum ?? 0);

    await received(at(10), 2);
    await counts.rollUp(new Date(at(20).getTime() + ROLLUP_GRACE_MS));
    expect(await counts.rolledThrough()).toEqual(at(20));
    expect(await rolledUp()).toBe(2);

    await received(at(30), 3);
    expect(await total()).toBe(5);

    await counts.rollUp(new Date(at(40).getTime() + ROLLUP_GRACE_MS));
    await counts.rollUp(new Date(at(40).getTime() + ROLLUP_GRACE_MS));
    expect(await rolledUp()).toBe(5);
    expect(await testDb.db('event_counts_hourly').where({ workspace_id: WS }).pluck('hour')).toEqual([hour]);

    await received(at(50), 1);
    await received(at(70), 4);
    expect(await total()).toBe(10);
    await counts.rollUp(new Date(at(75).getTime() + ROLLUP_GRACE_MS));
    expect(await rolledUp()).toBe(10);
    expect(await total()).toBe(10);
  });

  it('reads live only the partitions of the days it counts, however many days are kept', async () => {
    const now = new Date();
    await createEventDayRepository(testDb.db).ensure(addDays(dayOf(now), -30), dayOf(now));
    await received(now, 2);
    const counts = createEventCountRepository(testDb.db);
    const lastHour = { from: new Date(now.getTime() - HOUR_MS), to: new Date(now.getTime() + MINUTE_MS), timeZone: 'UTC' };
    const { result, statements } = await recordStatements(testDb.db, () => counts.perDay(WS, lastHour));
    expect(result.reduce((sum, c) => sum + c.events, 0)).toBe(2);
    const read = (await planNodes(testDb.db, statements.at(-1) as SentStatement)).map((node) => node['Relation Name']).filter((name) => String(name).startsWith('events_'));
    expect(new Set(read)).toEqual(new Set([...new Set([dayOf(lastHour.from), dayOf(lastHour.to)])].map(partitionOf)));
  });
});
